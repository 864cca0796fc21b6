"""Ranged and melee attacks: every to-hit modifier alone and together, hit location, reach, engagement, refusals."""

from __future__ import annotations

from typing import Any

import pytest

from rules import turns
from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError, IllegalOrderError, InvalidOrderError, NotFoundError
from rules.orders import EditUnit, Order
from rules.outcome import Outcome
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.combat import clear_engagement, hit_location, prune_engagement, reverse_roll
from tests.rules.conftest import add, dice, new_round, start

RIFLE = {"name": "Rifle", "range": 30, "damage": "1d10", "type": "I"}
KNIFE = {"name": "Knife", "melee": True, "damage": "1d10", "type": "R"}


def _p() -> Battle:
    return Battle.new("strategic-p", 20, 20)


def _e() -> Battle:
    return Battle.new("strategic-e", 20, 20)


def _paint(b: Battle, terrain: str, *cells: str) -> None:
    for c in cells:
        b.set_terrain(Cell.parse(c), terrain)


def _shooter(b: Battle, at: str = "A1", **stats: Any) -> None:
    stats.setdefault("bs", 40)
    stats.setdefault("ws", 40)
    stats.setdefault("weapons", [RIFLE, KNIFE])
    add(b, "Shooter", "Red", at, **stats)


def _shoot(b: Battle, *faces: int, target: str = "Target", weapon: str = "Rifle", **kw: Any) -> Outcome:
    return b.apply(Attack(unit="Shooter", weapon=weapon, target=target, **kw), dice(*faces))


def _mods(out: Outcome) -> dict[str, int]:
    return {m.label: m.value for m in out.tests[0].breakdown.modifiers}


def _refused(b: Battle, order: Order, error: type[GameError], match: str) -> None:
    before = b.to_dict()
    with pytest.raises(error, match=match):
        b.apply(order, dice(1, 1, 1, 1))
    assert b.to_dict() == before


# --- the to-hit breakdown, one modifier at a time -------------------------------------


def test_range_band_alone() -> None:
    """A04: Short Range +10 ("Half of weapon's range or less", 000:L23)."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "A5")
    start(b)
    out = _shoot(b, 50, 1)
    assert _mods(out) == {"Range: Short": 10}
    assert out.tests[0].target == 50 and out.highlight.hit is True
    assert out.highlight.actor == "A1" and out.highlight.line == ["A1", "A5"] and out.highlight.target == "A5"


def test_a_roll_above_the_target_misses_and_nothing_is_damaged() -> None:
    """A04 with the d100 test: roll <= BS + modifiers hits; 51 against 50 misses."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "A5")
    start(b)
    out = _shoot(b, 51)
    assert out.highlight.hit is False and not out.effects
    assert b.unit("Target").wounds == 10


def test_line_of_fire_penalties_exclude_the_shooter_and_include_the_target() -> None:
    """A20: "Bresenham line ... Exclude the shooter's square and include the target's square."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "A6")
    _paint(b, "forest", "A1", "A3", "A4")
    start(b)
    assert _mods(_shoot(b, 100))["Hit Penalty along the line of fire"] == -20
    b.undo()
    _paint(b, "rough", "A6")
    assert _mods(_shoot(b, 100))["Hit Penalty along the line of fire"] == -40


def test_altitude_ignores_the_worst_squares() -> None:
    """000:L43 "for every km of altitude ... ignore a single square of penalty-giving terrain" (A20: largest first)."""
    b = _p()
    _shooter(b, flyer=6, altitude=1)
    add(b, "Target", "Blue", "A6")
    _paint(b, "forest", "A3")
    _paint(b, "rough", "A4")
    start(b)
    out = _shoot(b, 100)
    assert _mods(out)["Hit Penalty along the line of fire"] == -10
    assert list(out.details.line_of_fire.ignored) == ["A4"]


def test_shooting_up_at_a_flyer_ignores_squares_too() -> None:
    """000:L44 "The same applies in reverse for shooting at flying targets." """
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "A6", flyer=6, altitude=2)
    _paint(b, "forest", "A3", "A4", "A5")
    start(b)
    assert _mods(_shoot(b, 100))["Hit Penalty along the line of fire"] == -10


def test_indirect_fire_ignores_the_line() -> None:
    """000:L42 "Ranged attacks that travel through ... that do not benefit from Indirect, take the noted penalty." """
    b = _p()
    _shooter(b, weapons=[{**RIFLE, "indirect": True}])
    add(b, "Target", "Blue", "A6")
    _paint(b, "forest", "A3", "A4")
    b.square(Cell.parse("A5"))["smoke"] = 1
    start(b)
    assert _mods(_shoot(b, 100)) == {"Range: Short": 10}


@pytest.mark.parametrize("ruleset", ["strategic-p", "strategic-e"])
def test_smoke_costs_20_per_square_on_the_line(ruleset: str) -> None:
    """A37: "a Smoke square has Hit Penalty -20, treated exactly like terrain Hit Penalty"; burning squares smoke (A36)."""
    b = Battle.new(ruleset, 20, 20)
    _shooter(b)
    add(b, "Target", "Blue", "A6")
    b.square(Cell.parse("A3"))["smoke"] = 1
    b.square(Cell.parse("A4"))["fire"] = 2
    start(b)
    out = _shoot(b, 100)
    assert _mods(out)["Smoke on the line (2 squares)"] == -40


def test_hit_bonus_of_the_targets_square() -> None:
    """000:L46 "ALL attacks against units in these squares take the listed bonus to hit" (Water +20, Shallows +10)."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "A6")
    add(b, "Wader", "Blue", "C6")
    _paint(b, "water", "A6")
    _paint(b, "shallows", "C6")
    start(b)
    assert _mods(_shoot(b, 100))["Hit Bonus of the target's square"] == 20
    assert _mods(_shoot(b, 100, target="Wader"))["Hit Bonus of the target's square"] == 10


