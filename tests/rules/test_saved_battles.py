"""A battle saved by the previous version (units keyed by name) loads, keeps every reference, and plays on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules import turns
from rules.battle import SCHEMA_VERSION, Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import RulesetError
from rules.orders import EditUnit, Move
from rules.systems.strategic.actions.battlefield import NextRound
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
    assert turns.names_of(battle, battle.turn.units) == ["Eva-01", "Eva-02", "Sachiel"]
    assert battle.turn.left == {ids["Eva-01"]: 1, ids["Eva-02"]: 2, ids["Sachiel"]: 2}
    assert turns.standing_order_of(battle, "Eva-02") == "hold"
    assert battle.to_dict()["schema_version"] == SCHEMA_VERSION


def test_a_version_1_battle_plays_on() -> None:
    battle = _load()
    out = battle.apply(Move(unit="Eva-02", to=Cell.parse("C4"), mode="half"), Dice.seeded(1))
    assert out.effects[0].kind == "moved" and str(battle.unit("Eva-02").cell) == "C4"
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


V2 = Path(__file__).parent / "fixtures" / "battle_v2.json"


def _load_v2() -> Battle:
    return Battle.from_dict(json.loads(V2.read_text(encoding="utf-8")))


def test_a_version_2_battle_loads_its_squares_as_typed_fields() -> None:
    saved = json.loads(V2.read_text(encoding="utf-8"))
    assert saved["schema_version"] == 2
    battle = _load_v2()
    walls, trap, mines = (battle.square_state(Cell.parse(c)) for c in ("A5", "B1", "D6"))
    assert (walls.feature, walls.feature_side, walls.feature_ap, walls.feature_purchase) == ("barrier_walls", "NERV", 16, 4)
    assert (trap.feature, trap.revealed, trap.feature_ap) == ("fire_trap", ["NERV"], None)
    assert mines.mine_triggers == 4 and battle.square_state(Cell.parse("H5")).bridge_wounds == 5
    assert battle.square_state(Cell.parse("G2")).underlying == "water" and battle.terrain_at(Cell.parse("G2")).key == "ice"
    assert (battle.square_state(Cell.parse("A1")).fire, battle.square_state(Cell.parse("E7")).smoke) == (2, 2)
    assert battle.square_state(Cell.parse("C1")).burnt and battle.square_state(Cell.parse("I2")).storm
    assert battle.square_state(Cell.parse("J8")).deep and battle.square_state(Cell.parse("B2")).empty


def test_a_version_2_battle_saves_back_to_the_same_document() -> None:
    saved = json.loads(V2.read_text(encoding="utf-8"))
    again = _load_v2().to_dict()
    assert again["cells"] == saved["cells"] and again["turn"] == saved["turn"] and again["units"] == saved["units"]


def test_a_version_2_battle_plays_on() -> None:
    battle = _load_v2()
    assert turns.names_of(battle, turns.next_due(battle)) == ["Eva-01"]  # Eva-02 held
    out = battle.apply(Move(unit="Eva-01", to=Cell.parse("C3"), mode="half"), Dice.seeded(1))
    assert out.effects[0].kind == "moved" and str(battle.unit("Eva-01").cell) == "C3"
    battle.apply(EndTurn(unit="Eva-01"), Dice.seeded(2))
    assert turns.names_of(battle, turns.next_due(battle)) == ["Sachiel"]
    battle.apply(NextRound(), Dice.seeded(3))
    # The smoke cloud thins by a round (A37).
    assert battle.square_state(Cell.parse("E7")).smoke == 1


def test_the_saved_map_reads_back_square_by_square_and_an_unknown_character_is_named() -> None:
    battle = Battle.new("strategic-e", 6, 3, "Map")
    battle.terrain[1] = "forest"
    battle.terrain[6 + 4] = "water"
    battle.terrain[17] = "forest"
    saved = battle.to_dict()
    assert Battle.from_dict(saved).terrain == battle.terrain
    forest, water, open_ground = (battle.ruleset.terrain[k].char for k in ("forest", "water", "plain"))
    assert saved["terrain"] == [f"{open_ground}{forest}{open_ground * 4}", f"{open_ground * 4}{water}{open_ground}",
                                f"{open_ground * 5}{forest}"]
    # The first unknown character in reading order is the one named.
    broken = {**saved, "terrain": [saved["terrain"][0], saved["terrain"][1][:2] + "?!" + saved["terrain"][1][4:],
                                   "#" * 6]}
    with pytest.raises(RulesetError, match=r"Unknown terrain character `\?` in the saved map"):
        Battle.from_dict(broken)
