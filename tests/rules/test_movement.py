"""Movement: allowances, Horde MP and DTV, stacking and blocking, and what entering a square does."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import turns
from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.orders import EditUnit, Move, Paint, SetRule
from rules.outcome import Outcome
from rules.systems.strategic.actions.features import PlaceFeature
from rules.systems.strategic.featuretable import allows_features
from rules.systems.strategic.movement import allowance, find_path, movement_base
from tests.rules.conftest import add, dice, new_round, start


def paint(battle: Battle, terrain: str, *cells: str) -> None:
    """Paint terrain on some squares."""
    battle.apply(Paint(terrain=terrain, cells=tuple(Cell.parse(c) for c in cells)), dice())


def flag(battle: Battle, key: str, *cells: str) -> None:
    """Set a per-square flag (storm, deep) as a map import would."""
    for c in cells:
        battle.square(Cell.parse(c))[key] = True


def move(battle: Battle, unit: str, to: str, mode: str = "full", *faces: int) -> Outcome:
    """Move a unit with scripted dice."""
    return battle.apply(Move(unit=unit, to=Cell.parse(to), mode=mode), dice(*faces))


def refused(battle: Battle, unit: str, to: str, mode: str, fragment: str) -> None:
    """Check a move is refused with a message and changes nothing."""
    before = battle.to_dict()
    with pytest.raises(IllegalOrderError, match=fragment):
        move(battle, unit, to, mode)
    assert battle.to_dict() == before


# --- allowances: "A Half Move only moves them AB/2, a Full moves them AB and a Charge AB*1.5.
#     A Run or Boosted Jump lets them move AB*2." (000:L7, 001:L11) -----------------------------


@pytest.mark.parametrize(
    ("ag", "half", "full", "charge", "run"),
    [(45, 2, 4, 6, 8), (35, 1, 3, 4, 6), (10, 1, 1, 1, 2), (61, 3, 6, 9, 12), (5, 0, 0, 0, 0)],
)
def test_allowance_from_ab(battle_e: Battle, ag: int, half: int, full: int, charge: int, run: int) -> None:
    """Half floor(AB/2) min 1, Full AB, Charge floor(AB*1.5), Run AB*2 (A03); AB 0 cannot move."""
    add(battle_e, "U", "NERV", "A1", ag=ag)
    unit = battle_e.unit("U")
    got = [allowance(battle_e, unit, m) for m in ("half", "full", "charge", "run")]
    assert got == [half, full, charge, run]


def test_flyer_and_hoverer_values_replace_ab(battle_p: Battle) -> None:
    """000:L8 "If your unit has a special movement value trait such as Flyer or Hoverer, use that"."""
    add(battle_p, "Hawk", "Red", "A1", ag=30, flyer=7, altitude=2)
    add(battle_p, "Skiff", "Red", "B1", ag=30, hoverer=5)
    add(battle_p, "Grounded", "Red", "C1", ag=30, flyer=7)
    hawk, skiff, grounded = (battle_p.unit(n) for n in ("Hawk", "Skiff", "Grounded"))
    assert [allowance(battle_p, hawk, m) for m in ("half", "full", "charge", "run")] == [3, 7, 10, 14]
    assert [allowance(battle_p, skiff, m) for m in ("half", "full", "charge", "run")] == [2, 5, 7, 10]
    assert movement_base(hawk)[1] == "Flyer(7)" and movement_base(skiff)[1] == "Hoverer(5)"
    assert movement_base(grounded) == (3, "AB 3")  # a Flyer on the ground walks


def test_horde_mp_value(battle_p: Battle) -> None:
    """A39: a Horde's MP per activation follow the movement table from its movement value."""
    add(battle_p, "Tanks", "Red", "A1", kind="horde", magnitude=20, ag=20, mp=6)
    tanks = battle_p.unit("Tanks")
    assert [allowance(battle_p, tanks, m) for m in ("half", "full", "charge", "run")] == [3, 6, 9, 12]


def test_full_move_in_squares_is_chebyshev(battle_e: Battle) -> None:
    """A02: a diagonal step costs 1, so AB 4 reaches E5 from A1."""
    add(battle_e, "Eva", "NERV", "A1", ag=45)
    start(battle_e)
    out = move(battle_e, "Eva", "E5")
    assert out.details.cost == 4 and battle_e.unit("Eva").cell == Cell.parse("E5")


