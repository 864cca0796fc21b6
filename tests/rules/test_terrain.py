"""Terrain: both tables as data, and what a square gives without an attack (DTV, cover, elevation, stealth)."""

from __future__ import annotations

import pytest

from rules.battle import Battle
from rules.constants import list_constants
from rules.coords import Cell
from rules.orders import Paint, SetRule, SkillTest
from rules.ruleset import get_ruleset
from rules.systems.strategic.actions.features import PlaceFeature
from rules.systems.strategic.featuretable import features_of
from rules.systems.strategic.terrain import (
    combine,
    cover_ap,
    dtv_penalty,
    effective_dtv,
    elevation,
    hit_bonus,
    hit_penalty,
    stealth,
)
from tests.rules.conftest import add, dice

A1 = Cell(0, 0)


def painted(battle: Battle, terrain: str, cell: Cell = A1) -> Cell:
    """Paint one square and return it."""
    battle.apply(Paint(terrain=terrain, frm=cell), dice())
    return cell


# --- the tables -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "ap", "dtv", "penalty", "bonus", "elev", "hide"),
    [
        # RULES 1.7 (000:L57-74): Terrain | AP | DTV | Hit Penalty | Hit Bonus | Elevation | Stealth
        ("bridge", 0, 0, 0, 0, "middle", None),
        ("forest", 2, 2, -10, 0, "middle", 0),
        ("ice", 0, 6, 0, 0, "low", None),
        ("plain", 0, 0, 0, 0, "middle", None),
        ("rough", 3, 4, -20, 0, "high", 10),
        ("shallows", 0, 4, 0, 10, "middle", 10),
        ("urban", 3, 0, 0, 0, "middle", 0),
        ("water", 0, 4, 0, 20, "low", 20),
    ],
)
def test_p_scale_terrain_table(key: str, ap: int, dtv: int, penalty: int, bonus: int, elev: str, hide: int | None) -> None:
    t = get_ruleset("strategic-p").terrain[key]
    assert (t.ap, t.dtv, t.hit_penalty, t.hit_bonus, t.elevation, t.stealth) == (ap, dtv, penalty, bonus, elev, hide)


def test_p_scale_hoverers_ignore_dtv_on_exactly_ice_shallows_water() -> None:
    """A43: Hoverers ignore DTV on Ice, Shallows and Water only; A42: Aquatic in Water only."""
    terrain = get_ruleset("strategic-p").terrain
    assert {k for k, t in terrain.items() if t.hover_ignores_dtv} == {"ice", "shallows", "water"}
    assert {k for k, t in terrain.items() if t.aquatic_ignores} == {"water"}
    assert {k for k, t in terrain.items() if t.flammable} == {"forest"}


@pytest.mark.parametrize(
    ("key", "ap", "dtv"),
    # RULES 2.6 (001:L58-63): Forest 2/2, Mountain 3/4, River/Water 0/4, Urban 2/- ("do not count as Difficult Terrain")
    [("forest", 2, 2), ("mountain", 3, 4), ("water", 0, 4), ("urban", 2, 0), ("plain", 0, 0)],
)
def test_e_scale_natural_cover_table(key: str, ap: int, dtv: int) -> None:
    t = get_ruleset("strategic-e").terrain[key]
    assert (t.ap, t.dtv) == (ap, dtv)
    # A57: no Hit Penalty, Hit Bonus or Elevation system in E-mode.
    assert (t.hit_penalty, t.hit_bonus, t.elevation) == (0, 0, "middle")


def test_e_scale_natural_cover_allows_stealth_at_plus_0() -> None:
    """A41: "In E-mode every Natural Cover type allows Stealth at +0"; open ground is not cover."""
    terrain = get_ruleset("strategic-e").terrain
    assert {k: t.stealth for k, t in terrain.items()} == {
        "plain": None, "forest": 0, "mountain": 0, "water": 0, "urban": 0}


def test_scales_keep_their_own_terrain() -> None:
    """6: Ice / Shallows / Bridge / Plain only in P; Mountain only in E."""
    assert {"ice", "shallows", "bridge", "rough"} <= set(get_ruleset("strategic-p").terrain)
    assert not {"ice", "shallows", "bridge", "rough"} & set(get_ruleset("strategic-e").terrain)
    assert "mountain" not in get_ruleset("strategic-p").terrain


def test_features_table() -> None:
    """RULES 1.9 features table (000:L105-112)."""
    f = features_of(get_ruleset("strategic-p"))
    rows = {k: (v.cost, v.cover_ap, v.hit_penalty, set(v.terrain), v.squares, v.hidden) for k, v in f.items()}
    assert rows == {
        "bakelite_trap": (3, 0, 0, {"urban"}, 1, True),
        "barrier_walls": (2, 16, 0, {"plain", "forest", "rough", "urban"}, 3, False),
        "fire_trap": (3, 0, 0, {"forest"}, 1, True),
        "minefield": (3, 0, 0, {"plain", "forest", "urban", "water"}, 1, False),
        "temporary_bridge": (3, 0, 0, {"shallows", "water"}, 1, False),
        "trench": (2, 0, -20, {"plain"}, 3, False),
    }
    assert not features_of(get_ruleset("strategic-e"))