@pytest.mark.parametrize("stats", [{"aquatic": True}, {"amphibious": True}, {"flyer": 5, "altitude": 1}])
def test_no_water_bonus_against_aquatic_or_flying_targets(stats: dict[str, Any]) -> None:
    """A42 (Aquatic/Amphibious in Water get no Hit Bonus against them) and A43 (flyers ignore ground Hit Bonus)."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "A6", **stats)
    _paint(b, "water", "A6")
    start(b)
    assert "Hit Bonus of the target's square" not in _mods(_shoot(b, 100))


@pytest.mark.parametrize(("mine", "theirs", "value"), [
    ("rough", "plain", 10), ("plain", "rough", -10), ("water", "rough", -10), ("rough", "water", 10), ("plain", "urban", 0),
])
def test_elevation(mine: str, theirs: str, value: int) -> None:
    """A19: "+10 when the attacker is higher and -10 when lower, whatever the number of steps"."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "A6")
    _paint(b, mine, "A1")
    _paint(b, theirs, "A6")
    start(b)
    assert _mods(_shoot(b, 100)).get("Elevation", 0) == value


def test_a_flyer_gets_no_elevation_modifier() -> None:
    """A19: "A flying unit (altitude > 0) neither gives nor receives elevation modifiers." """
    b = _p()
    _shooter(b, flyer=5, altitude=1)
    add(b, "Target", "Blue", "A6")
    _paint(b, "water", "A1")
    _paint(b, "rough", "A6")
    start(b)
    assert "Elevation" not in _mods(_shoot(b, 100))


def test_storm_costs_30_once() -> None:
    """A53: "The -30 applies once to a BS attack when the attacker's square, the target's square, or any square on the line is Storm." """
    b = _e()
    _shooter(b)
    add(b, "Target", "Blue", "A6")
    for c in ("A1", "A3", "A4", "A6"):
        b.square(Cell.parse(c))["storm"] = True
    start(b)
    out = _shoot(b, 100)
    assert _mods(out)["Storm"] == -30 and out.details.storm is True


def test_anti_fog_negates_the_storm() -> None:
    """001:L62 "-30 penalty, which can be negated by possessing an anti-darkness/fog upgrade" (A53: the attacker's)."""
    b = _e()
    _shooter(b, anti_fog=True)
    add(b, "Target", "Blue", "A6")
    b.square(Cell.parse("A6"))["storm"] = True
    start(b)
    out = _shoot(b, 100)
    assert "Storm" not in _mods(out) and out.details.storm_negated is True


def test_storm_does_not_touch_melee() -> None:
    """001:L62 "BS attacks against or from units in a storm ... take a -30 penalty" (BS only)."""
    b = _e()
    _shooter(b)
    add(b, "Target", "Blue", "A1")
    b.square(Cell.parse("A1"))["storm"] = True
    start(b)
    out = _shoot(b, 100, weapon="Knife")
    assert "Storm" not in _mods(out)


