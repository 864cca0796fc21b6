"""Movement and posture orders: walk, charge, flat down, get up, aim, end of activation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.errors import IllegalOrderError
from rules.orders import Move, Order
from rules.systems.combat_action.activation import activate
from rules.systems.combat_action.effects import Aimed, GotUp, LeftTheTable, Moved, TurnEnded, WentFlatDown
from rules.systems.combat_action.state import (
    AIMED,
    FLAT_DOWN,
    HALTED,
    ROUTING,
    nearest_enemy_distance,
    pinned_rules_apply,
)
from rules.systems.combat_action.table import handles, order
from rules.systems.combat_action.units import Unit

if TYPE_CHECKING:
    from rules.coords import Cell
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle
    from rules.turnorders import EndTurn

MOVE_MODES = ("walk", "charge")


@order("flat-down", "owner")
@dataclass(frozen=True)
class FlatDown(Order):
    """Go "Flat down" (1 AP): +1 PF as cover."""

    unit: str


@order("get-up", "owner")
@dataclass(frozen=True)
class GetUp(Order):
    """Get up from "Flat down" (1 AP)."""

    unit: str


@order("aim", "owner")
@dataclass(frozen=True)
class Aim(Order):
    """Aim with a targeting device (1 AP): the next shot gets the aim bonus."""

    unit: str


def acting(battle: Battle, name: str, dice: Dice, outcome: Outcome) -> Unit:
    """Return the unit giving an order, alive, with its activation opened."""
    unit = battle.unit(name)
    if not unit.alive:
        raise IllegalOrderError(f"{unit.name} is out of the fight ({unit.state}).")
    activate(battle, unit, dice, outcome)
    outcome.actor = unit.name
    return unit


def move_limit_cm(unit: Unit, mode: str, battle: Battle) -> int:
    """Return how far a move may go in cm: MV for a walk, twice MV for a charge, 0 when halted."""
    if HALTED in unit.statuses or FLAT_DOWN in unit.statuses:
        return 0
    return unit.mv_now() * (2 if mode == "charge" else 1)


def why_not_move(battle: Battle, unit: Unit, to: Cell, mode: str) -> str | None:
    """Return why a model may not move there now (pinned 4.10, routing 4.11, power grid), or None."""
    if mode not in MOVE_MODES:
        return f"`{mode}` is not a way to move; use walk (1 AP) or charge (2 AP)."
    if HALTED in unit.statuses:
        return f"{unit.name} has ground to a halt and cannot move."
    if FLAT_DOWN in unit.statuses:
        return f"{unit.name} is flat down; get up first (1 AP)."
    if "power_grid" in unit.damaged and unit.fired:
        return f"{unit.name}'s power grid is damaged: it fired this turn, so it cannot move too."
    cm_per = int(battle.const("cm_per_square"))
    cm = unit.cell.distance(to) * cm_per
    limit = move_limit_cm(unit, mode, battle)
    if cm > limit:
        return f"{to} is {cm} cm away; {unit.name} may {mode} {limit} cm ({limit // cm_per} squares)."
    before = nearest_enemy_distance(battle, unit)
    after = nearest_enemy_distance(battle, unit, to)
    if ROUTING in unit.statuses:
        if mode != "charge":
            return f"{unit.name} is routing: it may only charge away from the enemy."
        if before is not None and after is not None and after <= before:
            return f"{unit.name} is routing: it must charge away from the enemy, and {to} is not farther."
    elif pinned_rules_apply(unit, battle) and before is not None and after is not None and after < before:
        return f"{unit.name} is pinned: it cannot move closer to the enemy."
    return None


@handles("move")
def move(battle: Battle, order: Move, dice: Dice, outcome: Outcome) -> None:
    """Walk (1 AP) or charge (2 AP) to a square within MV (twice MV charging)."""
    unit = acting(battle, order.unit, dice, outcome)
    to = battle.check_cell(order.to)
    why = why_not_move(battle, unit, to, order.mode)
    if why:
        raise IllegalOrderError(why)
    frm = unit.cell
    cm = frm.distance(to) * int(battle.const("cm_per_square"))
    unit.x, unit.y = to.x, to.y
    unit.moved_cm += cm
    unit.last_action = f"move {order.mode}"
    outcome.highlight.update(path=[str(frm), str(to)], target=str(to))
    outcome.add(Moved(unit=unit.name, frm=str(frm), to=str(to), cm=cm, mode=order.mode))
    if ROUTING in unit.statuses and not (0 < to.x < battle.width - 1 and 0 < to.y < battle.height - 1):
        unit.state = "ooa"
        outcome.add(LeftTheTable(unit=unit.name))  # 4.11.4


@handles("flat-down")
def flat_down(battle: Battle, order: FlatDown, dice: Dice, outcome: Outcome) -> None:
    """Go flat down: cover worth +1 PF until the model gets up."""
    unit = acting(battle, order.unit, dice, outcome)
    if unit.machine or FLAT_DOWN in unit.statuses or ROUTING in unit.statuses:
        raise IllegalOrderError(f"{unit.name} cannot go flat down now (machines cannot, routing units only charge).")
    unit.statuses.append(FLAT_DOWN)
    outcome.add(WentFlatDown(unit=unit.name))


@handles("get-up")
def get_up(battle: Battle, order: GetUp, dice: Dice, outcome: Outcome) -> None:
    """Get up from flat down."""
    unit = acting(battle, order.unit, dice, outcome)
    if FLAT_DOWN not in unit.statuses:
        raise IllegalOrderError(f"{unit.name} is not flat down.")
    unit.statuses.remove(FLAT_DOWN)
    outcome.add(GotUp(unit=unit.name))


@handles("aim")
def aim(battle: Battle, order: Aim, dice: Dice, outcome: Outcome) -> None:
    """Aim with a targeting device: the next shot this activation adds `aim_bonus`."""
    unit = acting(battle, order.unit, dice, outcome)
    if ROUTING in unit.statuses or AIMED in unit.statuses:
        raise IllegalOrderError(f"{unit.name} cannot aim now (already aimed, or routing).")
    unit.statuses.append(AIMED)
    outcome.add(Aimed(unit=unit.name))


@handles("end-turn")
def end_turn(battle: Battle, order: EndTurn, dice: Dice, outcome: Outcome) -> None:
    """End the unit's activation: the End Phase drops an unused aim."""
    from rules import turns

    name = order.unit or (turns.current_unit(battle) or "")
    if not name:
        raise IllegalOrderError("Name the unit whose activation ends: `/turn end unit:...`.")
    unit = acting(battle, name, dice, outcome)
    if AIMED in unit.statuses:
        unit.statuses.remove(AIMED)
    if not turns.finish_turn(battle, unit.id, "ended"):
        raise IllegalOrderError(f"{unit.name} has no activation to end this round.")
    outcome.add(TurnEnded(unit=unit.name))