# --- DTV ------------------------------------------------------------------------------------


def test_dtv_penalty_on_agility_tests(battle_p: Battle) -> None:
    """000:L39 "-5 Difficult Terrain penalty to Agility, Parry and WS Attack tests per point of DTV"."""
    painted(battle_p, "forest")
    add(battle_p, "Scout", "Red", "A1", ag=40, ws=40)
    scout = battle_p.unit("Scout")
    assert dtv_penalty(battle_p, scout) == -10
    out = battle_p.apply(SkillTest(unit="Scout", stat="ag"), dice(50))
    assert out.tests[0].target == 30
    out = battle_p.apply(SkillTest(unit="Scout", stat="bs"), dice(50))
    assert out.tests[0].target == 30  # BS 30 default: no DTV line
    assert out.tests[0].breakdown.modifiers == ()


def test_hordes_take_no_dtv_test_penalty(battle_p: Battle) -> None:
    painted(battle_p, "rough")
    add(battle_p, "Mob", "Red", "A1", kind="horde", magnitude=10)
    assert dtv_penalty(battle_p, battle_p.unit("Mob")) == 0


def test_combination_rule() -> None:
    """000:L89 / 000:L84: "select the highest penalty, increase it by one" when both are present."""
    assert combine(2, 3, 1) == 4
    assert combine(4, 0, 1) == 4
    assert combine(0, 16, 1) == 16
    assert combine(0, 0, 1) == 0


@pytest.mark.parametrize(("terrain", "dtv"), [("forest", 3), ("mountain", 5), ("water", 5), ("plain", 2), ("urban", 2)])
def test_storm_dtv(battle_e: Battle, terrain: str, dtv: int) -> None:
    """A53: base DTV + 1 under a storm, otherwise the storm's own 2 (Forest 3, Mountain 5, Water 5, Plain/Urban 2)."""
    cell = painted(battle_e, terrain)
    battle_e.square(cell)["storm"] = True
    assert effective_dtv(battle_e, None, cell) == dtv


def test_storm_over_water_still_slows_a_hoverer(battle_e: Battle) -> None:
    cell = painted(battle_e, "water")
    battle_e.square(cell)["storm"] = True
    add(battle_e, "Skiff", "UN", "A1", hoverer=4)
    assert effective_dtv(battle_e, battle_e.unit("Skiff"), cell) == 2


def test_p_scale_storm_flag_has_no_dtv(battle_p: Battle) -> None:
    """A57: E-mode storm rules are not ported to P-mode; there the flag only stops fires."""
    cell = painted(battle_p, "forest")
    battle_p.square(cell)["storm"] = True
    assert effective_dtv(battle_p, None, cell) == 2


def test_temporary_bridge_removes_water_dtv(battle_p: Battle) -> None:
    """1.8.1: a standing bridge uses the Bridge row, whose DTV is blank."""
    cell = painted(battle_p, "water")
    battle_p.ensure_side("Red").fp_override = 5
    battle_p.apply(PlaceFeature(feature="temporary bridge", side="Red", at=cell), dice())
    assert effective_dtv(battle_p, None, cell) == 0


# --- cover AP (A22) --------------------------------------------------------------------------


def walls(battle: Battle, terrain: str) -> Cell:
    """Lay Barrier Walls on A1 over a terrain."""
    cell = painted(battle, terrain)
    battle.ensure_side("Red").fp_override = 5
    battle.apply(PlaceFeature(feature="barrier walls", side="Red", at=cell), dice())
    return cell


def test_cover_of_terrain_alone(battle_p: Battle) -> None:
    assert cover_ap(battle_p, painted(battle_p, "rough")) == (3, 0, 3)
    assert cover_ap(battle_p, painted(battle_p, "urban")) == (3, 0, 3)
    assert cover_ap(battle_p, painted(battle_p, "water")) == (0, 0, 0)


def test_e_scale_urban_cover_is_2(battle_e: Battle) -> None:
    """001:L53 "If you have AP 6, and are in an Urban area (AP 2), you will be treated as having AP 8"."""
    assert cover_ap(battle_e, painted(battle_e, "urban")) == (2, 0, 2)


def test_walls_on_plain_and_on_forest(battle_p: Battle) -> None:
    """000:L84 "take the highest value between them and increase it by +1" (Barrier Walls 16 on Forest 2: 17)."""
    assert cover_ap(battle_p, walls(battle_p, "plain")) == (0, 16, 16)
    battle_p.apply(Paint(terrain="forest", frm=A1), dice())
    assert cover_ap(battle_p, A1) == (2, 16, 17)


def test_decayed_walls_leave_only_the_terrain(battle_p: Battle) -> None:
    """A22: once the feature is worn away only the terrain value remains."""
    cell = walls(battle_p, "forest")
    battle_p.square(cell)["feature_ap"] = 0
    assert cover_ap(battle_p, cell) == (2, 0, 2)
    battle_p.square(cell)["feature_ap"] = 5
    assert cover_ap(battle_p, cell) == (2, 5, 6)


