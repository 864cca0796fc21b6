"""A vehicle's hold: opening and closing its hatches, models embarking and disembarking (003:L189)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.orders import Order
from rules.systems.combat_action.actions.play import acting, ready
from rules.systems.combat_action.effects import Disembarked, Embarked, HatchChanged
from rules.systems.combat_action.movement import why_not_step
from rules.systems.combat_action.state import FLAT_DOWN, HATCH_JAMMED, HIDDEN, ROUTING, passengers
from rules.systems.combat_action.table import checks, handles, order
from rules.systems.combat_action.units import Unit

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle

HATCH_ACTIONS = ("open", "close")
REACH = 1  # models embark from, and disembark to, the squares around the vehicle


@order("hatch", "owner")
@dataclass(frozen=True)
class Hatch(Order):
    """Open or close a vehicle's hold hatches (1 AP, "Open a door"): the vehicle itself or a model inside it."""

    unit: str
    action: str = "open"
    vehicle: str = ""


@order("embark", "owner")
@dataclass(frozen=True)
class Embark(Order):
    """Climb into a vehicle next to the model through its open hatches (1 AP, a walk)."""

    unit: str
    vehicle: str


@order("disembark", "owner")
@dataclass(frozen=True)
class Disembark(Order):
    """Leave a vehicle through its open or broken hatches to a square next to it (1 AP, a walk)."""

    unit: str
    to: Cell


def carrier(battle: Battle, unit: Unit, name: str) -> Unit:
    """Return the vehicle a hatch order is about: the one named, the one the model rides, or the unit itself."""
    if name:
        return battle.unit(name)
    if unit.inside:
        return battle.unit(unit.inside)
    return unit


def hatch_passable(vehicle: Unit) -> bool:
    """Return whether models can pass the hold's hatches: open, or broken open in close combat."""
    return vehicle.hatch in ("open", "broken")


def why_not_hatch(battle: Battle, unit: Unit, vehicle: Unit, action: str) -> str | None:
    """Return why a unit may not open or close this vehicle's hatches now, or None."""
    if action not in HATCH_ACTIONS:
        return f"`{action}` is not a hatch action; use open or close."
    if "hold" not in vehicle.locations:
        return f"{vehicle.name} has no hold, so no hatches."
    if unit is not vehicle and unit.inside != vehicle.id and unit.cell.distance(vehicle.cell) > REACH:
        return f"{unit.name} must be {vehicle.name} itself, inside it or next to it to work its hatches."
    if unit is not vehicle and unit.inside != vehicle.id and battle.enemies(unit, vehicle):
        return f"{vehicle.name}'s hatches are worked from inside; break them in close combat when they are jammed."
    if HATCH_JAMMED in vehicle.statuses:
        return (f"{vehicle.name}'s hatches are jammed (its hold was hit); break them open in close combat "
                f"(`hatch:true`).")
    if vehicle.hatch == "broken":
        return f"{vehicle.name}'s hatches were broken open and stay open."
    if (vehicle.hatch == "open") == (action == "open"):
        return f"{vehicle.name}'s hatches are already {'open' if action == 'open' else 'closed'}."
    return None


@checks("hatch")
def check_hatch(battle: Battle, order: Hatch) -> tuple[Unit, Unit] | None:
    """Check that the unit can work the vehicle's hatches that way; None when the order will not be obeyed."""
    unit = ready(battle, order.unit)
    if unit is None:
        return None
    vehicle = carrier(battle, unit, order.vehicle)
    why = why_not_hatch(battle, unit, vehicle, order.action.strip().lower())
    if why:
        raise IllegalOrderError(why)
    return unit, vehicle


@handles("hatch")
def hatch(battle: Battle, order: Hatch, dice: Dice, outcome: Outcome) -> None:
    """Open or close the hold's hatches."""
    check_hatch(battle, order)
    if acting(battle, order.unit, dice, outcome) is None:
        return
    checked = check_hatch(battle, order)
    assert checked is not None  # the activation is open: the unit obeys
    unit, vehicle = checked
    vehicle.hatch = "open" if order.action.strip().lower() == "open" else "closed"
    unit.last_action = f"hatch {vehicle.hatch}"
    outcome.add(HatchChanged(unit=vehicle.name, by=unit.name, hatch=vehicle.hatch))


