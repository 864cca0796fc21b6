"""Activation, movement and posture orders: activate, walk, charge, flat down, get up, aim, end of activation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules import turns
from rules.errors import IllegalOrderError
from rules.orders import Move, Order
from rules.systems.combat_action.activation import activate
from rules.systems.combat_action.effects import Aimed, GotUp, OrderNotObeyed, TurnEnded, WentFlatDown
from rules.systems.combat_action.movement import relocate, why_not_move
from rules.systems.combat_action.state import AIMED, FLAT_DOWN, ROUTING
from rules.systems.combat_action.table import handles, order
from rules.systems.combat_action.units import Unit

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle
    from rules.turnorders import EndTurn


@order("activate", "owner")
@dataclass(frozen=True)
class Activate(Order):
    """Open a unit's activation (free): the Discipline Phase test, and an out-of-control machine's table."""

    unit: str


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


def acting(battle: Battle, name: str, dice: Dice, outcome: Outcome) -> Unit | None:
    """Return the unit giving an order, in play, with its activation opened.

    None means the unit's out-of-control table took the activation over (A85): the order is not carried
    out, and the unit's turn is over for this round.
    """
    turns.require_active(battle)
    unit = battle.unit(name)
    if unit.building:
        raise IllegalOrderError(f"{unit.name} is a building; buildings take no actions.")
    if not unit.alive:
        raise IllegalOrderError(f"{unit.name} is out of the fight ({unit.state}).")
    outcome.actor = unit.name
    if activate(battle, unit, dice, outcome):
        outcome.add(OrderNotObeyed(unit=unit.name))
        if turns.engaged(battle):
            turns.finish_turn(battle, unit.id, "out_of_control")
        return None
    return unit


@handles("activate")
def activate_unit(battle: Battle, order: Activate, dice: Dice, outcome: Outcome) -> None:
    """Open the activation on its own, so the Discipline Phase is seen before any action is chosen."""
    unit = battle.unit(order.unit)
    if unit.activated == battle.round and battle.status == "active":
        raise IllegalOrderError(f"{unit.name}'s activation is already open this round; give it its actions.")
    acting(battle, order.unit, dice, outcome)


@handles("move")
def move(battle: Battle, order: Move, dice: Dice, outcome: Outcome) -> None:
    """Walk (1 AP) or charge (2 AP) to a square within MV (twice MV charging)."""
    unit = acting(battle, order.unit, dice, outcome)
    if unit is None:
        return
    to = battle.check_cell(order.to)
    why = why_not_move(battle, unit, to, order.mode)
    if why:
        raise IllegalOrderError(why)
    relocate(battle, unit, to, outcome, order.mode)


@handles("flat-down")
def flat_down(battle: Battle, order: FlatDown, dice: Dice, outcome: Outcome) -> None:
    """Go flat down: cover worth +1 PF until the model gets up."""
    unit = acting(battle, order.unit, dice, outcome)
    if unit is None:
        return
    if unit.machine or unit.inside or FLAT_DOWN in unit.statuses or ROUTING in unit.statuses:
        raise IllegalOrderError(f"{unit.name} cannot go flat down now (already flat down, a machine, carried, "
                                "or routing: routing units only charge).")
    unit.statuses.append(FLAT_DOWN)
    outcome.add(WentFlatDown(unit=unit.name))


@handles("get-up")
def get_up(battle: Battle, order: GetUp, dice: Dice, outcome: Outcome) -> None:
    """Get up from flat down."""
    unit = acting(battle, order.unit, dice, outcome)
    if unit is None:
        return
    if FLAT_DOWN not in unit.statuses:
        raise IllegalOrderError(f"{unit.name} is not flat down.")
    unit.statuses.remove(FLAT_DOWN)
    outcome.add(GotUp(unit=unit.name))


@handles("aim")
def aim(battle: Battle, order: Aim, dice: Dice, outcome: Outcome) -> None:
    """Aim with a targeting device: the next shot this activation adds `aim_bonus`."""
    unit = acting(battle, order.unit, dice, outcome)
    if unit is None:
        return
    if ROUTING in unit.statuses or AIMED in unit.statuses:
        raise IllegalOrderError(f"{unit.name} cannot aim now (already aimed, or routing).")
    unit.statuses.append(AIMED)
    outcome.add(Aimed(unit=unit.name))


@handles("end-turn")
def end_turn(battle: Battle, order: EndTurn, dice: Dice, outcome: Outcome) -> None:
    """End the unit's activation: the End Phase drops an unused aim."""
    name = order.unit or (turns.current_unit(battle) or "")
    if not name:
        raise IllegalOrderError("Name the unit whose activation ends: `/turn end unit:...`.")
    unit = acting(battle, name, dice, outcome)
    if unit is None:
        return
    if AIMED in unit.statuses:
        unit.statuses.remove(AIMED)
    if not turns.finish_turn(battle, unit.id, "ended"):
        raise IllegalOrderError(f"{unit.name} has no activation to end this round.")
    outcome.add(TurnEnded(unit=unit.name))