# --- Hordes and DTV: "Hordes ... must expend a number of MP equal to the DTV to move onto that square.
#     If they do not have enough MP, they may not move onto it." (000:L40) -----------------------


def test_horde_pays_dtv_and_one_on_open_ground(battle_p: Battle) -> None:
    """A39: entering costs max(1, DTV): a plain 1 MP, a forest 2 MP."""
    paint(battle_p, "forest", "B1")
    add(battle_p, "Mob", "Red", "A1", kind="horde", magnitude=20, ag=40)
    start(battle_p)
    out = move(battle_p, "Mob", "C1", "full")
    # Around the forest (B2 then C1) costs 2, through it 3: the cheaper way is taken.
    assert out.details.cost == 2 and "B1" not in out.details.path
    assert out.details.spent_unit == "MP"


def test_horde_goes_around_a_forest_when_cheaper(battle_p: Battle) -> None:
    """A Horde's path is the cheapest in MP, not the shortest in squares."""
    paint(battle_p, "rough", "B2", "C2", "B1", "C1")
    add(battle_p, "Mob", "Red", "A2", kind="horde", magnitude=20, ag=40)
    start(battle_p)
    out = move(battle_p, "Mob", "D2", "run")
    # Straight through the Rough costs 4 + 4 + 1 = 9 MP; around by row 3 costs 3.
    assert list(out.details.path) == ["A2", "B3", "C3", "D2"] and out.details.cost == 3


def test_horde_crosses_difficult_ground_when_no_way_round_is_cheaper() -> None:
    b = Battle.new("strategic-p", 3, 1)
    b.apply(Paint(terrain="forest", frm=Cell.parse("B1")), dice())
    add(b, "Mob", "Red", "A1", kind="horde", magnitude=20, ag=40)
    start(b)
    assert move(b, "Mob", "C1", "full").details.cost == 3


def test_horde_refused_a_square_it_cannot_pay_for(battle_p: Battle) -> None:
    """The refusal names the cost of the square and the Horde's MP."""
    paint(battle_p, "water", "B1")
    add(battle_p, "Mob", "Red", "A1", kind="horde", magnitude=20, ag=40)
    start(battle_p)
    refused(battle_p, "Mob", "B1", "half", r"Water \(DTV 4\).*4 MP.*only 2 MP \(AB 4\)")


def test_horde_refused_when_the_whole_way_costs_too_much(battle_p: Battle) -> None:
    paint(battle_p, "forest", *[f"B{r}" for r in range(1, 16)])
    add(battle_p, "Mob", "Red", "A1", kind="horde", magnitude=20, ag=20)
    start(battle_p)
    refused(battle_p, "Mob", "C1", "full", r"costs 3 MP.*only 2 MP")


def test_characters_are_not_slowed_by_dtv(battle_p: Battle) -> None:
    """1.2: ICs only take test penalties in difficult terrain, never extra movement cost."""
    paint(battle_p, "rough", "B1", "C1", "D1")
    add(battle_p, "Scout", "Red", "A1", ag=99)  # Ag 99 passes every footing test on 1..99
    start(battle_p)
    out = move(battle_p, "Scout", "D1", "full", 5, 5, 5)
    assert out.details.cost == 3


@pytest.mark.parametrize("terrain", ["water", "shallows", "ice"])
def test_hoverer_ignores_dtv_on_water_shallows_and_ice(battle_p: Battle, terrain: str) -> None:
    """000:L64/L70/L74 "Hoverer units ignore DTV" (A43)."""
    paint(battle_p, terrain, "B1", "C1")
    add(battle_p, "Skimmers", "Red", "A1", kind="horde", magnitude=20, ag=20, hoverer=4)
    start(battle_p)
    assert move(battle_p, "Skimmers", "C1", "half").details.cost == 2


def test_hoverer_pays_for_forest(battle_p: Battle) -> None:
    """A43: only Ice, Shallows and Water are ignored."""
    paint(battle_p, "forest", *[f"B{r}" for r in range(1, 16)])
    add(battle_p, "Skimmers", "Red", "A1", kind="horde", magnitude=20, ag=20, hoverer=4)
    start(battle_p)
    assert move(battle_p, "Skimmers", "B1", "half").details.cost == 2


def test_e_scale_hoverer_ignores_water_dtv(battle_e: Battle) -> None:
    """A56: E-mode Hoverers also ignore Water DTV."""
    paint(battle_e, "water", "B1")
    add(battle_e, "Skimmers", "UN", "A1", kind="horde", magnitude=20, ag=20, hoverer=2)
    start(battle_e)
    assert move(battle_e, "Skimmers", "B1", "half").details.cost == 1


