"""Fire: standard, aimed sniping, automatic, heavy and grenade shots, to-hit against SS, deviation, damage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.errors import IllegalOrderError, NotFoundError, shorten
from rules.orders import Order
from rules.systems.combat_action.actions.play import acting, ready
from rules.systems.combat_action.shooting import CLASS_MODES, FIRE_MODES, resolve_shot, why_not_fire
from rules.systems.combat_action.table import checks, handles, order
from rules.systems.combat_action.units import Unit, Weapon

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle

__all__ = ["CLASS_MODES", "FIRE_MODES", "Fire", "weapon_of", "why_not_fire"]


@order("fire", "owner")
@dataclass(frozen=True)
class Fire(Order):
    """Fire a weapon at a unit: standard (1 AP), sniping, automatic or heavy (2 AP), grenade (1 AP)."""

    unit: str
    weapon: str
    target: str
    mode: str = "standard"


def weapon_of(unit: Unit, name: str) -> Weapon:
    """Return a unit's weapon by name, or say which weapons it has."""
    weapon = unit.weapon(name)
    if weapon is None:
        names = ", ".join(w.name for w in unit.weapons) or "none"
        raise NotFoundError(f"{unit.name} has no weapon `{shorten(name)}`; its weapons: {names}.")
    return weapon


@checks("fire")
def check_fire(battle: Battle, order: Fire) -> tuple[Unit, Weapon, Unit] | None:
    """Check a shot: the weapon, its mode, the target in sight and band; None when the order will not be obeyed."""
    unit = ready(battle, order.unit)
    if unit is None:
        return None
    weapon = weapon_of(unit, order.weapon)
    target = battle.unit(order.target)
    why = why_not_fire(battle, unit, weapon, target, order.mode)
    if why:
        raise IllegalOrderError(why)
    return unit, weapon, target


@handles("fire")
def fire(battle: Battle, order: Fire, dice: Dice, outcome: Outcome) -> None:
    """Resolve a shot: malfunction check, 1d6 + modifiers against SS, deviation on a miss, damage."""
    check_fire(battle, order)
    if acting(battle, order.unit, dice, outcome) is None:
        return
    checked = check_fire(battle, order)
    assert checked is not None  # the activation is open: the unit obeys
    unit, weapon, target = checked
    resolve_shot(battle, unit, weapon, target, order.mode, dice, outcome)