def test_feature_hit_penalty_applies_on_the_target_square_only() -> None:
    """A24: "Feature hit penalties apply only when the target stands on the feature"."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "A6")
    b.square(Cell.parse("A6")).update(feature="trench", feature_side="Blue")
    b.square(Cell.parse("A4")).update(feature="trench", feature_side="Blue")
    start(b)
    assert _mods(_shoot(b, 100))["Feature Hit Penalty"] == -20


def test_called_shot_and_gm_adjustment() -> None:
    """DESIGN §3: the breakdown shows GM adjustments; a called shot picks the location (parent rule, -20)."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "A6")
    start(b)
    out = _shoot(b, 5, 1, called="left arm", adjust=15)
    assert _mods(out) == {"Range: Short": 10, "Called shot (l_arm)": -20, "GM adjustment": 15}
    assert out.details.damage[0].hit.location == "l_arm"


def test_aim_adds_and_is_spent() -> None:
    """Brief: Aim gives +10 (half) or +20 (full) on the next attack, cleared after it."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "A6")
    start(b)
    b.apply(b.parse_order("aim unit:Shooter mode:full"), dice())
    new_round(b)  # a Full Aim is the whole turn; the shot comes next round
    assert _mods(_shoot(b, 100))["Aim"] == 20
    assert b.unit("Shooter").aim == 0 and "aiming" not in b.unit("Shooter").statuses
    new_round(b)
    assert "Aim" not in _mods(_shoot(b, 100))


def test_all_modifiers_together_are_capped() -> None:
    """A05: "clamp the sum of situational modifiers to [-60, +60] before the d100 roll"."""
    b = _p()
    _shooter(b, bs=50)
    add(b, "Target", "Blue", "A12")
    _paint(b, "water", "A1")
    _paint(b, "rough", "A3", "A4", "A5", "A12")
    b.square(Cell.parse("A12")).update(feature="barrier_walls", feature_side="Blue")
    b.square(Cell.parse("A7"))["smoke"] = 1
    start(b)
    out = _shoot(b, 100, adjust=-5)
    assert _mods(out) == {
        "Range: Short": 10, "Hit Penalty along the line of fire": -80, "Smoke on the line (1 square)": -20,
        "Elevation": -10, "GM adjustment": -5,
    }
    bd = out.tests[0].breakdown
    assert bd.raw_total == -105 and bd.total_modifier == -60 and out.tests[0].target == -10


# --- hit location ---------------------------------------------------------------


@pytest.mark.parametrize(("roll", "reversed_", "location"), [
    (1, 10, "head"), (10, 1, "head"), (11, 11, "r_arm"), (2, 20, "r_arm"), (12, 21, "l_arm"), (3, 30, "l_arm"),
    (13, 31, "body"), (7, 70, "body"), (17, 71, "r_leg"), (58, 85, "r_leg"), (68, 86, "l_leg"), (100, 100, "l_leg"),
])
def test_hit_location_from_the_reversed_roll(roll: int, reversed_: int, location: str) -> None:
    """A21: "01-10 Head, 11-20 Right Arm, 21-30 Left Arm, 31-70 Body, 71-85 Right Leg, 86-00 Left Leg" on the reversed roll."""
    assert reverse_roll(roll) == reversed_
    assert hit_location(roll) == location


def test_hit_location_is_recorded_with_the_damage() -> None:
    """A21: the location comes from the reversed attack roll (37 -> 73, right leg)."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "A6")
    start(b)
    out = _shoot(b, 37, 4)
    assert out.details.damage[0].hit.location == "r_leg"
    assert out.tests[0].target == 50 and out.tests[0].degrees == 1


# --- refusals ---------------------------------------------------------------------