def test_aquatic_horde_in_water_but_not_shallows(battle_p: Battle) -> None:
    """A42: Aquatic/Amphibious units have DTV 0 in Water only; Shallows are treated normally."""
    paint(battle_p, "water", "B1")
    paint(battle_p, "shallows", "B2")
    add(battle_p, "Frogs", "Red", "A1", kind="horde", magnitude=20, ag=40, amphibious=True)
    start(battle_p)
    assert move(battle_p, "Frogs", "B1", "half").details.cost == 1
    refused(battle_p, "Frogs", "B2", "half", r"Shallows \(DTV 4\)")


def test_flying_horde_ignores_ground_dtv_but_not_storms(battle_e: Battle) -> None:
    """A43: flyers ignore ground DTV; 001:L62 a storm "affects all units, including fliers"."""
    paint(battle_e, "mountain", "B1", "B2")
    flag(battle_e, "storm", "B2")
    add(battle_e, "Wings", "UN", "A1", kind="horde", magnitude=20, ag=20, flyer=4, altitude=1)
    start(battle_e)
    battle_e.apply(EditUnit(unit="Wings", stats={"flyer": 2}), dice())
    refused(battle_e, "Wings", "B2", "half", r"DTV 2.*2 MP.*only 1 MP")
    battle_e.apply(EditUnit(unit="Wings", stats={"flyer": 4}), dice())
    assert move(battle_e, "Wings", "B1", "half").details.cost == 1


# --- stacking: "multiple allied Independent Characters may occupy the same space. Hordes may not,
#     however, occupy the same space as another Horde. However, Independent Characters are still
#     treated as blocking movement to enemy ICs." (000:L9) --------------------------------------


def test_allied_characters_share_a_square(battle_p: Battle) -> None:
    add(battle_p, "A", "Red", "A1", ag=40)
    add(battle_p, "B", "Red", "B1", ag=40)
    start(battle_p)
    move(battle_p, "A", "B1")
    assert battle_p.unit("A").cell == battle_p.unit("B").cell


def test_p_scale_enemy_character_blocks_entering(battle_p: Battle) -> None:
    add(battle_p, "A", "Red", "A1", ag=40)
    add(battle_p, "B", "Blue", "B1", ag=40)
    start(battle_p)
    refused(battle_p, "A", "B1", "full", "enemy characters block movement")


def test_p_scale_enemy_character_blocks_passing_through() -> None:
    """A13: a square that cannot be entered cannot be passed through either."""
    b = Battle.new("strategic-p", 3, 1)
    add(b, "A", "Red", "A1", ag=40)
    add(b, "B", "Blue", "B1", ag=40)
    start(b)
    refused(b, "A", "C1", "full", "every route is blocked")


def test_p_scale_path_goes_around_an_enemy_character(battle_p: Battle) -> None:
    add(battle_p, "A", "Red", "A1", ag=40)
    add(battle_p, "B", "Blue", "B1", ag=40)
    start(battle_p)
    out = move(battle_p, "A", "C1")
    assert "B1" not in out.details.path and out.details.cost == 2


def test_e_scale_enemy_units_share_squares(battle_e: Battle) -> None:
    """001:L18 "multiple E-Scale units may occupy the same space" (no side restriction)."""
    add(battle_e, "Eva", "NERV", "A1", ag=40)
    add(battle_e, "Angel", "Angels", "B1", ag=40)
    start(battle_e)
    move(battle_e, "Eva", "B1")
    assert battle_e.unit("Eva").cell == battle_e.unit("Angel").cell


@pytest.mark.parametrize("scale", ["strategic-p", "strategic-e"])
def test_nobody_enters_an_enemy_horde(scale: str) -> None:
    """A13/A58: no unit may enter a square held by an enemy Horde."""
    b = Battle.new(scale, 5, 5)
    add(b, "A", "Red", "A1", ag=40)
    add(b, "Mob", "Blue", "B1", kind="horde", magnitude=10, ag=30)
    start(b)
    refused(b, "A", "B1", "full", "enemy Horde Mob")