def why_not_embark(battle: Battle, unit: Unit, vehicle: Unit) -> str | None:
    """Return why a model may not climb into this vehicle now, or None."""
    if unit.machine or unit.building:
        return f"{unit.name} is not a model; only models ride in a hold."
    if unit.inside:
        return f"{unit.name} is already inside a vehicle."
    if vehicle.kind != "vehicle" or "hold" not in vehicle.locations or not vehicle.alive:
        return f"{vehicle.name} has no hold to carry {unit.name}."
    if battle.enemies(unit, vehicle):
        return f"{vehicle.name} is an enemy vehicle."
    if ROUTING in unit.statuses or FLAT_DOWN in unit.statuses:
        return f"{unit.name} cannot embark while {'routing' if ROUTING in unit.statuses else 'flat down'}."
    if unit.cell.distance(vehicle.cell) > REACH:
        return f"{unit.name} must stand next to {vehicle.name} to embark."
    if not hatch_passable(vehicle):
        jammed = HATCH_JAMMED in vehicle.statuses
        return f"{vehicle.name}'s hatches are {'jammed' if jammed else 'closed'}; {'break' if jammed else 'open'} them first."
    if len(passengers(battle, vehicle)) >= vehicle.capacity:
        return f"{vehicle.name}'s hold is full ({vehicle.capacity} models)."
    return None


def board(battle: Battle, unit: Unit, vehicle: Unit) -> None:
    """Put a model inside a vehicle: it leaves the table and moves with the vehicle."""
    unit.inside = vehicle.id
    unit.x, unit.y = vehicle.x, vehicle.y
    for status in (HIDDEN, FLAT_DOWN):
        if status in unit.statuses:
            unit.statuses.remove(status)


@checks("embark")
def check_embark(battle: Battle, order: Embark) -> tuple[Unit, Unit] | None:
    """Check that the model can climb into the vehicle; None when the order will not be obeyed."""
    unit = ready(battle, order.unit)
    if unit is None:
        return None
    vehicle = battle.unit(order.vehicle)
    why = why_not_embark(battle, unit, vehicle)
    if why:
        raise IllegalOrderError(why)
    return unit, vehicle


@handles("embark")
def embark(battle: Battle, order: Embark, dice: Dice, outcome: Outcome) -> None:
    """Climb into a friendly vehicle's hold."""
    check_embark(battle, order)
    if acting(battle, order.unit, dice, outcome) is None:
        return
    checked = check_embark(battle, order)
    assert checked is not None  # the activation is open: the unit obeys
    unit, vehicle = checked
    frm = unit.cell
    board(battle, unit, vehicle)
    unit.last_action = "embark"
    outcome.highlight.update(path=[str(frm), str(vehicle.cell)], target=str(vehicle.cell))
    outcome.add(Embarked(unit=unit.name, vehicle=vehicle.name, at=str(vehicle.cell)))


def why_not_disembark(battle: Battle, unit: Unit, to: Cell) -> str | None:
    """Return why a model may not leave its vehicle to that square now, or None."""
    if not unit.inside:
        return f"{unit.name} is not inside a vehicle."
    vehicle = battle.units[unit.inside]
    if not hatch_passable(vehicle):
        if HATCH_JAMMED in vehicle.statuses:
            return f"{vehicle.name}'s hatches are jammed; break them open from inside in close combat (`hatch:true`)."
        return f"{vehicle.name}'s hatches are closed; open them first (1 AP)."
    if vehicle.cell.distance(to) > REACH:
        return f"{to} is not next to {vehicle.name}; disembark onto a square around {vehicle.cell}."
    return why_not_step(battle, unit, to, "walk")


@checks("disembark")
def check_disembark(battle: Battle, order: Disembark) -> tuple[Unit, Cell] | None:
    """Check that the model can step out onto that square; None when the order will not be obeyed."""
    unit = ready(battle, order.unit)
    if unit is None:
        return None
    to = battle.check_cell(order.to)
    why = why_not_disembark(battle, unit, to)
    if why:
        raise IllegalOrderError(why)
    return unit, to


@handles("disembark")
def disembark(battle: Battle, order: Disembark, dice: Dice, outcome: Outcome) -> None:
    """Step out of the hold onto a square next to the vehicle."""
    check_disembark(battle, order)
    if acting(battle, order.unit, dice, outcome) is None:
        return
    checked = check_disembark(battle, order)
    assert checked is not None  # the activation is open: the unit obeys
    unit, to = checked
    vehicle = battle.units[unit.inside]
    unit.inside = ""
    unit.x, unit.y = to.x, to.y
    unit.last_action = "disembark"
    outcome.highlight.update(path=[str(vehicle.cell), str(to)], target=str(to))
    outcome.add(Disembarked(unit=unit.name, vehicle=vehicle.name, to=str(to)))
