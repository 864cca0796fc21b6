"""Movement orders: find the cheapest legal path within the mode's allowance and walk it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.battle import handles
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.movement import MODE_NAMES, allowance, blocker, find_path, movement_base, reachable
from rules.orders import Move

if TYPE_CHECKING:
    from rules.battle import Battle
    from rules.dice import Dice
    from rules.outcome import Outcome


def require_active(battle: Battle) -> None:
    """Refuse play orders outside an active battle."""
    if battle.status == "setup":
        raise IllegalOrderError("The battle has not started yet; the GM starts it with /battle start.")
    if battle.status == "ended":
        raise IllegalOrderError("This battle has ended; nothing on it can change any more.")


@handles("move")
def move(battle: Battle, order: Move, dice: Dice, outcome: Outcome) -> None:
    """Move a unit to a square along the cheapest legal path."""
    require_active(battle)
    unit = battle.unit(order.unit)
    mode = order.mode.lower()
    if mode not in battle.ruleset.move_modes:
        raise InvalidOrderError(f"`{order.mode}` is not a move mode; use one of {', '.join(battle.ruleset.move_modes)}.")
    if "immobilised" in unit.statuses:
        raise IllegalOrderError(f"{unit.name} is immobilised and cannot move until it breaks free.")
    goal = battle.check_cell(order.to)
    start = unit.cell
    if goal == start:
        raise IllegalOrderError(f"{unit.name} is already on {goal}.")
    budget = allowance(battle, unit, mode)
    base, base_label = movement_base(unit)
    why = blocker(battle, unit, goal)
    if why:
        raise IllegalOrderError(f"{unit.name} cannot end its move on {goal}: {why}.")
    found = find_path(battle, unit, goal, budget)
    mode_name = MODE_NAMES[mode]
    what = "MP" if unit.is_horde else "squares"
    if found is None:
        distance = start.distance(goal)
        if distance > budget:
            raise IllegalOrderError(
                f"{goal} is {distance} squares from {unit.name} on {start}, but a {mode_name} allows "
                f"{budget} {what} ({base_label}). Pick a closer square or a faster mode."
            )
        unbounded = find_path(battle, unit, goal, 10_000)
        if unbounded is None:
            raise IllegalOrderError(f"{unit.name} has no way to reach {goal}: every route is blocked.")
        raise IllegalOrderError(
            f"The cheapest way to {goal} costs {unbounded[1]} {what} through difficult terrain, "
            f"but a {mode_name} gives {unit.name} only {budget} ({base_label})."
        )
    path, cost = found
    unit.x, unit.y = goal.x, goal.y
    cells = [str(start), *(str(c) for c in path)]
    outcome.actor = unit.name
    outcome.data.update(mode=mode, allowance=budget, cost=cost, base=base, base_label=base_label,
                        spent_unit=what, path=cells)
    outcome.highlight.update(path=cells, actor=str(start), target=str(goal))
    outcome.effect("moved", unit=unit.name, frm=str(start), to=str(goal), cost=cost)
    battle.last = {"kind": "move", "path": cells, "unit": unit.name}


def reach_by_mode(battle: Battle, unit_name: str) -> dict[str, dict[str, int]]:
    """Return, per move mode, the squares the unit can reach and what each costs."""
    unit = battle.unit(unit_name)
    return {
        mode: {str(c): cost for c, cost in reachable(battle, unit, allowance(battle, unit, mode)).items()}
        for mode in battle.ruleset.move_modes
    }