@pytest.mark.parametrize("scale", ["strategic-p", "strategic-e"])
def test_two_hordes_never_share_even_allied(scale: str) -> None:
    b = Battle.new(scale, 5, 5)
    add(b, "H1", "Red", "A1", kind="horde", magnitude=10, ag=30)
    add(b, "H2", "Red", "B1", kind="horde", magnitude=10, ag=30)
    start(b)
    refused(b, "H1", "B1", "full", "two Hordes may not share a square")


def test_character_may_join_an_allied_horde(battle_p: Battle) -> None:
    """A13: an IC may share a square with an allied Horde."""
    add(battle_p, "Sgt", "Red", "A1", ag=40)
    add(battle_p, "Mob", "Red", "B1", kind="horde", magnitude=10, ag=30)
    start(battle_p)
    move(battle_p, "Sgt", "B1")
    assert battle_p.unit("Sgt").cell == Cell.parse("B1")


def test_immobilised_and_destroyed_units_cannot_move(battle_p: Battle) -> None:
    add(battle_p, "Stuck", "Red", "A1", ag=40, statuses=["immobilised"])
    add(battle_p, "Dead", "Red", "A3", ag=40, wounds=0, max_wounds=10)
    start(battle_p)
    refused(battle_p, "Stuck", "B1", "full", "immobilised")
    refused(battle_p, "Dead", "B3", "full", "out of the fight")


# --- the Difficult Terrain test (A38) ------------------------------------------------------------


def test_entering_forest_makes_one_agility_test_with_the_dtv_penalty(battle_p: Battle) -> None:
    """A38: an Agility test at -5 x DTV on entering a DTV square; 000:L39 -5 per point of DTV."""
    paint(battle_p, "forest", "B1")
    add(battle_p, "Scout", "Red", "A1", ag=40)
    start(battle_p)
    out = move(battle_p, "Scout", "B1", "full", 95)
    (test,) = out.tests
    assert test.kind == "difficult_terrain" and test.dtv == 2
    assert test.target == 30 and not test.success
    assert "prone" not in battle_p.unit("Scout").statuses  # Forest has no fall rule


def test_one_test_per_difficult_square_entered() -> None:
    """A38: at most one test per square per move; open squares need none."""
    b = Battle.new("strategic-p", 5, 1)
    paint(b, "forest", "B1", "C1")
    add(b, "Scout", "Red", "A1", ag=40)
    start(b)
    out = move(b, "Scout", "E1", "full", 10, 10)
    assert [t.cell for t in out.tests] == ["B1", "C1"]


def test_hordes_never_take_the_difficult_terrain_test(battle_p: Battle) -> None:
    paint(battle_p, "forest", "B1")
    add(battle_p, "Mob", "Red", "A1", kind="horde", magnitude=10, ag=40)
    start(battle_p)
    assert move(battle_p, "Mob", "B1").tests == []


def test_rough_fall_at_three_degrees_of_failure(battle_p: Battle) -> None:
    """000:L68: failing by 3+ DoF in Rough: prone and 1d5 damage to a random location ignoring AP/TB."""
    paint(battle_p, "rough", "B1")
    add(battle_p, "Scout", "Red", "A1", ag=40, wounds=10, ap=8, t=50)
    start(battle_p)
    # Target 40 - 20 = 20; a roll of 50 fails by 3 DoF (A08); location d100, then 1d5 shows 4.
    out = move(battle_p, "Scout", "B1", "full", 50, 37, 4)
    scout = battle_p.unit("Scout")
    assert out.tests[0].degrees == 3
    assert "prone" in scout.statuses and scout.wounds == 6
    damage = next(e for e in out.effects if e.kind == "damage")
    assert damage.armour == 0 and damage.tb == 0 and damage.wounds_lost == 4


def test_rough_failure_by_two_degrees_is_harmless(battle_p: Battle) -> None:
    paint(battle_p, "rough", "B1")
    add(battle_p, "Scout", "Red", "A1", ag=40, wounds=10)
    start(battle_p)
    move(battle_p, "Scout", "B1", "full", 49)
    assert battle_p.unit("Scout").wounds == 10 and "prone" not in battle_p.unit("Scout").statuses


@pytest.mark.constant("rough_fall_dof")
def test_rough_fall_threshold_is_a_constant(battle_p: Battle) -> None:
    paint(battle_p, "rough", "B1")
    add(battle_p, "Scout", "Red", "A1", ag=40, wounds=10)
    battle_p.apply(SetRule(key="rough_fall_dof", value="1"), dice())
    start(battle_p)
    move(battle_p, "Scout", "B1", "full", 31, 50, 2)
    assert battle_p.unit("Scout").wounds == 8


