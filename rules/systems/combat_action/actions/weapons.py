"""Keeping a weapon firing: reload (1 AP), unjam (2 AP) and prime a grenade (1 AP) (003:L34, L40-41)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.errors import IllegalOrderError
from rules.orders import Order
from rules.systems.combat_action.actions.fire import weapon_of
from rules.systems.combat_action.actions.play import acting, ready
from rules.systems.combat_action.effects import Primed, Reloaded, Unjammed
from rules.systems.combat_action.state import ROUTING
from rules.systems.combat_action.table import checks, handles, order
from rules.systems.combat_action.units import Unit, Weapon

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle


@order("reload", "owner")
@dataclass(frozen=True)
class Reload(Order):
    """Reload a weapon (1 AP): its whole load of `ammo` shots again."""

    unit: str
    weapon: str


@order("unjam", "owner")
@dataclass(frozen=True)
class Unjam(Order):
    """Unjam a weapon (2 AP)."""

    unit: str
    weapon: str


@order("prime", "owner")
@dataclass(frozen=True)
class Prime(Order):
    """Prime a grenade (1 AP) so it can be thrown (1 AP)."""

    unit: str
    weapon: str


def why_not_tend(battle: Battle, unit: Unit, weapon: Weapon, kind: str) -> str | None:
    """Return why a unit may not reload, unjam or prime this weapon now, or None."""
    if ROUTING in unit.statuses:
        return f"{unit.name} is routing: it may only charge away from the enemy."
    if weapon.disabled:
        return f"{unit.name}'s {weapon.name} has malfunctioned for good; nothing brings it back this battle."
    if kind == "reload":
        if not weapon.ammo:
            return f"{unit.name}'s {weapon.name} has no magazine to reload (its stat block gives no `ammo`)."
        if weapon.spent == 0:
            return f"{unit.name}'s {weapon.name} is fully loaded ({weapon.ammo} shots)."
        if weapon.shots_left == 0:
            return f"{unit.name}'s {weapon.name} has no shot left: its ammunition feed is destroyed."
    elif kind == "unjam" and not weapon.jammed:
        return f"{unit.name}'s {weapon.name} is not jammed."
    elif kind == "prime":
        if weapon.area != "grenade":
            return f"{unit.name}'s {weapon.name} is not a grenade; only grenades are primed."
        if weapon.primed:
            return f"{unit.name}'s {weapon.name} is already primed; throw it (fire mode grenade, 1 AP)."
    return None


@checks("reload")
@checks("unjam")
@checks("prime")
def check_tend(battle: Battle, order: Reload | Unjam | Prime) -> tuple[Unit, Weapon] | None:
    """Check that the weapon can be reloaded, unjammed or primed now; None when the order will not be obeyed."""
    unit = ready(battle, order.unit)
    if unit is None:
        return None
    weapon = weapon_of(unit, order.weapon)
    why = why_not_tend(battle, unit, weapon, order.kind)
    if why:
        raise IllegalOrderError(why)
    return unit, weapon


def _tend(battle: Battle, order: Reload | Unjam | Prime, dice: Dice, outcome: Outcome) -> None:
    check_tend(battle, order)
    if acting(battle, order.unit, dice, outcome) is None:
        return
    checked = check_tend(battle, order)
    assert checked is not None  # the activation is open: the unit obeys
    unit, weapon = checked
    if order.kind == "reload":
        weapon.spent = 0
    elif order.kind == "unjam":
        weapon.jammed = False
    else:
        weapon.primed = True
    unit.last_action = f"{order.kind} {weapon.name}"
    done = {"reload": Reloaded, "unjam": Unjammed, "prime": Primed}[order.kind]
    outcome.add(done(unit=unit.name, weapon=weapon.name, shots=weapon.ammo))


@handles("reload")
def reload(battle: Battle, order: Reload, dice: Dice, outcome: Outcome) -> None:
    """Reload a weapon that has fired shots of its load."""
    _tend(battle, order, dice, outcome)


@handles("unjam")
def unjam(battle: Battle, order: Unjam, dice: Dice, outcome: Outcome) -> None:
    """Clear a jammed weapon."""
    _tend(battle, order, dice, outcome)


@handles("prime")
def prime(battle: Battle, order: Prime, dice: Dice, outcome: Outcome) -> None:
    """Prime a grenade for throwing."""
    _tend(battle, order, dice, outcome)
