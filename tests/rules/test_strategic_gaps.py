"""Water turning to ice, a minefield as an Explosive hit on its square, and the Storm's help against fire."""

from __future__ import annotations

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.orders import Move
from rules.outcome import Outcome
from rules.systems.strategic.actions.battlefield import BreakFree, Extinguish, Freeze
from rules.systems.strategic.actions.combat import Attack
from rules.systems.strategic.battlefield import ignite, melt_ice
from rules.systems.strategic.hazards import trigger_minefield
from tests.rules.conftest import add, dice, start

C3 = Cell.parse("C3")
CRYO = {"name": "Cryo Gun", "range": 30, "damage": "1d10", "type": "I", "qualities": ["Freezing"]}


def _pond(**stats: object) -> Battle:
    b = Battle.new("strategic-p", 8, 8)
    b.set_terrain(C3, "water")
    stats.setdefault("s", 40)
    add(b, "Swimmer", "Blue", "C3", wounds=20, **stats)
    add(b, "Caster", "Red", "A1", bs=60, wounds=20, weapons=[CRYO])
    start(b)
    return b


def test_gm_freeze_turns_water_to_ice_and_holds_the_units_in_it() -> None:
    """000:L74 "If water turns to ice, every unit on it is immobilised until it passes a Strength test (Free Action)
    or the ice melts"; A34: "it happens only through an explicit effect (a cryo weapon or power, or a GM command)"."""
    b = _pond()
    out = b.apply(Freeze(at=C3), dice())
    assert b.terrain_at(C3).key == "ice" and b.square_state(C3)["underlying"] == "water"
    assert "immobilised" in b.unit("Swimmer").statuses
    assert {"type": "frozen_in", "unit": "Swimmer", "cell": "C3"} in [e.to_dict() for e in out.effects]
    with pytest.raises(IllegalOrderError, match="immobilised"):
        b.apply(Move(unit="Swimmer", to=Cell.parse("D4"), mode="full"), dice())


def test_a_flyer_over_the_water_is_not_frozen_in() -> None:
    """A34: "Every non-flying, non-hovering unit on it becomes Immobilised"."""
    b = _pond(flyer=6, altitude=1)
    b.apply(Freeze(at=C3), dice())
    assert "immobilised" not in b.unit("Swimmer").statuses


def test_freezing_something_other_than_water_is_refused_and_changes_nothing() -> None:
    """A34: only Water turns to ice; a refused order changes nothing."""
    b = _pond()
    before = b.to_dict()
    with pytest.raises(IllegalOrderError, match="only Water freezes"):
        b.apply(Freeze(at=Cell.parse("A1")), dice())
    assert b.to_dict() == before


@pytest.mark.parametrize(("roll", "free"), [(40, True), (41, False)])
def test_a_strength_test_breaks_the_ice(roll: int, free: bool) -> None:
    """000:L74 "until it passes a Strength test (Free Action)": S 40 passes on 40, fails on 41."""
    b = _pond()
    b.apply(Freeze(at=C3), dice())
    b.apply(BreakFree(unit="Swimmer"), dice(roll))
    assert ("immobilised" not in b.unit("Swimmer").statuses) is free


def test_melting_ice_frees_the_units_frozen_in() -> None:
    """000:L74 "... or the ice melts"."""
    b = _pond()
    b.apply(Freeze(at=C3), dice())
    melt_ice(b, C3, dice(1, 1, 1), Outcome(order="test", kind="test"))
    assert b.terrain_at(C3).key == "water" and "immobilised" not in b.unit("Swimmer").statuses


def test_a_freezing_weapon_landing_on_water_freezes_it() -> None:
    """A34: "a cryo weapon or power" turns water to ice; the units on it are immobilised."""
    b = _pond()
    b.apply(Attack(unit="Caster", weapon="Cryo Gun", target="Swimmer"), dice(10, 1))
    assert b.terrain_at(C3).key == "ice" and "immobilised" in b.unit("Swimmer").statuses


def _mined(terrain: str) -> Battle:
    b = Battle.new("strategic-p", 8, 8)
    b.set_terrain(C3, terrain)
    b.square(C3).update(feature="minefield", feature_side="Red")
    add(b, "Walker", "Blue", "B2", wounds=40, ag=40)
    return b


@pytest.mark.parametrize(("roll", "burns"), [(20, True), (21, False)])
def test_a_minefield_in_a_forest_may_set_it_ablaze(roll: int, burns: bool) -> None:
    """A30.5: "A detonation is an Explosive attack landing on the square, so a Minefield in a Forest rolls the 20%
    fire chance"; 000:L62 "Energy or Explosive attack landing here: 20% to set it ablaze"."""
    b = _mined("forest")
    b.unit("Walker").x, b.unit("Walker").y = C3.x, C3.y
    # Dodge 99 (fails), hit location, 1d10 damage x2 (Tearing), then the fire chance.
    trigger_minefield(b, b.unit("Walker"), C3, dice(99, 50, 1, 1, roll, 1, 99), Outcome(order="t", kind="t"))
    assert bool(b.square_state(C3).get("fire")) is burns


@pytest.mark.parametrize(("roll", "smoke"), [(20, True), (21, False)])
def test_a_minefield_in_water_may_raise_smoke(roll: int, smoke: bool) -> None:
    """A30.5: "One on Water rolls the 20% smoke chance"; 000:L74 "20% smoke cloud for 1 round (as Shallows)"."""
    b = _mined("water")
    b.unit("Walker").x, b.unit("Walker").y = C3.x, C3.y
    trigger_minefield(b, b.unit("Walker"), C3, dice(1, roll), Outcome(order="t", kind="t"))  # the dodge passes
    assert bool(b.square_state(C3).get("smoke")) is smoke


def _storm_battle() -> Battle:
    b = Battle.new("strategic-e", 8, 8)
    b.set_terrain(C3, "forest")
    b.square(C3)["storm"] = True
    add(b, "Eva", "Blue", "C3", wounds=40, ag=40)
    return b


def _storm_line(out: Outcome) -> int:
    return sum(m.value for m in out.tests[-1].breakdown.modifiers if m.label == "Storm")


@pytest.mark.constant("storm_fire_resist")
@pytest.mark.parametrize("bonus", [30, 0, 45])
def test_the_storm_helps_a_unit_resist_catching_fire(bonus: int) -> None:
    """001:L62 "+30 to tests to resist fires" (A53: "+30 to tests to resist catching or keeping fire")."""
    b = _storm_battle()
    b.constants["storm_fire_resist"] = bonus
    out = Outcome(order="t", kind="t")
    ignite(b, C3, dice(1, 99), out)
    assert _storm_line(out) == bonus


def test_no_storm_no_bonus_against_fire() -> None:
    """A53: the bonus is the storm's; out of a storm a unit catching fire tests without it."""
    b = _storm_battle()
    del b.square(C3)["storm"]
    out = Outcome(order="t", kind="t")
    ignite(b, C3, dice(1, 99), out)
    assert _storm_line(out) == 0


def test_a_burning_unit_out_of_water_and_storm_tests_without_the_bonus() -> None:
    """Parent extinguishing: Agility -20 away from water and storms; the Storm +30 belongs to storm squares only."""
    b = _storm_battle()
    del b.square(C3)["storm"]
    b.unit("Eva").statuses.append("on_fire")
    start(b)
    out = b.apply(Extinguish(unit="Eva"), dice(99))
    assert _storm_line(out) == 0 and out.tests[-1].target == 40 - 20 - 10  # DTV 2 of the Forest: -10