def test_mountain_any_failure_costs_1d5_without_prone(battle_e: Battle) -> None:
    """001:L60 "Units failing a Difficult Terrain test when moving through a Mountain take 1d5 damage" (A54)."""
    paint(battle_e, "mountain", "B1")
    add(battle_e, "Eva", "NERV", "A1", ag=40, wounds=30)
    start(battle_e)
    out = move(battle_e, "Eva", "B1", "full", 21, 50, 5)  # target 20, fails by 0 DoF
    eva = battle_e.unit("Eva")
    assert out.tests[0].degrees == 0 and eva.wounds == 25 and "prone" not in eva.statuses


def test_difficult_terrain_test_success_has_no_effect(battle_e: Battle) -> None:
    paint(battle_e, "mountain", "B1")
    add(battle_e, "Eva", "NERV", "A1", ag=40, wounds=30)
    start(battle_e)
    out = move(battle_e, "Eva", "B1", "full", 20)
    assert out.tests[0].success and battle_e.unit("Eva").wounds == 30


# --- deep water: "Units such as Evas or Superheavies will sink if they enter these squares unless they
#     successfully pass an Athletics (or Pilot test for Superheavies) test, or are flying/hovering" ----


def test_eva_sinks_on_a_failed_athletics_test(battle_e: Battle) -> None:
    """A35: Athletics +0; failure sets altitude -1 and the unit is sunk."""
    paint(battle_e, "water", "B1")
    flag(battle_e, "deep", "B1")
    add(battle_e, "Eva", "NERV", "A1", ag=99, **{"class": "eva"}, skills={"athletics": 40})
    start(battle_e)
    out = move(battle_e, "Eva", "B1", "full", 1, 41)  # footing passes, then Athletics 41 > 40 fails
    eva = battle_e.unit("Eva")
    sink = out.tests[-1]
    assert sink.kind == "deep_water" and sink.target == 40 and not sink.success
    assert eva.altitude == -1 and "sunk" in eva.statuses


def test_eva_that_passes_stays_afloat(battle_e: Battle) -> None:
    paint(battle_e, "water", "B1")
    flag(battle_e, "deep", "B1")
    add(battle_e, "Eva", "NERV", "A1", ag=99, **{"class": "eva"}, skills={"athletics": 40})
    start(battle_e)
    move(battle_e, "Eva", "B1", "full", 1, 40)
    assert battle_e.unit("Eva").altitude == 0 and "sunk" not in battle_e.unit("Eva").statuses


def test_superheavy_tests_pilot(battle_p: Battle) -> None:
    """A12: the deep-water rule applies in P-mode to any unit flagged Eva or Superheavy."""
    paint(battle_p, "water", "B1")
    flag(battle_p, "deep", "B1")
    add(battle_p, "Tank", "Red", "A1", ag=99, **{"class": "superheavy"}, skills={"pilot": 35})
    start(battle_p)
    out = move(battle_p, "Tank", "B1", "full", 1, 90)
    assert out.tests[-1].breakdown.base_label == "Pilot" and "sunk" in battle_p.unit("Tank").statuses


def test_hovering_and_flying_units_and_others_do_not_sink(battle_e: Battle) -> None:
    paint(battle_e, "water", "B1", "B2", "B3")
    flag(battle_e, "deep", "B1", "B2", "B3")
    add(battle_e, "Hover", "NERV", "A1", ag=40, hoverer=4, **{"class": "eva"})
    add(battle_e, "Jet", "NERV", "A2", ag=40, flyer=6, altitude=1, **{"class": "eva"})
    add(battle_e, "Walker", "NERV", "A3", ag=99, **{"class": "walker"})
    start(battle_e)
    assert move(battle_e, "Hover", "B1").tests == []
    assert move(battle_e, "Jet", "B2").tests == []
    assert [t.kind for t in move(battle_e, "Walker", "B3", "full", 1).tests] == ["difficult_terrain"]


def test_a_sunk_unit_surfaces_on_leaving_deep_water(battle_e: Battle) -> None:
    """A35: leaving requires moving to a non-deep square."""
    paint(battle_e, "water", "B1")
    flag(battle_e, "deep", "B1")
    add(battle_e, "Eva", "NERV", "A1", ag=99, **{"class": "eva"}, skills={"athletics": 40})
    start(battle_e)
    move(battle_e, "Eva", "B1", "full", 1, 90)
    new_round(battle_e)
    out = move(battle_e, "Eva", "C1", "full")
    eva = battle_e.unit("Eva")
    assert eva.altitude == 0 and "sunk" not in eva.statuses
    assert any(e.kind == "surfaced" for e in out.effects)


