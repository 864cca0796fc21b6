"""Tests and rolls: d100 characteristic and skill tests with their breakdown, and free rolls."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.dice import parse_expression
from rules.errors import InvalidOrderError
from rules.orders import Roll, SkillTest
from rules.systems.strategic.combat import run_test, skill_breakdown
from rules.systems.strategic.details import RollDetails
from rules.systems.strategic.table import checks, handles

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


@checks("test")
def check_test(battle: Battle, order: SkillTest) -> tuple[Unit, Breakdown]:
    """Check the unit and the characteristic or skill tested; return the unit and the test's target number."""
    unit = battle.unit(order.unit)
    return unit, test_breakdown(battle, unit, order.stat, order.modifier, order.reason)


@handles("test")
def test(battle: Battle, order: SkillTest, dice: Dice, outcome: Outcome) -> None:
    """Make a d100 test for a unit."""
    unit, bd = check_test(battle, order)
    result = run_test(battle, dice, bd, f"{order.stat.upper()} test")
    outcome.actor = unit.name
    outcome.tests.append(result)
    outcome.highlight.actor = str(unit.cell)


@checks("roll")
def check_roll(battle: Battle, order: Roll) -> None:
    """Check that the dice are written as the roller reads them."""
    parse_expression(order.dice)


@handles("roll")
def roll(battle: Battle, order: Roll, dice: Dice, outcome: Outcome) -> None:
    """Roll dice in the open, or hidden for the GM."""
    check_roll(battle, order)
    result = dice.roll(order.dice, order.purpose)
    outcome.hidden = order.hidden
    outcome.details = RollDetails(notation=result.notation, total=result.total, faces=result.faces)
