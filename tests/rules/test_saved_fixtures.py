"""Battles saved by an earlier version of each rule system load, save back unchanged, and play on.

The fixtures in tests/fixtures/saved/ were written once from the recipes in `tests.rules.saved_fixtures`
(a few units, painted terrain, map layers, features, statuses, and an order or two played) and stay as
written, standing for battles players saved then (DESIGN §3: "Battle state ... with a schema version
upgraded on load").
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import RulesetError
from tests.rules.saved_fixtures import FOLDER, RECIPES

# More legal orders each battle plays after loading, and where the last one leaves its unit.
NEXT: dict[str, tuple[tuple[str, ...], str, str]] = {
    "strategic-e": (("move unit:Raider to:H5 mode:half",), "Raider", "H5"),
    "strategic-p": (("move unit:Raider to:G6 mode:half",), "Raider", "G6"),
    "combat-action": (("move unit:Rifleman to:C5 mode:walk",), "Rifleman", "C5"),
    # Red's squad has moved: its side ends its turn, and Blue's team moves.
    "m42": (("end-turn unit:Squad", "move unit:Team to:O5 mode:advance"), "Team", "O5"),
}


def _saved(name: str) -> dict[str, Any]:
    return json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8"))


def test_every_recipe_has_its_fixture_and_its_next_order() -> None:
    # Surface's saved battle holds its whole log as well, and has its own tests (test_saved_surface_fixture.py).
    others = {"surface"}
    assert sorted(p.stem for p in FOLDER.glob("*.json") if p.stem not in others) == sorted(RECIPES) == sorted(NEXT)


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_a_saved_battle_saves_back_to_the_same_document(name: str) -> None:
    saved = _saved(name)
    assert saved["ruleset"] == name
    # Combat Action keeps nothing on its squares: its fixture holds a unit's status instead.
    assert saved["cells"] or any(u.get("statuses") for u in saved["units"]), "each fixture holds some state"
    again = Battle.from_dict(saved).to_dict()
    # Sides of every system were saved with a feature point pool at zero; only strategic keeps one now.
    kept = [{k: v for k, v in side.items() if name.startswith("strategic") or not k.startswith("fp_")}
            for side in saved["sides"]]
    assert again == {**saved, "sides": kept}
    assert Battle.from_dict(again).to_dict() == again


def test_the_saved_squares_read_back_as_the_rules_see_them() -> None:
    e, p, m42 = (Battle.from_dict(_saved(n)) for n in ("strategic-e", "strategic-p", "m42"))
    assert [str(c) for c in e.squares_with("storm")] == ["F2"]
    assert sorted(str(c) for c in e.squares_with("deep")) == ["D2", "E1", "E2"]
    assert e.square_state(Cell.parse("F1")).smoke == 2 and e.square_state(Cell.parse("C2")).fire == 1
    trench, mines = p.square_state(Cell.parse("B4")), p.square_state(Cell.parse("E4"))
    assert (trench.feature, trench.feature_side) == ("trench", "Red")
    assert (mines.feature, mines.mine_triggers) == ("minefield", 5)
    assert m42.square_state(Cell.parse("C5")).road and m42.square_state(Cell.parse("K8")).floors == 3
    ca = Battle.from_dict(_saved("combat-action"))
    assert ca.unit("Gunner").statuses == ["flat_down"] and ca.terrain_at(Cell.parse("E5")).key == "woods"


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_a_saved_battle_plays_one_more_legal_order(name: str) -> None:
    battle = Battle.from_dict(_saved(name))
    texts, unit, to = NEXT[name]
    for text in texts:
        order = battle.parse_order(text)
        assert battle.is_legal(order), text
        battle.apply(order, Dice.seeded(5))
    assert str(battle.unit(unit).cell) == to
    again = Battle.from_dict(battle.to_dict())
    assert again.to_dict() == battle.to_dict()


def test_a_side_field_the_system_does_not_keep_is_refused_when_it_holds_something() -> None:
    saved = _saved("m42")
    saved["sides"][0]["fp_spent"] = 4
    with pytest.raises(RulesetError, match="The saved side 'Red' holds `fp_spent`, which this rule system does not"):
        Battle.from_dict(saved)