# --- minefields: "Enemy units entering a Minefield must make an Acrobatics or Dodge test (Hordes are
#     automatically affected); on a failure, they take 1d10+6X damage which counts as Tearing and
#     Blast (4). Minefields may be triggered five times before they are expended." (000:L110) -------


def mined(battle: Battle, at: str = "B1", side: str = "Red") -> None:
    """Give the side feature points and lay a minefield, then start the battle."""
    battle.ensure_side(side).fp_override = 10
    battle.apply(PlaceFeature(feature="minefield", side=side, at=Cell.parse(at)), dice())


def test_enemy_failing_dodge_takes_tearing_explosive_damage(battle_p: Battle) -> None:
    add(battle_p, "Foe", "Blue", "A1", ag=40, wounds=20, ap=2, skills={"dodge": 30, "acrobatics": 45})
    mined(battle_p)
    start(battle_p)
    # Acrobatics 45 is the better save; 90 fails. Location roll, then 2d10 (Tearing) 3 and 8: 8+6 = 14.
    out = move(battle_p, "Foe", "B1", "full", 90, 50, 3, 8)
    save = out.tests[0]
    assert save.kind == "minefield" and save.skill == "acrobatics" and save.target == 45
    damage = next(e for e in out.effects if e.kind == "damage")
    assert damage.damage == 14 and damage.dtype == "X" and damage.area
    assert battle_p.unit("Foe").wounds == 20 - (14 - 2 - 3)  # AP 2, TB 3
    assert battle_p.square_state(Cell.parse("B1"))["mine_triggers"] == 4


def test_dodge_save_falls_back_to_agility(battle_p: Battle) -> None:
    add(battle_p, "Foe", "Blue", "A1", ag=40)
    mined(battle_p)
    start(battle_p)
    out = move(battle_p, "Foe", "B1", "full", 40)
    assert out.tests[0].breakdown.base_label.startswith("Agility") and out.tests[0].success
    assert not any(e.kind == "damage" for e in out.effects)
    assert battle_p.square_state(Cell.parse("B1"))["mine_triggers"] == 4  # A30.1: a pass still spends a trigger


def test_horde_is_automatically_affected(battle_p: Battle) -> None:
    add(battle_p, "Mob", "Blue", "A1", kind="horde", magnitude=20, ag=30)
    mined(battle_p)
    start(battle_p)
    out = move(battle_p, "Mob", "B1", "full", 5, 5)
    assert out.tests == []
    # A30.2 "Blast(4) matters only for (a) parent Horde extra-hit rules": 000:L25 "equal to the Blast Size+1" is
    # 5 slots, all the Horde's (A15.3); 1d10+6 always hurts, and each Explosive hit removes 1 + 1 Magnitude (A01).
    hits = [e for e in out.effects if e.kind == "damage"]
    assert len(hits) == 5 and all(h.magnitude_lost == 2 for h in hits)
    assert battle_p.unit("Mob").magnitude == 10


def test_friendly_and_flying_units_do_not_trigger(battle_p: Battle) -> None:
    """A30.3: friendly units never trigger it; A43: flyers are above the ground."""
    add(battle_p, "Friend", "Red", "A1", ag=40)
    add(battle_p, "Jet", "Blue", "A3", ag=40, flyer=4, altitude=1)
    mined(battle_p, "B1")
    mined(battle_p, "B3")
    start(battle_p)
    assert move(battle_p, "Friend", "B1").tests == []
    assert move(battle_p, "Jet", "B3").tests == []
    assert battle_p.square_state(Cell.parse("B1"))["mine_triggers"] == 5
    assert battle_p.square_state(Cell.parse("B3"))["mine_triggers"] == 5


@pytest.mark.constant("minefield_triggers")
def test_minefield_is_removed_after_its_last_trigger(battle_p: Battle) -> None:
    battle_p.apply(SetRule(key="minefield_triggers", value="2"), dice())
    add(battle_p, "F1", "Blue", "A1", ag=40)
    add(battle_p, "F2", "Blue", "A2", ag=40)
    mined(battle_p)
    start(battle_p)
    move(battle_p, "F1", "B1", "full", 1)
    new_round(battle_p)
    move(battle_p, "F1", "C1", "full")
    out = move(battle_p, "F2", "B1", "full", 1)
    assert any(e.kind == "feature_expended" for e in out.effects)
    assert "feature" not in battle_p.square_state(Cell.parse("B1"))


