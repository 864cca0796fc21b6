"""Movement orders: find the cheapest legal path within the mode's allowance and walk it."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rules.battle import LastAction
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.orders import Move
from rules.systems.strategic.combat import prune_engagement
from rules.systems.strategic.details import MoveDetails
from rules.systems.strategic.effects import Disengaged, Moved
from rules.systems.strategic.hazards import enter_square, in_play
from rules.systems.strategic.movement import (
    MODE_NAMES,
    allowance,
    blocker,
    effective_dtv,
    least_step,
    movement_base,
    path_cost,
    reachable,
    step_cost,
    straightest_path,
)
from rules.systems.strategic.table import checks, handles
from rules.turns import require_active

if TYPE_CHECKING:
    from rules.coords import Cell
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit

UNBOUNDED = 1_000_000


def _refusal(battle: Battle, unit: Unit, goal: Cell, mode: str, budget: int) -> IllegalOrderError:
    """Explain why no path within the allowance reaches the goal."""
    start = unit.cell
    _, base_label = movement_base(unit)
    mode_name = MODE_NAMES[mode]
    what = "MP" if unit.is_horde else ("square" if budget == 1 else "squares")
    distance = start.distance(goal)
    if unit.is_horde and step_cost(battle, unit, goal) > budget:
        # 000:L40 / 001:L42: a Horde without the MP for a square may not move onto it.
        cost = step_cost(battle, unit, goal)
        dtv = effective_dtv(battle, unit, goal)
        return IllegalOrderError(
            f"{goal} is {battle.terrain_at(goal).name} (DTV {dtv}): the Horde {unit.name} must spend {cost} MP to "
            f"enter it, but a {mode_name} gives it only {budget} MP ({base_label})."
        )
    if distance > budget:
        return IllegalOrderError(
            f"{goal} is {distance} squares from {unit.name} on {start}, but a {mode_name} allows "
            f"{budget} {what} ({base_label}). Pick a closer square or a faster mode."
        )
    unbounded = path_cost(battle, unit, goal, UNBOUNDED)
    if unbounded is None:
        return IllegalOrderError(f"{unit.name} has no way to reach {goal}: every route is blocked.")
    if unit.is_horde:
        return IllegalOrderError(
            f"The cheapest way to {goal} costs {unbounded} MP through difficult terrain, "
            f"but a {mode_name} gives the Horde {unit.name} only {budget} MP ({base_label})."
        )
    return IllegalOrderError(
        f"The way to {goal} around blocked squares is {unbounded} squares long, "
        f"but a {mode_name} allows {unit.name} only {budget} ({base_label})."
    )


class PlannedMove(NamedTuple):
    """A move that passed its check: the unit, where it goes, the mode, the allowance and what the way costs.

    The check finds that a way within the allowance exists and its cost; the walk lays out the path itself.
    """

    unit: Unit
    goal: Cell
    mode: str
    budget: int
    cost: int


@checks("move")
def check_move(battle: Battle, order: Move) -> PlannedMove:
    """Check a move without making it: mode, unit able to move, goal free, a path within the allowance.

    A move in the charge mode is still read (logs written before a charge carried its attack replay), but no
    one gives it any more: `/move` refuses a mode that is an order of its own, and legal orders offer `charge`.
    """
    return plan_move(battle, order)


def plan_move(battle: Battle, order: Move) -> PlannedMove:
    """Plan a move in any mode (a charge's too): unit able to move, goal free, a path within the allowance."""
    require_active(battle)
    unit = battle.unit(order.unit)
    mode = order.mode.lower()
    if mode not in battle.ruleset.move_modes:
        raise InvalidOrderError(f"`{order.mode}` is not a move mode; use one of {', '.join(battle.ruleset.move_modes)}.")
    if not unit.alive:
        raise IllegalOrderError(f"{unit.name} is out of the fight and cannot move.")
    if "immobilised" in unit.statuses:
        raise IllegalOrderError(f"{unit.name} is immobilised and cannot move until it breaks free.")
    goal = battle.check_cell(order.to)
    start = unit.cell
    if goal == start:
        raise IllegalOrderError(f"{unit.name} is already on {goal}.")
    budget = allowance(battle, unit, mode)
    why = blocker(battle, unit, goal)
    if why:
        raise IllegalOrderError(f"{unit.name} cannot end its move on {goal}: {why}.")
    least = least_step(battle, unit)
    # Every step costs at least `least`: a goal farther than the allowance pays for is refused without a search.
    cost = None if least and start.distance(goal) * least > budget else path_cost(battle, unit, goal, budget)
    if cost is None:
        raise _refusal(battle, unit, goal, mode, budget)
    return PlannedMove(unit, goal, mode, budget, cost)


@handles("move")
def move(battle: Battle, order: Move, dice: Dice, outcome: Outcome) -> None:
    """Move a unit to a square along the cheapest legal path, resolving each square it enters."""
    walk(battle, check_move(battle, order), dice, outcome)


def walk(battle: Battle, plan: PlannedMove, dice: Dice, outcome: Outcome) -> None:
    """Walk a planned move square by square, resolving each square entered; record it in the outcome."""
    unit, mode, budget, cost = plan.unit, plan.mode, plan.budget, plan.cost
    path = straightest_path(battle, unit, plan.goal, cost)
    start = unit.cell
    base, base_label = movement_base(unit)
    walked = [str(start)]
    outcome.actor = unit.name
    first_effect = len(outcome.effects)
    stopped: str | None = None
    for cell in path:
        # Hazards do not stop a move (RULES gives none that does); only leaving the fight ends it.
        unit.x, unit.y = cell.x, cell.y
        walked.append(str(cell))
        enter_square(battle, unit, cell, dice, outcome)
        if not in_play(battle, unit):
            stopped = str(cell)
            break
    if in_play(battle, unit):
        # A58: melee engagement ends when a unit leaves its partner's reach.
        dropped = prune_engagement(battle, unit)
        if dropped:
            outcome.add(Disengaged(unit=unit.name, from_units=dropped))
    outcome.details = MoveDetails(mode=mode, allowance=budget, cost=cost, base=base, base_label=base_label,
                                  spent_unit="MP" if unit.is_horde else "squares", path=walked, stopped_at=stopped)
    outcome.highlight.update(path=walked, actor=str(start), target=walked[-1])
    # The move itself reads first; what the squares did to the unit follows.
    outcome.effects.insert(first_effect, Moved(unit=unit.name, frm=str(start), to=walked[-1], cost=cost))
    battle.last = LastAction(kind="move", unit=unit.name, path=tuple(walked))


def reach_by_mode(battle: Battle, unit_name: str) -> dict[str, dict[str, int]]:
    """Return, per move mode, the squares the unit can reach and what each costs."""
    unit = battle.unit(unit_name)
    return {
        mode: {str(c): cost for c, cost in reachable(battle, unit, allowance(battle, unit, mode)).items()}
        for mode in battle.ruleset.move_modes
    }
