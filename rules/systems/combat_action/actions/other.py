"""The other rows of the AP table: hide, impart an order, open a door, jump or climb an obstacle, pilot, control.

The screen gives these actions only their cost (003:L19-41). Hiding and crossing an obstacle change the
battle as written below; an order imparted, a door opened, a vehicle piloted or a robot controlled are
spent and logged for the GM to narrate, with the checks the screen implies (a robot controller needs a
working comm-link, 003:L188).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.orders import Order
from rules.systems.combat_action.actions.play import acting, ready
from rules.systems.combat_action.effects import GeneralAction
from rules.systems.combat_action.hits import obstacle_pf
from rules.systems.combat_action.movement import OBSTACLE_MOVES, relocate, why_not_step
from rules.systems.combat_action.state import COMMS_DOWN, FLAT_DOWN, HIDDEN, ROUTING, covers, halted
from rules.systems.combat_action.table import checks, handles, order
from rules.systems.combat_action.tables import tables
from rules.systems.combat_action.units import Unit

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle

# action key (as in the AP table of the ruleset) -> what it needs: a unit target, a square, or nothing
ACTIONS = {"hide": "", "impart_order": "target", "open_door": "to", "jump": "to", "climb": "to",
           "pilot": "target", "control_robot": "target"}


@order("action", "owner")
@dataclass(frozen=True)
class Act(Order):
    """Take another action of the AP table: hide, impart_order, open_door, jump, climb, pilot, control_robot."""

    unit: str
    action: str
    target: str = ""
    to: Cell | None = None


def action_name(key: str) -> str:
    """Return the AP table's name of an action, as the screen prints it."""
    return tables().ap_costs[key][0]


def next_to_obstacle(battle: Battle, unit: Unit) -> bool:
    """Return whether a model stands on or next to a terrain feature with a PF (rock, woods, concrete...)."""
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            cell = Cell(unit.x + dx, unit.y + dy)
            if battle.on_map(cell) and obstacle_pf(battle, battle.terrain_at(cell).key):
                return True
    return False


def why_not_act(battle: Battle, unit: Unit, action: str, target: Unit | None, to: Cell | None) -> str | None:
    """Return why a unit may not take this action now, or None."""
    if action not in ACTIONS:
        return f"`{action}` is not an action of the AP table here; use {', '.join(ACTIONS)}."
    if ROUTING in unit.statuses:
        return f"{unit.name} is routing: it may only charge away from the enemy."
    need = ACTIONS[action]
    if need == "target" and target is None:
        return f"Say which unit: `{action_name(action)}` needs a `target`."
    if need == "to" and to is None:
        return f"Say which square: `{action_name(action)}` needs `to`."
    if unit.inside and action != "impart_order":
        return f"{unit.name} is inside a vehicle; disembark first."
    if action == "hide":
        if unit.machine:
            return f"{unit.name} is a machine; only models hide behind cover."
        if HIDDEN in unit.statuses:
            return f"{unit.name} is already hidden."
        if not [c for c in covers(battle, unit) if c != FLAT_DOWN] and not next_to_obstacle(battle, unit):
            return f"{unit.name} has no cover to hide behind on {unit.cell}: stand in cover or next to an obstacle."
    if action in ("jump", "climb") and to is not None:
        if unit.machine or FLAT_DOWN in unit.statuses or halted(battle, unit):
            return f"{unit.name} cannot {action} over an obstacle now (machines do not; flat down models get up first)."
        if unit.cell.distance(to) != 1:
            return f"{to} is not next to {unit.name}; {action}ing over an obstacle moves one square."
        return why_not_step(battle, unit, to, "walk")
    if action == "pilot" and target is not None:
        if target.kind != "vehicle" or battle.enemies(unit, target):
            return f"{target.name} is not a friendly vehicle to pilot."
    if action == "control_robot" and target is not None:
        if target.kind != "robot" or target.control != "slave" or battle.enemies(unit, target):
            return f"{target.name} is not a friendly slave robot to control."
        if COMMS_DOWN in target.statuses or COMMS_DOWN in unit.statuses:
            return f"The robot controller is down (an antenna was hit): {target.name} cannot be controlled."
    if action == "impart_order" and target is not None and battle.enemies(unit, target):
        return f"{target.name} is an enemy; orders go to your own units."
    return None


@dataclass(frozen=True)
class _Action:
    """A checked action: who takes which, at whom or where."""

    unit: Unit
    key: str
    target: Unit | None
    to: Cell | None


@checks("action")
def check_act(battle: Battle, order: Act) -> _Action | None:
    """Check an action of the AP table: its target or square, and the unit's state; None when it will not obey."""
    unit = ready(battle, order.unit)
    if unit is None:
        return None
    key = order.action.strip().lower().replace(" ", "_").replace("-", "_")
    target = battle.unit(order.target) if order.target else None
    to = battle.check_cell(order.to) if order.to is not None else None
    why = why_not_act(battle, unit, key, target, to)
    if why:
        raise IllegalOrderError(why)
    return _Action(unit, key, target, to)


@handles("action")
def act(battle: Battle, order: Act, dice: Dice, outcome: Outcome) -> None:
    """Take the action: hide (out of sight until it moves or fires), cross an obstacle, or one logged for the GM."""
    check_act(battle, order)
    if acting(battle, order.unit, dice, outcome) is None:
        return
    checked = check_act(battle, order)
    assert checked is not None  # the activation is open: the unit obeys
    unit, key, target, to = checked.unit, checked.key, checked.target, checked.to
    details = {"unit": unit.name, "action": key, "name": action_name(key)}
    if target is not None:
        details["target"] = target.name
    if key == "hide":
        unit.statuses.append(HIDDEN)
    elif key in OBSTACLE_MOVES and to is not None:
        relocate(battle, unit, to, outcome, key)
    elif to is not None:
        details["at"] = str(to)
        outcome.highlight.target = str(to)
    unit.last_action = f"action {key}"
    outcome.add(GeneralAction(**details))