def test_a_move_continues_past_a_minefield() -> None:
    """Nothing in RULES stops a move at a hazard: the unit walks on to its goal."""
    b = Battle.new("strategic-p", 4, 1)
    add(b, "Foe", "Blue", "A1", ag=40, wounds=30)
    mined(b)
    start(b)
    out = move(b, "Foe", "D1", "full", 90, 50, 1, 1)
    assert b.unit("Foe").cell == Cell.parse("D1") and list(out.details.path) == ["A1", "B1", "C1", "D1"]


def test_a_unit_destroyed_by_mines_stops_there() -> None:
    b = Battle.new("strategic-p", 4, 1)
    add(b, "Foe", "Blue", "A1", ag=40, wounds=1)
    mined(b)
    start(b)
    out = move(b, "Foe", "D1", "full", 90, 50, 10, 10)
    assert out.details.stopped_at == "B1" and b.find_unit("foe") is None


def test_path_avoids_a_known_minefield_when_it_costs_nothing(battle_p: Battle) -> None:
    add(battle_p, "Foe", "Blue", "A2", ag=40)
    mined(battle_p, "B2")
    start(battle_p)
    out = move(battle_p, "Foe", "C2")
    assert "B2" not in out.details.path and out.tests == []


def test_moves_are_undone_exactly_with_their_hazards() -> None:
    b = Battle.new("strategic-p", 3, 1)
    paint(b, "rough", "B1")
    add(b, "Foe", "Blue", "A1", ag=40, wounds=20)
    mined(b, "C1")
    start(b)
    before = b.to_dict()
    out = move(b, "Foe", "C1", "full", 80, 50, 3, 99, 50, 5, 5)
    assert [t.kind for t in out.tests] == ["difficult_terrain", "minefield"]
    assert b.to_dict() != before
    b.undo()
    assert b.to_dict() == before


def test_find_path_respects_the_budget(battle_p: Battle) -> None:
    add(battle_p, "U", "Red", "A1", ag=20)
    unit = battle_p.unit("U")
    assert find_path(battle_p, unit, Cell.parse("C1"), 1) is None
    assert find_path(battle_p, unit, Cell.parse("C1"), 2) == ([Cell.parse("B1"), Cell.parse("C1")], 2)


# --- straight paths: among the cheapest, safest ways the one that turns least ---------------------


def turning(origin: Cell, path: list[Cell]) -> int:
    """Return how much a path turns, in 45-degree steps (a right angle counts two)."""
    compass = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]
    cells = [origin, *path]
    headings = [compass.index((b.x - a.x, b.y - a.y)) for a, b in itertools.pairwise(cells)]
    return sum(min(abs(h - g) % 8, 8 - abs(h - g) % 8) for g, h in itertools.pairwise(headings))


def test_a_move_along_a_row_stays_on_the_row(battle_e: Battle) -> None:
    add(battle_e, "U", "NERV", "C8", ag=90)
    path, cost = find_path(battle_e, battle_e.unit("U"), Cell.parse("J8"), 9) or ([], -1)
    assert cost == 7
    assert [str(c) for c in path] == ["D8", "E8", "F8", "G8", "H8", "I8", "J8"]


def test_an_off_axis_move_bends_once_by_45_degrees(battle_e: Battle) -> None:
    add(battle_e, "U", "NERV", "C8", ag=90)
    unit = battle_e.unit("U")
    for goal in ("J12", "D1", "E3", "A14"):
        found = find_path(battle_e, unit, Cell.parse(goal), 9)
        assert found is not None
        path, cost = found
        assert cost == unit.cell.distance(Cell.parse(goal)), goal
        assert turning(unit.cell, path) == 1, (goal, [str(c) for c in path])


def test_a_cheaper_or_safer_way_still_wins_over_a_straight_one(battle_p: Battle) -> None:
    """Straightness only breaks ties: a forest square in the row is stepped around at no extra cost."""
    add(battle_p, "U", "Red", "A5", ag=40)
    paint(battle_p, "forest", "C5")
    path, cost = find_path(battle_p, battle_p.unit("U"), Cell.parse("E5"), 4) or ([], -1)
    assert cost == 4 and Cell.parse("C5") not in path
    assert turning(Cell.parse("A5"), path) == 2, "one step out of the row and one back"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 19), st.integers(0, 14), st.integers(0, 19), st.integers(0, 14))
