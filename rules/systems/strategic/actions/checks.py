"""Tests and rolls: d100 characteristic and skill tests with their breakdown, and free rolls."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.errors import InvalidOrderError
from rules.modifiers import Breakdown
from rules.orders import Roll, SkillTest
from rules.systems.strategic.combat import run_test
from rules.systems.strategic.movement import effective_dtv
from rules.systems.strategic.table import handles
from rules.systems.strategic.units import CHARACTERISTIC_NAMES, CHARACTERISTICS

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit

DTV_TESTS = ("ag", "ws", "parry")
MAX_MODIFIER = 100


def test_breakdown(battle: Battle, unit: Unit, stat: str, modifier: int, reason: str = "") -> Breakdown:
    """Build the target number of a test: characteristic or skill, DTV penalty and the GM's modifier."""
    key = stat.strip().lower()
    if key in CHARACTERISTICS:
        base, label = unit.chars.get(key, 0), f"{CHARACTERISTIC_NAMES[key]} ({key.upper()})"
    elif key in unit.skills:
        base, label = unit.skills[key], key.title()
    else:
        known = ", ".join([c.upper() for c in CHARACTERISTICS] + sorted(unit.skills))
        raise InvalidOrderError(f"{unit.name} has no characteristic or skill `{stat}`. It has: {known}.")
    if abs(modifier) > MAX_MODIFIER:
        raise InvalidOrderError(f"A test modifier must be between -{MAX_MODIFIER} and +{MAX_MODIFIER}.")
    bd = Breakdown(label, base, cap=int(battle.const("modifier_cap")))
    if key in DTV_TESTS and not unit.is_horde:
        dtv = effective_dtv(battle, unit, unit.cell)
        bd.add(f"Difficult terrain (DTV {dtv})", -int(battle.const("dtv_test_penalty")) * dtv, "DTV")
    bd.add(reason or "Modifier", modifier, "order")
    return bd


@handles("test")
def test(battle: Battle, order: SkillTest, dice: Dice, outcome: Outcome) -> None:
    """Make a d100 test for a unit."""
    unit = battle.unit(order.unit)
    bd = test_breakdown(battle, unit, order.stat, order.modifier, order.reason)
    result = run_test(battle, dice, bd, f"{order.stat.upper()} test")
    outcome.actor = unit.name
    outcome.tests.append(result)
    outcome.highlight["actor"] = str(unit.cell)


@handles("roll")
def roll(battle: Battle, order: Roll, dice: Dice, outcome: Outcome) -> None:
    """Roll dice in the open, or hidden for the GM."""
    result = dice.roll(order.dice, order.purpose)
    outcome.hidden = order.hidden
    outcome.data.update(notation=result.notation, total=result.total, faces=list(result.faces))
