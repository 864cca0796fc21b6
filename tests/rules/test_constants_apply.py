"""GM-overridable constants: changing one with SetRule changes the outcome where its rule is applied, and its clamp."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError
from rules.orders import Move, SetRule, SkillTest
from rules.outcome import Outcome
from rules.systems import builtin
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.actions.other import Aim
from rules.systems.strategic.area import target_count
from rules.systems.strategic.damage import apply_damage
from rules.systems.strategic.units import Weapon
from tests.rules.conftest import add, dice, start

RIFLE = {"name": "Rifle", "range": 300, "range_unit": "dm", "damage": "1d10", "type": "I"}
KNIFE = {"name": "Knife", "melee": True, "damage": "1d10", "type": "R"}


def _data(package: str, ruleset: str) -> dict[str, dict[str, Any]]:
    """Read the constants as the data file writes them, not through the code under test."""
    text = resources.files(package).joinpath(f"data/{ruleset}.toml").read_text()
    constants: dict[str, dict[str, Any]] = tomllib.loads(text)["constants"]
    return constants


def _bounded() -> list[tuple[str, str, float, float, float]]:
    out = []
    for system in builtin():
        for ruleset in system.ruleset_ids:
            for key, spec in _data(system.package, ruleset).items():
                if "min" in spec and "max" in spec:
                    # A measure that may be fractional (a square of 0.25") steps by its own step, else by 1.
                    out.append((ruleset, key, spec["min"], spec["max"], spec.get("step", 1)))
    return out


@pytest.mark.parametrize(("ruleset", "key", "low", "high", "step"), _bounded())
def test_every_bounded_constant_takes_both_ends_and_refuses_beyond(ruleset: str, key: str, low: float, high: float,
                                                                  step: float) -> None:
    """RULES.md 7: "Every ruling should be a named configuration constant so a GM can override it", within its range."""
    b = Battle.new(ruleset, 5, 5)
    for value in (low, high):
        b.apply(SetRule(key=key, value=str(value)), dice())
        assert b.const(key) == value
    for value in (low - step, high + step):
        before = b.to_dict()
        with pytest.raises(GameError, match=key):
            b.apply(SetRule(key=key, value=str(value)), dice())
        assert b.to_dict() == before


def _set(b: Battle, key: str, value: object) -> None:
    b.apply(SetRule(key=key, value=str(value).lower()), dice())


def _mods(out: Outcome) -> dict[str, int]:
    return {m.label: m.value for m in out.tests[0].breakdown.modifiers}


def _duel(ruleset: str = "strategic-p", shooter_at: str = "A1", target_at: str = "A3", **target: Any) -> Battle:
    b = Battle.new(ruleset, 10, 10)
    add(b, "Shooter", "Red", shooter_at, bs=40, ws=40, weapons=[RIFLE, KNIFE])
    if target.get("kind") != "horde":
        target.setdefault("wounds", 30)
    add(b, "Target", "Blue", target_at, **target)
    start(b)
    return b


def _shot(b: Battle, **kw: Any) -> Outcome:
    kw.setdefault("weapon", "Rifle")
    return b.apply(Attack(unit="Shooter", target="Target", **kw), dice(99, 1, 1, 1, 1))


# --- to-hit lines ---------------------------------------------------------------------


@pytest.mark.constant("elevation_mod")
@pytest.mark.parametrize("value", [0, 25])
def test_elevation_mod(value: int) -> None:
    """000:L49 "Units on terrain take a Higher Ground bonus to hit (+10) against enemies in lower elevation" (A19)."""
    b = _duel()
    b.set_terrain(Cell.parse("A1"), "rough")  # High
    _set(b, "elevation_mod", value)
    assert _mods(_shot(b)).get("Elevation", 0) == value


@pytest.mark.constant("smoke_hit_penalty")
@pytest.mark.parametrize("value", [-5, -40])
def test_smoke_hit_penalty(value: int) -> None:
    """A37: "a Smoke square has Hit Penalty -20, treated exactly like terrain Hit Penalty"."""
    b = _duel()
    b.square(Cell.parse("A3"))["smoke"] = 1
    _set(b, "smoke_hit_penalty", value)
    assert _mods(_shot(b))["Smoke on the line (1 square)"] == value


@pytest.mark.constant("called_shot_penalty")
@pytest.mark.parametrize("value", [-10, -35])
def test_called_shot_penalty(value: int) -> None:
    """Parent rule: a called shot to a location takes -20 (constant called_shot_penalty)."""
    b = _duel()
    _set(b, "called_shot_penalty", value)
    assert _mods(_shot(b, called="head"))["Called shot (head)"] == value


@pytest.mark.constant("modifier_cap")
@pytest.mark.parametrize(("cap", "target"), [(5, 45), (20, 60), (60, 70)])
def test_modifier_cap(cap: int, target: int) -> None:
    """A05: "clamp the sum of situational modifiers to [-60, +60]": BS 40 at Point Blank (+30) with a cap of 5 is 45."""
    b = _duel(target_at="A2")
    _set(b, "modifier_cap", cap)
    assert _shot(b).tests[0].target == target


@pytest.mark.constant("defend_melee_penalty")
@pytest.mark.parametrize("value", [-10, -45])
def test_defend_melee_penalty(value: int) -> None:
    """Parent Defend: melee attacks against a defending unit take -20 (constant defend_melee_penalty)."""
    b = _duel(target_at="A2")
    b.unit("Target").statuses.append("defending")
    _set(b, "defend_melee_penalty", value)
    assert _mods(_shot(b, weapon="Knife"))["Target is defending"] == value


@pytest.mark.constant("storm_bs_penalty")
@pytest.mark.parametrize("value", [-10, -50])
def test_storm_bs_penalty(value: int) -> None:
    """001:L62 "BS attacks against or from units in a storm, or travelling through one: -30" (A53)."""
    b = _duel("strategic-e")
    b.square(Cell.parse("A3"))["storm"] = True
    _set(b, "storm_bs_penalty", value)
    assert _mods(_shot(b))["Storm"] == value


@pytest.mark.constant("aim_half", "aim_full")
@pytest.mark.parametrize(("mode", "value"), [("half", 5), ("half", 30), ("full", 15), ("full", 45)])
def test_aim_bonus(mode: str, value: int) -> None:
    """Parent Aim: a Half Action aim gives +10, a Full Action aim +20 to the next attack (aim_half, aim_full)."""
    b = _duel()
    _set(b, f"aim_{mode}", value)
    b.apply(Aim(unit="Shooter", mode=mode), dice())
    assert b.unit("Shooter").aim == value  # a Full Action aim leaves no action to fire this turn
    if mode == "half":
        assert _mods(_shot(b))["Aim"] == value


@pytest.mark.constant("short_band_cap")
@pytest.mark.parametrize(("cap", "short"), [(0, 10), (3, 0), (5, 10)])
def test_short_band_cap(cap: int, short: int) -> None:
    """001:L32 "Short Range is considered to be half the weapon's range, or 10km, whichever is shorter" (A11)."""
    b = _duel("strategic-e", target_at="A6")  # distance 5 with R = 30: Short unless the cap is under 5
    _set(b, "short_band_cap", cap)
    # 0 leaves Short uncapped (P-Scale, A11); Standard range adds nothing (A04).
    assert _mods(_shot(b)).get("Range: Short", 0) == short


# --- Difficult Terrain ------------------------------------------------------------------


def _test_line(b: Battle) -> int:
    out = b.apply(SkillTest(unit="Target", stat="ag"), dice(50))
    return sum(m.value for m in out.tests[0].breakdown.modifiers if m.label.startswith("Difficult"))


@pytest.mark.constant("dtv_test_penalty")
@pytest.mark.parametrize(("per_point", "line"), [(0, 0), (5, -10), (12, -24)])
def test_dtv_test_penalty(per_point: int, line: int) -> None:
    """000:L39 "take a -5 Difficult Terrain penalty to Agility, Parry and WS Attack tests per point of DTV" (Forest 2)."""
    b = _duel(target_at="C3", ag=40)
    b.set_terrain(Cell.parse("C3"), "forest")
    _set(b, "dtv_test_penalty", per_point)
    assert _test_line(b) == line


@pytest.mark.constant("storm_dtv_bonus")
@pytest.mark.parametrize(("bonus", "line"), [(0, -10), (1, -15), (3, -25)])
def test_storm_dtv_bonus(bonus: int, line: int) -> None:
    """001:L62 "A storm over other difficult terrain adds +1 to that terrain's DTV": Forest 2 in a storm is 3 (A53)."""
    b = _duel("strategic-e", target_at="C3", ag=40)
    b.set_terrain(Cell.parse("C3"), "forest")
    b.square(Cell.parse("C3"))["storm"] = True
    _set(b, "storm_dtv_bonus", bonus)
    assert _test_line(b) == line


@pytest.mark.constant("storm_dtv")
@pytest.mark.parametrize(("dtv", "line"), [(0, 0), (2, -10), (6, -30)])
def test_storm_dtv(dtv: int, line: int) -> None:
    """A53: "Effective DTV = base DTV + 1 when the base terrain has DTV >= 1, otherwise 2"; Plain in a storm is 2."""
    b = _duel("strategic-e", target_at="C3", ag=40)
    b.square(Cell.parse("C3"))["storm"] = True
    _set(b, "storm_dtv", dtv)
    assert _test_line(b) == line


@pytest.mark.constant("horde_min_step_cost")
@pytest.mark.parametrize(("value", "mp_cost"), [(1, 1), (3, 3)])
def test_horde_min_step_cost(value: int, mp_cost: int) -> None:
    """A39: entering a square costs a Horde "max(1, effectiveDTV)" MP; on Plain that is the minimum step cost."""
    b = _duel(target_at="E5", kind="horde", magnitude=30, ag=40)
    _set(b, "horde_min_step_cost", value)
    out = b.apply(Move(unit="Target", to=Cell.parse("E6"), mode="full"), dice())
    assert out.details.cost == mp_cost


@pytest.mark.constant("min_move")
@pytest.mark.parametrize(("value", "squares"), [(1, 1), (3, 3)])
def test_min_move(value: int, squares: int) -> None:
    """A03: "Movement allowances ... have a minimum of 1": a Half Move with AB 1 gives floor(1/2) = 0, raised to it."""
    b = _duel(target_at="E5", ag=10)
    _set(b, "min_move", value)
    out = b.apply(Move(unit="Target", to=Cell.parse("E6"), mode="half"), dice())
    assert out.details.allowance == squares


# --- area and damage ------------------------------------------------------------------


@pytest.mark.constant("blast_extra_targets")
@pytest.mark.parametrize(("ruleset", "extra", "count"), [("strategic-p", 1, 4), ("strategic-p", 0, 3),
                                                         ("strategic-e", 0, 3), ("strategic-e", 2, 5)])
def test_blast_extra_targets(ruleset: str, extra: int, count: int) -> None:
    """000:L25 "equal to the Blast Size+1"; 001:L36 "equal to the Blast size" (A46): Blast(3)."""
    b = Battle.new(ruleset, 5, 5)
    _set(b, "blast_extra_targets", extra)
    assert target_count(b, Weapon(name="Gun", blast=3)) == count


@pytest.mark.constant("cone_extra_targets")
@pytest.mark.parametrize(("extra", "count"), [(1, 11), (0, 10), (3, 13)])
def test_cone_extra_targets(extra: int, count: int) -> None:
    """000:L26 "equal to the range of the weapon in dm,+1": a 10dm cone."""
    b = Battle.new("strategic-p", 5, 5)
    _set(b, "cone_extra_targets", extra)
    assert target_count(b, Weapon(name="Flamer", range=10, range_unit="dm", cone=True)) == count


@pytest.mark.constant("at_field_divisor")
@pytest.mark.parametrize(("divisor", "count"), [(2, 3), (3, 2), (10, 1)])
def test_at_field_divisor(divisor: int, count: int) -> None:
    """001:L36 "treated as hitting targets equal to half the ATS amount" (A48, floor, minimum 1): ATS 7."""
    b = Battle.new("strategic-e", 5, 5)
    _set(b, "at_field_divisor", divisor)
    assert target_count(b, Weapon(name="Angel Cross", ats=7)) == count


@pytest.mark.constant("horde_explosive_magnitude")
@pytest.mark.parametrize(("extra", "lost"), [(0, 1), (1, 2), (4, 5)])
def test_horde_explosive_magnitude(extra: int, lost: int) -> None:
    """A01: "each hit that does >=1 damage after AP/TB removes 1 Magnitude, and Blast/Explosive/etc. add extra"."""
    b = Battle.new("strategic-p", 5, 5)
    add(b, "Mob", "Blue", "C3", kind="horde", magnitude=20, t=0)
    _set(b, "horde_explosive_magnitude", extra)
    outcome = Outcome(order="test", kind="test")
    result = apply_damage(b, b.unit("Mob"), dice(5), outcome, notation="1d10", dtype="X")
    assert result.hit.magnitude_lost == lost


@pytest.mark.constant("cover_head_arms_bypass")
@pytest.mark.parametrize(("bypass", "used"), [(True, 0), (False, 3)])
def test_cover_head_arms_bypass(bypass: bool, used: int) -> None:
    """000:L37 "Non-AoE ranged attacks against units in cover ignore cover if the hit ... against the head or arms"."""
    b = Battle.new("strategic-p", 5, 5)
    b.set_terrain(Cell.parse("C3"), "rough")
    add(b, "Man", "Blue", "C3", wounds=30, t=0)
    _set(b, "cover_head_arms_bypass", bypass)
    outcome = Outcome(order="test", kind="test")
    assert apply_damage(b, b.unit("Man"), dice(5), outcome, notation="1d10", location="head").hit.cover_used == used


@pytest.mark.constant("cover_decay")
@pytest.mark.parametrize(("decay", "left"), [(0, 16), (1, 15), (5, 11)])
def test_cover_decay(decay: int, left: int) -> None:
    """000:L83 "Features with Cover AP decay as usual" (A22): a hit beating Barrier Walls 16 wears them down."""
    b = Battle.new("strategic-p", 5, 5)
    b.square(Cell.parse("C3")).update(feature="barrier_walls", feature_side="Blue", feature_ap=16)
    add(b, "Man", "Blue", "C3", wounds=50, t=0)
    _set(b, "cover_decay", decay)
    outcome = Outcome(order="test", kind="test")
    apply_damage(b, b.unit("Man"), dice(10), outcome, notation="1d10+20")
    assert b.square_state(Cell.parse("C3"))["feature_ap"] == left


@pytest.mark.constant("cover_combine_bonus")
@pytest.mark.parametrize(("bonus", "total"), [(0, 16), (1, 17), (4, 20)])
def test_cover_combine_bonus_in_damage(bonus: int, total: int) -> None:
    """000:L84 "take the highest value between them and increase it by +1" (A22): Barrier Walls 16 over Forest 2."""
    b = Battle.new("strategic-p", 5, 5)
    b.set_terrain(Cell.parse("C3"), "forest")
    b.square(Cell.parse("C3")).update(feature="barrier_walls", feature_side="Blue", feature_ap=16)
    add(b, "Man", "Blue", "C3", wounds=50, t=0)
    _set(b, "cover_combine_bonus", bonus)
    outcome = Outcome(order="test", kind="test")
    assert apply_damage(b, b.unit("Man"), dice(1), outcome, notation="1d10").hit.cover_used == total