def test_on_open_ground_every_move_turns_at_most_once(sx: int, sy: int, gx: int, gy: int) -> None:
    battle = Battle.new("strategic-e", 20, 15, "Open")
    origin, goal = Cell(sx, sy), Cell(gx, gy)
    add(battle, "U", "NERV", str(origin), ag=90)
    found = find_path(battle, battle.unit("U"), goal, 40)
    assert found is not None
    path, cost = found
    assert cost == origin.distance(goal) == len(path)
    assert turning(origin, path) <= 1


# --- invariants over random play -----------------------------------------------------------------

ORDERS = st.tuples(st.sampled_from(["Sgt", "Mob", "Pack", "Eva", "Swarm"]), st.integers(0, 7), st.integers(0, 7),
                   st.sampled_from(["half", "full", "charge", "run"]), st.integers(0, 2**32))


def live_hordes_apart(battle: Battle) -> bool:
    """Return whether no two living Hordes share a square."""
    spots = [u.cell for u in battle.iter_units() if u.is_horde and u.alive]
    return len(spots) == len(set(spots))


@pytest.mark.parametrize("scale", ["strategic-p", "strategic-e"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.lists(ORDERS, max_size=20))
def test_random_play_keeps_hordes_apart_units_on_the_map_and_undo_exact(
        scale: str, moves: list[tuple[str, int, int, str, int]]) -> None:
    b = Battle.new(scale, 8, 8)
    b.apply(Paint(terrain="forest", frm=Cell(2, 2), to=Cell(4, 4)), dice())
    b.apply(Paint(terrain="water", frm=Cell(6, 0), to=Cell(6, 7)), dice())
    for c in ("G3", "G4"):
        b.square(Cell.parse(c))["deep"] = True
    add(b, "Sgt", "Red", "A1", ag=40, wounds=15, supreme_commander=True, int=50)
    add(b, "Mob", "Red", "B1", kind="horde", magnitude=20, ag=35)
    add(b, "Pack", "Blue", "H8", kind="horde", magnitude=20, ag=45)
    add(b, "Eva", "Blue", "G8", ag=45, wounds=30, **{"class": "eva"}, skills={"athletics": 40})
    add(b, "Swarm", "Blue", "A8", kind="horde", magnitude=15, ag=30, flyer=6, altitude=1)
    if allows_features(b.ruleset):
        b.apply(PlaceFeature(feature="minefield", side="Red", at=Cell.parse("D6")), dice())
        b.apply(PlaceFeature(feature="minefield", side="Red", at=Cell.parse("E7")), dice())
    start(b)
    for name, x, y, mode, seed in moves:
        if name.lower() not in b.units:
            continue  # destroyed by a minefield earlier in the sequence
        before = b.to_dict()
        try:
            b.apply(Move(unit=name, to=Cell(x, y), mode=mode), Dice.seeded(seed))
        except (IllegalOrderError, InvalidOrderError):
            assert b.to_dict() == before
            continue
        assert live_hordes_apart(b)
        assert all(b.on_map(u.cell) for u in b.iter_units())
        assert all(u.wounds <= u.max_wounds and u.magnitude <= u.max_magnitude for u in b.iter_units())
        after = b.to_dict()
        b.undo()
        assert b.to_dict() == before
        b.apply(Move(unit=name, to=Cell(x, y), mode=mode), Dice.seeded(seed))
        assert b.to_dict() == after  # the same dice give the same result


def test_moving_away_ends_melee_engagement(battle_e: Battle) -> None:
    """A58: "Engaged" clears when either leaves the square."""
    add(battle_e, "Eva", "NERV", "A1", ag=40)
    add(battle_e, "Angel", "Angels", "A1", ag=40)
    battle_e.unit("Eva").engaged.append(battle_e.unit("Angel").id)
    battle_e.unit("Angel").engaged.append(battle_e.unit("Eva").id)
    start(battle_e)
    out = move(battle_e, "Eva", "C1")
    assert turns.names_of(battle_e, battle_e.unit("Eva").engaged) == [] and turns.names_of(battle_e, battle_e.unit("Angel").engaged) == []
    assert {"type": "disengaged", "unit": "Eva", "from_units": ["Angel"]} in [e.to_dict() for e in out.effects]
