"""The turn state: typed fields, saved as the same document, with malformed saves refused by field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.battle import Battle
from rules.dice import Dice
from rules.errors import RulesetError
from rules.orders import Start
from rules.turnorders import EndTurn, SetTurnMode
from rules.turnstate import InitiativeRecord, TurnState
from tests.rules.conftest import add

FIXTURES = Path(__file__).parent / "fixtures"


def _doc(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return doc


def test_a_version_2_turn_loads_as_typed_fields() -> None:
    battle = Battle.from_dict(_doc("battle_v2.json"))
    turn = battle.turn
    assert (turn.mode, turn.round, turn.at, turn.units) == ("initiative", 1, "u1", ["u2", "u1", "u3"])
    assert turn.done == {"u2": "held"} and turn.standing == {"u1": "hold"} and turn.left == {"u1": 2, "u2": 2, "u3": 2}
    first = turn.initiative[0]
    assert isinstance(first, InitiativeRecord)
    assert (first.id, first.unit, first.total, first.faces, first.bonus, first.tiebreak) == ("u2", "Eva-02", 8, [5], 3, 30)


def test_a_version_1_turn_upgrades_its_names_to_ids_and_saves_as_version_2() -> None:
    battle = Battle.from_dict(_doc("battle_v1.json"))
    ids = {u.name: u.id for u in battle.iter_units()}
    assert battle.turn.standing == {ids["Eva-02"]: "hold"} and battle.turn.at == "NERV"
    saved = battle.to_dict()["turn"]
    assert saved["left"] == {ids["Eva-01"]: 1, ids["Eva-02"]: 2, ids["Sachiel"]: 2}
    assert set(saved) == {"mode", "round", "units", "left", "done", "initiative", "at", "standing"}


def test_a_battle_in_setup_saves_only_what_was_set(battle_e: Battle) -> None:
    assert battle_e.to_dict()["turn"] == {}
    battle_e.apply(SetTurnMode(mode="side"), Dice.seeded(1))
    assert battle_e.to_dict()["turn"] == {"mode": "side"}


def test_a_running_round_round_trips_through_its_document(battle_e: Battle) -> None:
    add(battle_e, "Eva-01", "NERV", "A5")
    add(battle_e, "Sachiel", "Angels", "E5")
    battle_e.apply(Start(), Dice.seeded(3))
    battle_e.apply(EndTurn(unit=battle_e.unit(battle_e.turn.units[0]).name), Dice.seeded(4))
    doc = battle_e.to_dict()
    again = Battle.from_dict(json.loads(json.dumps(doc)))
    assert again.turn == battle_e.turn and again.to_dict()["turn"] == doc["turn"]


def test_a_system_document_under_its_own_key_is_kept() -> None:
    turn = TurnState.from_dict({"surface": {"turn": 2, "plans": {}}, "mode": "free"})
    assert turn.systems == {"surface": {"turn": 2, "plans": {}}} and turn.mode == "free"
    assert turn.to_dict() == {"mode": "free", "surface": {"turn": 2, "plans": {}}}


@pytest.mark.parametrize(("doc", "words"), [
    ({"round": "one"}, "`round` must be a whole number"),
    ({"units": "u1"}, "`units` must be a list"),
    ({"left": {"u1": 1.5}}, "`left.u1` must be a whole number"),
    ({"done": ["u1"]}, "`done` must be a table"),
    ({"initiative": [{"unit": "Eva-01"}]}, "initiative roll 1 has no `total`"),
    ({"initiative": [{"unit": "Eva-01", "total": "high"}]}, "are whole numbers"),
])
def test_a_malformed_saved_turn_names_the_field(doc: dict[str, Any], words: str) -> None:
    with pytest.raises(RulesetError, match=words):
        TurnState.from_dict(doc)
