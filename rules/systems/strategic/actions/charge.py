"""The charge: a move of up to the Charge allowance that ends in a melee attack, in one order and one outcome.

000:L7 / 001:L11 give a Charge its distance (AB*1.5); the parent system's Charge is a Full action that
closes with an enemy and strikes it. The move is the move order's own walk (hazards on the way
resolve as on any move), the strike the attack order's own melee attack.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.orders import Move, Order
from rules.systems.strategic.actions.combat import Attack, attack
from rules.systems.strategic.actions.move import PlannedMove, plan_move, walk
from rules.systems.strategic.combat import (
    can_act,
    in_reach,
    in_reach_from,
    melee_distance,
    melee_reach,
    require_in_sight,
)
from rules.systems.strategic.details import AttackDetails, ChargeDetails, MoveDetails
from rules.systems.strategic.hazards import in_play
from rules.systems.strategic.movement import allowance, blocker, reachable
from rules.systems.strategic.table import checks, handles
from rules.systems.strategic.table import order as _order
from rules.turns import require_active

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit, Weapon

MODE = "charge"


@_order("charge", "owner")
@dataclass(frozen=True)
class Charge(Order):
    """Charge an enemy: move up to the Charge allowance into melee reach, then strike it with a melee weapon."""

    unit: str
    target: str
    weapon: str = ""
    to: Cell | None = None


class PlannedCharge(NamedTuple):
    """A charge that passed its check: the move to make and the strike that follows it."""

    move: PlannedMove
    weapon: Weapon
    target: Unit


def melee_weapon(unit: Unit, name: str) -> Weapon:
    """Return the melee weapon a charge strikes with: the one named, or the unit's first melee weapon."""
    if name.strip():
        weapon = unit.require_weapon(name)
        if not weapon.melee:
            raise IllegalOrderError(f"A charge ends in a melee attack, and the {weapon.name} is a ranged weapon; "
                                    f"name one of {unit.name}'s melee weapons, or leave `weapon` out.")
        return weapon
    found = next((w for w in unit.weapons if w.melee), None)
    if found is None:
        raise IllegalOrderError(f"{unit.name} has no melee weapon, and a charge ends in a melee attack; "
                                "move it with /move and attack with /attack instead.")
    return found


def charge_squares(battle: Battle, unit: Unit) -> dict[Cell, int]:
    """Return the squares a charge may end on and what reaching each costs: within the Charge allowance, not the
    unit's own, nothing there that refuses it. One reach serves a charge at every enemy."""
    budget = allowance(battle, unit, MODE)
    return {cell: cost for cell, cost in reachable(battle, unit, budget).items()
            if cell != unit.cell and blocker(battle, unit, cell) is None}


def _near(battle: Battle, unit: Unit, target: Unit, weapon: Weapon, squares: Mapping[Cell, int]) -> list[Cell]:
    """Return the charge squares that might put the target within melee reach: those around it, if fewer."""
    far = max(melee_reach(battle, weapon, target), melee_reach(battle, None, unit))
    if (2 * far + 1) ** 2 >= len(squares):
        return list(squares)
    return [Cell(x, y) for y in range(max(0, target.y - far), min(battle.height, target.y + far + 1))
            for x in range(max(0, target.x - far), min(battle.width, target.x + far + 1))]


def _end_square(battle: Battle, unit: Unit, target: Unit, weapon: Weapon,
                squares: Mapping[Cell, int] | None = None) -> Cell:
    """Return the cheapest square within the Charge allowance from which the target is within melee reach."""
    budget = allowance(battle, unit, MODE)
    squares = charge_squares(battle, unit) if squares is None else squares
    options = [(cost, cell.distance(target.cell), cell.y, cell.x, cell)
               for cell in _near(battle, unit, target, weapon, squares)
               if (cost := squares.get(cell)) is not None and in_reach_from(battle, unit, cell, target, weapon)]
    if not options:
        raise IllegalOrderError(
            f"{target.name} on {target.cell} is {melee_distance(unit, target)} squares from {unit.name}; a Charge "
            f"moves it at most {budget}, and no square that far puts {target.name} within reach of the "
            f"{weapon.name}. Move closer first, or pick a nearer target."
        )
    return min(options)[-1]


@checks("charge")
def check_charge(battle: Battle, order: Charge, squares: Mapping[Cell, int] | None = None) -> PlannedCharge:
    """Check a charge without making it: a live target, a melee weapon, a charge move that ends within reach.

    `squares` is the unit's `charge_squares`, when the caller checks charges at many enemies at once.
    """
    require_active(battle)
    unit = battle.unit(order.unit)
    can_act(unit)
    weapon = melee_weapon(unit, order.weapon)
    target = battle.unit(order.target)
    if target is unit:
        raise IllegalOrderError(f"{unit.name} cannot charge itself.")
    if not target.alive:
        raise IllegalOrderError(f"{target.name} is already destroyed.")
    require_in_sight(battle, target, unit)
    if in_reach(battle, unit, target, weapon):
        raise IllegalOrderError(f"{target.name} is already within reach of {unit.name}'s {weapon.name}: "
                                "there is nothing to charge across, so attack it with /attack.")
    goal = _end_square(battle, unit, target, weapon, squares) if order.to is None else battle.check_cell(order.to)
    if not in_reach_from(battle, unit, goal, target, weapon):
        raise IllegalOrderError(f"From {goal}, {target.name} on {target.cell} is out of reach of the {weapon.name}; "
                                "end the charge next to it, or leave `to` out to take the cheapest square.")
    plan = plan_move(battle, Move(unit=unit.name, to=goal, mode=MODE))
    return PlannedCharge(plan, weapon, target)


@handles("charge")
def charge(battle: Battle, order: Charge, dice: Dice, outcome: Outcome) -> None:
    """Move the charging unit into reach, then resolve its melee attack, all in this one outcome."""
    plan = check_charge(battle, order)
    unit, target = plan.move.unit, plan.target
    walk(battle, plan.move, dice, outcome)
    move = outcome.details_as(MoveDetails)
    assert move is not None  # a walk always reports its move
    if not in_play(battle, unit) or not in_reach(battle, unit, target, plan.weapon):
        # Something on the way (a minefield, deep water) took the unit out before it could strike.
        outcome.details = ChargeDetails(move=move, attack=None, struck=False)
        return
    strike_test, strike_effects = len(outcome.tests), len(outcome.effects)
    attack(battle, Attack(unit=unit.name, weapon=plan.weapon.name, target=target.name), dice, outcome)
    outcome.details = ChargeDetails(move=move, attack=outcome.details_as(AttackDetails), struck=True,
                                    strike_test=strike_test, strike_effects=strike_effects)