@pytest.fixture
def ready() -> Battle:
    """Return a started P battle: Shooter on A1, Target on A6."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "A6")
    start(b)
    return b


def test_out_of_range_is_refused() -> None:
    """A10: "Beyond R+6 the attack is illegal" (Rifle 30 dm reaches 36)."""
    b = Battle.new("strategic-p", 40, 40)
    _shooter(b)
    add(b, "Target", "Blue", "A38")
    start(b)
    _refused(b, Attack(unit="Shooter", weapon="Rifle", target="Target"), IllegalOrderError,
             r"37 squares .* reaches at most 36 squares \(Extreme range\)")


@pytest.mark.parametrize(("order", "error", "match"), [
    (Attack(unit="Shooter", weapon="Lance", target="Target"), NotFoundError, "no weapon `Lance`.*Rifle, Knife"),
    (Attack(unit="Shooter", weapon="Rifle", target="Ghost"), NotFoundError, "no unit `Ghost`"),
    (Attack(unit="Shooter", weapon="Rifle", at=Cell.parse("Z99")), IllegalOrderError, "off the map"),
    (Attack(unit="Shooter", weapon="Knife", target="Target"), IllegalOrderError, "melee weapon.*5 away"),
    (Attack(unit="Shooter", weapon="Rifle", target="Shooter"), IllegalOrderError, "itself"),
    (Attack(unit="Shooter", weapon="Rifle", target="Target", at=Cell.parse("B2")), IllegalOrderError, "on A6, not on B2"),
    (Attack(unit="Shooter", weapon="Rifle"), InvalidOrderError, "Say what to attack"),
    (Attack(unit="Shooter", weapon="Rifle", at=Cell.parse("C3")), IllegalOrderError, "nobody on C3"),
    (Attack(unit="Shooter", weapon="Rifle", target="Target", called="tail"), InvalidOrderError, "not a hit location"),
    (Attack(unit="Shooter", weapon="Rifle", target="Target", adjust=150), InvalidOrderError, "adjustment"),
])
def test_refusals_change_nothing(ready: Battle, order: Attack, error: type[GameError], match: str) -> None:
    """Brief: out of range, no such weapon, unknown target, off-map, melee at range: refused, nothing changes."""
    _refused(ready, order, error, match)


def test_a_destroyed_unit_cannot_act() -> None:
    """Brief: "a destroyed unit acting" is refused; destroyed units leave the map."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "A6", bs=40, wounds=1, weapons=[RIFLE])
    start(b)
    _shoot(b, 5, 10)
    assert b.find_unit("target") is None
    _refused(b, Attack(unit="Target", weapon="Rifle", target="Shooter"), NotFoundError, "no unit `Target`")
    b.apply(EditUnit(unit="Shooter", stats={"wounds": 0}), dice())
    add(b, "Other", "Blue", "A9")
    _refused(b, Attack(unit="Shooter", weapon="Rifle", target="Other"), IllegalOrderError, "out of the fight")


def test_a_stunned_unit_cannot_attack(ready: Battle) -> None:
    """A01: "Stunned = the unit loses its actions for the stated duration"."""
    ready.apply(EditUnit(unit="Shooter", stats={"statuses": ["stunned"]}), dice())
    _refused(ready, Attack(unit="Shooter", weapon="Rifle", target="Target"), IllegalOrderError, "stunned")


def test_attacks_wait_for_the_battle_to_start() -> None:
    """DESIGN §3: an order the rules forbid is an IllegalOrderError, with nothing changed."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "A6")
    _refused(b, Attack(unit="Shooter", weapon="Rifle", target="Target"), IllegalOrderError, "not started")


def test_single_unit_on_a_square_can_be_attacked_by_square(ready: Battle) -> None:
    """Brief: `at` names a square; a single-target weapon takes the one unit standing there."""
    out = ready.apply(Attack(unit="Shooter", weapon="Rifle", at=Cell.parse("A6")), dice(100))
    assert out.details.target == "Target"


def test_attack_orders_round_trip() -> None:
    """DESIGN §3: `Order.parse(str(order)) == order`."""
    for order in (Attack(unit="Eva 01", weapon="Pallet Rifle", target="Angel", adjust=-10, called="head"),
                  Attack(unit="Eva", weapon="N2", at=Cell.parse("G7"))):
        assert Order.parse(str(order)) == order


# --- melee ------------------------------------------------------------------------


def test_p_melee_reaches_adjacent_squares_only() -> None:
    """000:L16 "in range, which is considered to be, for most melee weapons, adjacent squares"."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "B2")
    add(b, "Far", "Blue", "C3")
    start(b)
    _shoot(b, 100, weapon="Knife")
    _refused(b, Attack(unit="Shooter", weapon="Knife", target="Far"), IllegalOrderError, "within 1 square")


def test_p_long_weapons_reach_farther() -> None:
    """000:L16 "Some weapons have longer ranges though" (A14: the weapon's reach in squares)."""
    b = _p()
    _shooter(b, weapons=[{**KNIFE, "name": "Spear", "reach": 2}])
    add(b, "Target", "Blue", "C3")
    start(b)
    assert _shoot(b, 100, weapon="Spear").details.form == "melee"


