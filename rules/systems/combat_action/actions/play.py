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
from rules.systems.combat_action.state import AIMED, FLAT_DOWN, ROUTING, loses_control
from rules.systems.combat_action.table import checks, handles, order
from rules.systems.combat_action.units import Unit

if TYPE_CHECKING:
    from rules.coords import Cell
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


def ready(battle: Battle, name: str) -> Unit | None:
    """Check that a unit can be given an order now, before its activation opens (a check phase rolls nothing).

    None means opening its activation hands it to its out-of-control table (A85): whatever the order, it is
    not carried out, so nothing more of it is checked.
    """
    turns.require_active(battle)
    unit = battle.unit(name)
    if unit.building:
        raise IllegalOrderError(f"{unit.name} is a building; buildings take no actions.")
    if not unit.alive:
        raise IllegalOrderError(f"{unit.name} is out of the fight ({unit.state}).")
    return None if loses_control(battle, unit) else unit


def acting(battle: Battle, name: str, dice: Dice, outcome: Outcome) -> Unit | None:
    """Return the unit giving an order, in play, with its activation opened.

    None means the unit's out-of-control table took the activation over (A85): the order is not carried
    out, and the unit's turn is over for this round. A handler checks its order before (the check phase, on
    the state the activation will leave) and again after, on the state it left.
    """
    ready(battle, name)
    unit = battle.unit(name)
    outcome.actor = unit.name
    if activate(battle, unit, dice, outcome):
        outcome.add(OrderNotObeyed(unit=unit.name))
        if turns.engaged(battle):
            turns.finish_turn(battle, unit.id, "out_of_control")
        return None
    return unit


@checks("activate")
def check_activate(battle: Battle, order: Activate) -> None:
    """Check that the unit's activation is not open yet and it can be given orders."""
    unit = battle.unit(order.unit)
    if unit.activated == battle.round and battle.status == "active":
        raise IllegalOrderError(f"{unit.name}'s activation is already open this round; give it its actions.")
    ready(battle, order.unit)


@handles("activate")
def activate_unit(battle: Battle, order: Activate, dice: Dice, outcome: Outcome) -> None:
    """Open the activation on its own, so the Discipline Phase is seen before any action is chosen."""
    check_activate(battle, order)
    acting(battle, order.unit, dice, outcome)


@checks("move")
def check_move(battle: Battle, order: Move) -> tuple[Unit, Cell] | None:
    """Check a walk or charge: a square on the map within reach; None when the order will not be obeyed."""
    unit = ready(battle, order.unit)
    if unit is None:
        return None
    to = battle.check_cell(order.to)
    why = why_not_move(battle, unit, to, order.mode)
    if why:
        raise IllegalOrderError(why)
    return unit, to


@handles("move")
def move(battle: Battle, order: Move, dice: Dice, outcome: Outcome) -> None:
    """Walk (1 AP) or charge (2 AP) to a square within MV (twice MV charging)."""
    check_move(battle, order)
    if acting(battle, order.unit, dice, outcome) is None:
        return
    checked = check_move(battle, order)
    assert checked is not None  # the activation is open: the unit obeys
    unit, to = checked
    relocate(battle, unit, to, outcome, order.mode)


@checks("flat-down")
def check_flat_down(battle: Battle, order: FlatDown) -> Unit | None:
    """Check that the unit can go flat down; None when the order will not be obeyed."""
    unit = ready(battle, order.unit)
    if unit is not None and (unit.machine or unit.inside or FLAT_DOWN in unit.statuses or ROUTING in unit.statuses):
        raise IllegalOrderError(f"{unit.name} cannot go flat down now (already flat down, a machine, carried, "
                                "or routing: routing units only charge).")
    return unit


@handles("flat-down")
def flat_down(battle: Battle, order: FlatDown, dice: Dice, outcome: Outcome) -> None:
    """Go flat down: cover worth +1 PF until the model gets up."""
    check_flat_down(battle, order)
    if acting(battle, order.unit, dice, outcome) is None:
        return
    unit = check_flat_down(battle, order)
    assert unit is not None  # the activation is open: the unit obeys
    unit.statuses.append(FLAT_DOWN)
    outcome.add(WentFlatDown(unit=unit.name))


@checks("get-up")
def check_get_up(battle: Battle, order: GetUp) -> Unit | None:
    """Check that the unit is flat down; None when the order will not be obeyed."""
    unit = ready(battle, order.unit)
    if unit is not None and FLAT_DOWN not in unit.statuses:
        raise IllegalOrderError(f"{unit.name} is not flat down.")
    return unit


@handles("get-up")
def get_up(battle: Battle, order: GetUp, dice: Dice, outcome: Outcome) -> None:
    """Get up from flat down."""
    check_get_up(battle, order)
    if acting(battle, order.unit, dice, outcome) is None:
        return
    unit = check_get_up(battle, order)
    assert unit is not None  # the activation is open: the unit obeys
    unit.statuses.remove(FLAT_DOWN)
    outcome.add(GotUp(unit=unit.name))


@checks("aim")
def check_aim(battle: Battle, order: Aim) -> Unit | None:
    """Check that the unit may aim; None when the order will not be obeyed."""
    unit = ready(battle, order.unit)
    if unit is not None and (ROUTING in unit.statuses or AIMED in unit.statuses):
        raise IllegalOrderError(f"{unit.name} cannot aim now (already aimed, or routing).")
    return unit


@handles("aim")
def aim(battle: Battle, order: Aim, dice: Dice, outcome: Outcome) -> None:
    """Aim with a targeting device: the next shot this activation adds `aim_bonus`."""
    check_aim(battle, order)
    if acting(battle, order.unit, dice, outcome) is None:
        return
    unit = check_aim(battle, order)
    assert unit is not None  # the activation is open: the unit obeys
    unit.statuses.append(AIMED)
    outcome.add(Aimed(unit=unit.name))


@checks("end-turn")
def check_end_turn(battle: Battle, order: EndTurn) -> Unit | None:
    """Check that a unit is named or due, and has an activation to end; None when it will not obey."""
    name = order.unit or (turns.current_unit(battle) or "")
    if not name:
        raise IllegalOrderError("Name the unit whose activation ends: `/turn end unit:...`.")
    unit = ready(battle, name)
    if unit is not None and not turns.has_turn_left(battle, unit.id):
        raise IllegalOrderError(f"{unit.name} has no activation to end this round.")
    return unit


@handles("end-turn")
def end_turn(battle: Battle, order: EndTurn, dice: Dice, outcome: Outcome) -> None:
    """End the unit's activation: the End Phase drops an unused aim."""
    check_end_turn(battle, order)
    name = order.unit or (turns.current_unit(battle) or "")
    if acting(battle, name, dice, outcome) is None:
        return
    unit = check_end_turn(battle, order)
    assert unit is not None  # the activation is open: the unit obeys
    if AIMED in unit.statuses:
        unit.statuses.remove(AIMED)
    turns.finish_turn(battle, unit.id, "ended")
    outcome.add(TurnEnded(unit=unit.name))