def test_flyers_get_no_ground_cover(battle_p: Battle) -> None:
    """A43: flying units ignore ground terrain AP."""
    cell = walls(battle_p, "forest")
    add(battle_p, "Jet", "Red", "A1", flyer=5, altitude=2)
    assert cover_ap(battle_p, cell, battle_p.unit("Jet")) == (0, 0, 0)


# --- elevation, stealth, hit penalty and bonus ----------------------------------------------------


def test_elevation(battle_p: Battle) -> None:
    """A19: Normal = Middle; A42: Aquatic in Water counts as Middle; flyers use altitude."""
    add(battle_p, "Frog", "Red", "A1", aquatic=True)
    add(battle_p, "Jet", "Red", "A1", flyer=5, altitude=1)
    frog, jet = battle_p.unit("Frog"), battle_p.unit("Jet")
    assert elevation(battle_p, None, painted(battle_p, "rough")) == "high"
    assert elevation(battle_p, None, painted(battle_p, "shallows")) == "middle"
    water = painted(battle_p, "water")
    assert elevation(battle_p, None, water) == "low"
    assert elevation(battle_p, frog, water) == "middle"
    assert elevation(battle_p, jet, water) is None


def test_stealth(battle_p: Battle) -> None:
    """A41: "+0" = hiding allowed, "-" = not allowed; A37: smoke allows Stealth at +0; A43: not for flyers."""
    assert stealth(battle_p, painted(battle_p, "plain")) is None
    battle_p.square(A1)["smoke"] = 1
    assert stealth(battle_p, A1) == 0
    assert stealth(battle_p, painted(battle_p, "rough")) == 10
    assert stealth(battle_p, painted(battle_p, "water")) == 20
    add(battle_p, "Jet", "Red", "A1", flyer=5, altitude=1)
    forest = painted(battle_p, "forest", Cell(1, 1))
    assert stealth(battle_p, forest) == 0 and stealth(battle_p, forest, battle_p.unit("Jet")) is None


def test_e_scale_storm_allows_stealth(battle_e: Battle) -> None:
    battle_e.square(A1)["storm"] = True
    assert stealth(battle_e, A1) == 0


def test_hit_penalties_add(battle_p: Battle) -> None:
    """A24: feature, terrain and smoke penalties add; the feature's counts only under the target; A37 smoke -20."""
    forest = painted(battle_p, "forest")
    assert hit_penalty(battle_p, forest, target_here=True) == -10
    battle_p.square(forest)["fire"] = 2  # a burning forest is a Smoke square (A36)
    assert hit_penalty(battle_p, forest, target_here=True) == -30
    battle_p.ensure_side("Red").fp_override = 5
    trench = Cell(3, 3)
    battle_p.apply(PlaceFeature(feature="trench", side="Red", at=trench), dice())
    battle_p.square(trench)["smoke"] = 1
    assert hit_penalty(battle_p, trench, target_here=True) == -40
    assert hit_penalty(battle_p, trench, target_here=False) == -20


def test_hit_bonus(battle_p: Battle) -> None:
    """000:L46 hit bonus; A42 Aquatic in Water gives none; A43 nor a flyer."""
    water = painted(battle_p, "water")
    add(battle_p, "Frog", "Red", "A1", amphibious=True)
    add(battle_p, "Man", "Red", "A1")
    assert hit_bonus(battle_p, water, battle_p.unit("Man")) == 20
    assert hit_bonus(battle_p, water, battle_p.unit("Frog")) == 0


# --- rule constants --------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["strategic-p", "strategic-e"])
def test_every_constant_has_a_ruling_and_a_doc(ruleset: str) -> None:
    battle = Battle.new(ruleset, 5, 5)
    rows = list_constants(battle)
    assert rows and all(r["ruling"] and r["doc"] for r in rows)
    assert all(r["value"] == r["default"] and not r["overridden"] for r in rows)


def test_list_constants_marks_overrides(battle_p: Battle) -> None:
    battle_p.apply(SetRule(key="rough_fall_dof", value="2"), dice())
    row = next(r for r in list_constants(battle_p) if r["key"] == "rough_fall_dof")
    assert row == {"key": "rough_fall_dof", "value": 2, "default": 3, "overridden": True, "ruling": "000:L68",
                   "doc": row["doc"], "min": 1, "max": 10}


def test_constants_of_one_scale_are_not_in_the_other() -> None:
    """6: do not mix P and E constants."""
    p = set(get_ruleset("strategic-p").constants)
    e = set(get_ruleset("strategic-e").constants)
    p_only = {"rough_fall_dof", "rough_fall_damage", "fp_per_ib", "max_features_per_square", "minefield_triggers",
              "minefield_damage", "dtv_combine_bonus", "cover_combine_bonus", "feature_squares_contiguous"}
    e_only = {"storm_dtv", "storm_dtv_bonus", "storm_allows_stealth", "mountain_fall_dof", "mountain_fall_damage"}
    assert p_only <= p and not p_only & e
    assert e_only <= e and not e_only & p
    both = {"horde_min_step_cost", "dt_test_on_entry", "deep_water_test_mod", "eva_sink_skill", "superheavy_sink_skill"}
    assert both <= p & e