def test_e_melee_needs_the_same_square() -> None:
    """001:L24 "melee range is treated as 0km ... you must be on the same square as them"."""
    b = _e()
    _shooter(b)
    add(b, "Target", "Blue", "A1")
    add(b, "Near", "Blue", "B2")
    start(b)
    _shoot(b, 100, weapon="Knife")
    _refused(b, Attack(unit="Shooter", weapon="Knife", target="Near"), IllegalOrderError, "on the same square")


def test_e_melee_may_reach_an_adjacent_horde() -> None:
    """001:L24 "when attacking Hordes ... you may be adjacent to the Horde square to attack it instead"."""
    b = _e()
    _shooter(b)
    add(b, "Target", "Blue", "B2", kind="horde", magnitude=20)
    start(b)
    assert _shoot(b, 100, weapon="Knife").details.form == "melee"


def test_melee_breakdown() -> None:
    """000:L39 (-5 WS per DTV), 000:L46 (Hit Bonus on ALL attacks), A19 (elevation in melee too), defending (parent)."""
    b = _p()
    _shooter(b, ws=50)
    add(b, "Target", "Blue", "B1")
    _paint(b, "forest", "A1")
    _paint(b, "shallows", "B1")
    start(b)
    b.apply(Order.parse("defend unit:Target"), dice())
    out = _shoot(b, 100, weapon="Knife")
    assert _mods(out) == {"Difficult terrain (DTV 2)": -10, "Hit Bonus of the target's square": 10,
                          "Target is defending": -20}
    assert out.tests[0].breakdown.base_label == "Weapon Skill (WS)"


def test_melee_engages_both_even_on_a_miss_and_adds_strength_bonus() -> None:
    """A58: "Engaged is set between A and B when either makes a melee attack on the other"; parent: melee adds SB."""
    b = _p()
    _shooter(b, s=45)
    add(b, "Target", "Blue", "B1", t=0)
    start(b)
    _shoot(b, 100, weapon="Knife")
    assert turns.names_of(b, b.unit("Shooter").engaged) == ["Target"] and turns.names_of(b, b.unit("Target").engaged) == ["Shooter"]
    out = _shoot(b, 5, 3, weapon="Knife")
    dmg = out.details.damage[0]
    assert dmg.roll.notation == "1d10+4" and dmg.hit.damage == 7 and dmg.hit.melee is True


def test_engagement_clears_when_a_partner_leaves_or_dies() -> None:
    """A58: "It clears when either leaves the square ... or when either is destroyed." """
    b = _p()
    _shooter(b, s=45)
    add(b, "Target", "Blue", "B1", t=0, wounds=3)
    add(b, "Other", "Blue", "B2")
    start(b)
    _shoot(b, 100, weapon="Knife")
    _shoot(b, 100, weapon="Knife", target="Other")
    shooter, other = b.unit("Shooter"), b.unit("Other")
    assert sorted(turns.names_of(b, shooter.engaged)) == ["Other", "Target"]
    assert clear_engagement(b, other) == ["Shooter"]
    assert turns.names_of(b, shooter.engaged) == ["Target"] and other.engaged == []
    new_round(b)
    _shoot(b, 5, 9, weapon="Knife")
    assert b.find_unit("target") is None and shooter.engaged == []


def test_prune_engagement_drops_partners_out_of_reach() -> None:
    """A58: engagement ends when the pair is no longer within melee reach."""
    b = _p()
    _shooter(b)
    add(b, "Target", "Blue", "B1")
    start(b)
    _shoot(b, 100, weapon="Knife")
    target = b.unit("Target")
    target.x = 5
    assert prune_engagement(b, target) == ["Shooter"]
    assert turns.names_of(b, b.unit("Shooter").engaged) == []


def test_undo_restores_everything_an_attack_changed() -> None:
    """DESIGN §3: "Undo restores the snapshot taken before the order" (wounds, fire, destroyed units)."""
    b = _p()
    _shooter(b, weapons=[{**RIFLE, "type": "E"}])
    add(b, "Target", "Blue", "A6", wounds=1)
    _paint(b, "forest", "A6")
    start(b)
    before = b.to_dict()
    b.apply(Attack(unit="Shooter", weapon="Rifle", target="Target"), dice(5, 10, 1, 2))
    assert b.find_unit("target") is None and b.square_state(Cell.parse("A6"))["fire"] == 2
    b.undo()
    assert b.to_dict() == before
