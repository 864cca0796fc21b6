"""The hooks front ends read a unit and a system through: health, summary, badges, token shape, move modes, reach."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.errors import RulesetError
from rules.orders import AddUnit, Start
from rules.ruleset import get_ruleset, parse_ruleset
from rules.system import system_of
from rules.systems.combat_action.units import Unit as CaUnit
from rules.systems.strategic.units import Unit as StrategicUnit
from rules.systems.surface.units import Unit as SurfaceUnit
from rules.units import Unit


def dice() -> Dice:
    """Return dice from a fixed seed."""
    return Dice(random.Random(0))


def test_the_base_unit_says_nothing_of_a_stat_block() -> None:
    """A system that adds no hooks still answers every front-end question, with nothing to show."""
    unit = Unit(name="A", side="Red", x=0, y=0, statuses=["pinned"])
    assert (unit.massed, unit.health_text(), unit.summary_line(), unit.badges(), unit.stat_lines()) == (
        False, "", "", (), [])


def test_strategic_units_show_wounds_or_magnitude_and_hordes_are_massed() -> None:
    """000: an Independent Character has Wounds, a Horde has Magnitude and is drawn as a square token."""
    ic = StrategicUnit(name="Eva", side="NERV", x=0, y=0, wounds=8, max_wounds=10, statuses=["pinned", "on_fire", "odd"])
    horde = StrategicUnit(name="Mob", side="Angels", x=0, y=0, kind="horde", magnitude=20, max_magnitude=30)
    assert (ic.massed, ic.health_text(), ic.summary_line()) == (False, "Wounds 8/10", "W 8/10")
    assert (horde.massed, horde.health_text(), horde.summary_line()) == (True, "Magnitude 20/30", "Mag 20/30")
    assert ic.badges() == ("P", "F")  # a status the system draws no mark for is left out
    assert dict(ic.stat_lines())["Kind"] == "Independent Character"


def test_combat_action_units_show_their_ratings_and_state() -> None:
    """003: a model has SS, PF and MV in cm; a machine lists its damaged locations."""
    model = CaUnit(name="T", side="Red", x=0, y=0, ss=5, pf=1, mv=12, statuses=["flat_down", "aimed"])
    tank = CaUnit(name="K", side="Red", x=0, y=0, kind="vehicle", locations=["hull", "locomotion"],
                  damaged=["locomotion"], mv=20)
    assert model.summary_line() == "infantry SS 5 PF 1 MV 12 cm, unhurt, flat down, aimed"
    assert model.badges() == ("FD", "A")
    assert tank.health_text() == "damaged: Locomotive System"
    assert "MV 10 cm" in tank.summary_line()  # a Locomotive System hit halves MV for the battle
    assert not model.massed


def test_surface_units_show_damage_against_capacity() -> None:
    """A64: a ground force has a Damage Capacity; its damage and state are what is left of it."""
    unit = SurfaceUnit(name="H", side="M", x=0, y=0, utype="armor", category="armor", capacity=4, damage=1)
    assert unit.summary_line() == "armor, damage 1/4, active"
    assert dict(unit.stat_lines())["Type"] == "armor (armor)"


@pytest.mark.parametrize(("ruleset", "default"), [("strategic-e", "full"), ("combat-action", "walk")])
def test_each_ruleset_has_a_default_move_mode(ruleset: str, default: str) -> None:
    """/move without a mode moves as the ruleset usually does: a Full Move, or a Walk (1 AP)."""
    assert get_ruleset(ruleset).default_move_mode == default


def test_a_default_move_mode_outside_the_modes_is_refused() -> None:
    """A ruleset file naming a default mode it does not list fails to load, naming the field."""
    document: dict[str, Any] = dict(system_of("combat-action").document("combat-action"))
    document["default_move_mode"] = "run"
    with pytest.raises(RulesetError, match="`default_move_mode` `run` is not one of `move_modes` \\(walk, charge\\)"):
        parse_ruleset(document, "combat-action.toml")


def test_reach_without_a_system_hook_is_read_off_the_legal_moves() -> None:
    """003: Walk is up to MV, Charge up to twice MV (10 cm at 5 cm a square: 2 and 4 squares)."""
    def battle(scale: str) -> Battle:
        b = Battle.new("combat-action", 12, 12)
        b.apply(b.parse_order(f"set-rule key:cm_per_square value:{scale}"), dice())  # before any unit stands
        b.apply(AddUnit("T", "Red", Cell(5, 5), stats={"kind": "infantry", "mv": 10}), dice())
        b.apply(AddUnit("E", "Blue", Cell(11, 11), stats={"kind": "infantry"}), dice())
        b.turn.mode = "free"
        b.apply(Start(), dice())
        return b

    b = battle("5")
    reach = b.system.reach_of(b, "T")
    assert set(reach) == {"walk", "charge"}
    assert len(reach["walk"]) == 5 * 5 - 1 and max(reach["walk"].values()) == 2
    assert len(reach["charge"]) == 9 * 9 - 1 and max(reach["charge"].values()) == 4
    b = battle("10")
    assert len(b.system.reach_of(b, "T")["walk"]) == 3 * 3 - 1  # the GM's scale changes the reach


def test_the_strategic_system_keeps_its_own_reach() -> None:
    """Strategic reach costs terrain per square, so it has its own hook rather than the generic one."""
    assert system_of("strategic-e").reach is not None
    assert system_of("combat-action").reach is None
