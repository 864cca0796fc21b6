"""Homebrew terrain and features imported per battle: played like the built-in rows, combined by the same
rules, kept through saving, undo and replay, and refused line by line when wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError, IllegalOrderError, InvalidOrderError
from rules.homebrew import MAX_BYTES, HomebrewError
from rules.orders import ImportHomebrew, Order, Paint
from rules.replay import Step, replay, same_state
from rules.systems.strategic.actions.features import PlaceFeature
from rules.systems.strategic.features import fp_status
from rules.systems.strategic.featuretable import features_of
from rules.systems.strategic.terrain import cover_ap, effective_dtv, hit_penalty, stealth
from tests.rules.conftest import add, dice

EXAMPLE = (Path(__file__).resolve().parents[2] / "examples" / "homebrew" / "volcanic.toml").read_text(encoding="utf-8")

TOWER = """
[[feature]]
key = "watchtower"
name = "Watchtower"
label = "WT"
cost = 3
cover_ap = 8
hit_penalty = -10
terrain = ["plain", "forest"]
"""


def brew(battle: Battle, text: str = EXAMPLE) -> None:
    """Import a homebrew table into the battle."""
    battle.apply(ImportHomebrew(text=text), dice())


def paint(battle: Battle, terrain: str, at: str) -> None:
    """Paint one square."""
    battle.apply(Paint(terrain=terrain, frm=Cell.parse(at)), dice())


def place(battle: Battle, feature: str, at: str) -> None:
    """Buy a feature for Red on a square."""
    battle.apply(PlaceFeature(feature=feature, side="Red", at=Cell.parse(at)), dice())


@pytest.fixture
def p(battle_p: Battle) -> Battle:
    """A P-scale battle with the example homebrew table and a Red commander with 8 feature points."""
    add(battle_p, "Commander", "Red", "T15", int=45, supreme_commander=True)
    brew(battle_p)
    return battle_p


def test_a_feature_of_dtv_2_over_rough_gives_dtv_5(p: Battle) -> None:
    """000:L89 "Features with DTV are over Terrain with DTV ... select the highest penalty, increase it by one":
    Tank Traps (DTV 2) over Rough (DTV 4) make DTV 5; over Plain (no DTV) only its own 2."""
    paint(p, "rough", "C3")
    place(p, "tank_traps", "C3")
    place(p, "Tank Traps", "D3")
    assert effective_dtv(p, None, Cell.parse("C3")) == 5
    assert effective_dtv(p, None, Cell.parse("D3")) == 2


def test_the_combination_bonus_is_the_gms_constant(p: Battle) -> None:
    """A23's "+1" is `dtv_combine_bonus`: at 3, the same Tank Traps over Rough make DTV 7."""
    paint(p, "rough", "C3")
    place(p, "tank_traps", "C3")
    p.apply(Order.parse("set-rule key:dtv_combine_bonus value:3"), dice())
    assert effective_dtv(p, None, Cell.parse("C3")) == 7


def test_homebrew_cover_and_hit_penalty_combine_like_built_ins(p: Battle) -> None:
    """A22: cover "max(featureAP, terrainAP) + 1 when both are > 0"; A24: feature, terrain and smoke hit
    penalties add, the feature's only for a target standing on it."""
    paint(p, "forest", "E5")
    place(p, "watchtower", "E5")
    assert cover_ap(p, Cell.parse("E5")) == (2, 8, 9)
    assert hit_penalty(p, Cell.parse("E5"), target_here=True) == -10 + -10
    assert hit_penalty(p, Cell.parse("E5"), target_here=False) == -10


def test_homebrew_terrain_paints_and_plays(p: Battle) -> None:
    """A painted homebrew terrain gives its own DTV, AP and Stealth; a feature may stand on it if it says so."""
    paint(p, "Crater", "B2")
    square = Cell.parse("B2")
    assert p.terrain_at(square).name == "Crater"
    assert effective_dtv(p, None, square) == 2 and cover_ap(p, square)[0] == 4 and stealth(p, square) == 10
    place(p, "tank_traps", "B2")
    assert effective_dtv(p, None, square) == 3


def test_feature_points_and_allowed_terrain_apply(p: Battle) -> None:
    """000:L78 feature points pay for a homebrew feature at its cost; it stands only on the terrain it lists."""
    place(p, "watchtower", "C3")
    assert fp_status(p)["Red"] == {"pool": 8, "spent": 3, "left": 5}
    paint(p, "lava", "D4")
    with pytest.raises(IllegalOrderError, match="Tank Traps"):
        place(p, "tank_traps", "D4")


def test_homebrew_survives_saving_undo_and_replay(battle_p: Battle) -> None:
    """The table is part of the battle: saved and loaded, restored by undo, rebuilt by replaying the log."""
    initial = battle_p.to_dict()
    texts = [str(ImportHomebrew(text=EXAMPLE)), "paint terrain:lava from:C3 to:D4", "paint terrain:crater from:A1"]
    steps = []
    for seq, text in enumerate(texts, start=1):
        out = battle_p.apply(Order.parse(text), dice())
        steps.append(Step.from_outcome(seq, text, out.to_dict()))
    loaded = Battle.from_dict(battle_p.to_dict())
    assert loaded.terrain_at(Cell.parse("D4")).name == "Lava Field" and "watchtower" in features_of(loaded.ruleset)
    assert same_state(replay(initial, steps).to_dict(), battle_p.to_dict())
    battle_p.undo()
    battle_p.undo()
    battle_p.undo()
    assert battle_p.homebrew == {} and "lava" not in battle_p.ruleset.terrain


