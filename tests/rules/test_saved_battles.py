"""A battle saved by the previous version (units keyed by name) loads, keeps every reference, and plays on."""

from __future__ import annotations

import json
from pathlib import Path

from rules import turns
from rules.battle import SCHEMA_VERSION, Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import EditUnit, Move
from rules.turnorders import EndTurn, Hold

FIXTURE = Path(__file__).parent / "fixtures" / "battle_v1.json"


def _load() -> Battle:
    return Battle.from_dict(json.loads(FIXTURE.read_text(encoding="utf-8")))


def test_a_version_1_battle_upgrades_with_stable_ids_and_keeps_its_references() -> None:
    saved = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert saved["schema_version"] == 1 and "id" not in saved["units"][0]
    battle = _load()
    ids = {u.name: u.id for u in battle.iter_units()}
    assert sorted(ids) == ["Eva-01", "Eva-02", "Sachiel"] and len(set(ids.values())) == 3
    assert battle.unit("Eva-01").engaged == [ids["Sachiel"]] and battle.unit("Sachiel").engaged == [ids["Eva-01"]]
    assert turns.names_of(battle, battle.turn["units"]) == ["Eva-01", "Eva-02", "Sachiel"]
    assert battle.turn["left"] == {ids["Eva-01"]: 1, ids["Eva-02"]: 2, ids["Sachiel"]: 2}
    assert turns.standing_order_of(battle, "Eva-02") == "hold"
    assert battle.to_dict()["schema_version"] == SCHEMA_VERSION


def test_a_version_1_battle_plays_on() -> None:
    battle = _load()
    out = battle.apply(Move(unit="Eva-02", to=Cell.parse("C4"), mode="half"), Dice.seeded(1))
    assert out.effects[0]["type"] == "moved" and str(battle.unit("Eva-02").cell) == "C4"
    battle.apply(Hold(unit="Eva-02"), Dice.seeded(2))
    battle.apply(EndTurn(unit="Eva-01"), Dice.seeded(3))
    # NERV is done, so the Angels' phase follows.
    assert turns.current_side(battle) == "Angels"


def test_renaming_mid_round_keeps_the_unit_in_the_round_and_its_engagements() -> None:
    """Renaming touches only the name: the round, budgets, standing orders and engagements follow the id."""
    battle = _load()
    uid = battle.unit("Sachiel").id
    battle.apply(EditUnit(unit="Sachiel", stats={"name": "Third Angel"}), Dice.seeded(1))
    assert battle.unit("Third Angel").id == uid and battle.find_unit("Sachiel") is None
    assert battle.unit("Eva-01").engaged == [uid]
    assert "Third Angel" in turns.names_of(battle, turns.participants(battle))
    assert turns.actions_left(battle, "Third Angel") == 2


def test_a_battle_saved_now_round_trips_exactly() -> None:
    battle = _load()
    again = Battle.from_dict(battle.to_dict())
    assert again.to_dict() == battle.to_dict()
