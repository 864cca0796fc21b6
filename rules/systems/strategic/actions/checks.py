"""Tests and rolls: d100 characteristic and skill tests with their breakdown, and free rolls."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.errors import InvalidOrderError
from rules.orders import Roll, SkillTest
from rules.systems.strategic.combat import run_test, skill_breakdown
from rules.systems.strategic.details import RollDetails
from rules.systems.strategic.table import handles

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.modifiers import Breakdown
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit

MAX_MODIFIER = 100


def test_breakdown(battle: Battle, unit: Unit, stat: str, modifier: int, reason: str = "") -> Breakdown:
    """Build the target number of a called test: a characteristic or a skill the unit has, with the modifier."""
    if abs(modifier) > MAX_MODIFIER:
        raise InvalidOrderError(f"A test modifier must be between -{MAX_MODIFIER} and +{MAX_MODIFIER}.")
    return skill_breakdown(battle, unit, stat, modifier, reason, untrained=False)


@handles("test")
def test(battle: Battle, order: SkillTest, dice: Dice, outcome: Outcome) -> None:
    """Make a d100 test for a unit."""
    unit = battle.unit(order.unit)
    bd = test_breakdown(battle, unit, order.stat, order.modifier, order.reason)
    result = run_test(battle, dice, bd, f"{order.stat.upper()} test")
    outcome.actor = unit.name
    outcome.tests.append(result)
    outcome.highlight.actor = str(unit.cell)


@handles("roll")
def roll(battle: Battle, order: Roll, dice: Dice, outcome: Outcome) -> None:
    """Roll dice in the open, or hidden for the GM."""
    result = dice.roll(order.dice, order.purpose)
    outcome.hidden = order.hidden
    outcome.details = RollDetails(notation=result.notation, total=result.total, faces=result.faces)