def test_order_text_round_trips() -> None:
    order = ImportHomebrew(text=EXAMPLE)
    assert Order.parse(str(order)) == order


def test_reimporting_replaces_the_table_but_keeps_what_is_on_the_map(p: Battle) -> None:
    """A new table replaces the old; it may not drop a terrain painted or a feature standing on the map."""
    paint(p, "lava", "C3")
    place(p, "watchtower", "E5")
    refused(p, TOWER, IllegalOrderError, r"Lava Field \(`lava`\) is painted on 1 square")
    paint(p, "plain", "C3")
    brew(p, TOWER)
    assert "lava" not in p.ruleset.terrain and "tank_traps" not in features_of(p.ruleset)
    refused(p, TOWER.replace('"plain", "forest"', '"forest"'), IllegalOrderError,
            "Watchtower on E5 stands on Plain, which the new table no longer allows")


def refused(battle: Battle, text: str, error: type[GameError], fragment: str) -> None:
    """Check a homebrew table is refused with a message and changes nothing."""
    before = battle.to_dict()
    with pytest.raises(error, match=fragment):
        brew(battle, text)
    assert battle.to_dict() == before


@pytest.mark.parametrize(("text", "fragment"), [
    ("[[feature]]\nkey = \"wall\"\nname = ", r"not valid TOML: .*end of the file, line 3"),
    ("[[feature]]\nkey = \"wall\"\nname = \ncost = 2\n", r"not valid TOML: .*line 3"),
    (TOWER.replace("cost = 3", "cost = -3"), r"Line 6 \(\[\[feature\]\] #1 `watchtower`\), field `cost`: -3 is negative"),
    (TOWER.replace('"plain", "forest"', '"plain", "swamp"'),
     r"Line 9 \(\[\[feature\]\] #1 `watchtower`\), field `terrain`: `swamp` is not a terrain of this battle; "
     r"use `plain`, .*`bridge`\."),
    (TOWER.replace('key = "watchtower"', 'key = "trench"'), r"Line 3 .*field `key`: `trench` is Trench, a built-in feature of strategic-p"),
    (TOWER.replace('name = "Watchtower"', 'name = "Minefield"'), r"field `name`: \"Minefield\" is the name of a built-in"),
    ('[[terrain]]\nkey = "ash"\nname = "Ash"\nchar = "F"\n', r"Line 4 .*field `char`: the map character `F` is Forest's"),
    ('[[terrain]]\nkey = "forest"\nname = "Woods"\nchar = "W"\n', r"`forest` is a built-in terrain"),
    (TOWER + TOWER.replace("WT", "W2"), r"Line 12 .*`watchtower` is already the key of \[\[feature\]\] #1"),
    (TOWER.replace("cost = 3", "cost = 3\ncolour = 4"), r"Line 7 .*field `colour`: not a field of a homebrew feature"),
    (TOWER.replace("cost = 3", 'cost = "3"'), r"Line 6 .*field `cost`: `cost` must be int"),
    (TOWER.replace("hit_penalty = -10", "hit_penalty = 10"), r"field `hit_penalty`: 10 is positive"),
    ("[[weather]]\nkey = \"fog\"\n", r"`weather` is not a homebrew table"),
    ("", r"holds no \[\[terrain\]\] or \[\[feature\]\] table"),
])
def test_bad_tables_name_the_line_and_field_and_change_nothing(battle_p: Battle, text: str, fragment: str) -> None:
    refused(battle_p, text, InvalidOrderError, fragment)


def test_fields_left_out_take_the_built_in_defaults(battle_p: Battle) -> None:
    brew(battle_p, TOWER.replace("cover_ap = 8\n", ""))
    tower = features_of(battle_p.ruleset)["watchtower"]
    assert (tower.cover_ap, tower.dtv, tower.squares, tower.hidden) == (0, 0, 1, False)


def test_over_256_kib_is_refused(battle_p: Battle) -> None:
    padding = "# " + "x" * 1000 + "\n"
    text = TOWER + padding * (MAX_BYTES // len(padding) + 1)
    refused(battle_p, text, HomebrewError, "KiB; a homebrew table may be at most 256 KiB")


def test_e_scale_takes_terrain_but_no_features(battle_e: Battle) -> None:
    """001 has no artificial features: an E-Scale table holds terrain only."""
    refused(battle_e, TOWER, HomebrewError, "has no artificial features")
    brew(battle_e, '[[terrain]]\nkey = "ash"\nname = "Ash Plain"\nchar = "A"\ndtv = 1\n')
    paint(battle_e, "ash", "B2")
    assert effective_dtv(battle_e, None, Cell.parse("B2")) == 1
