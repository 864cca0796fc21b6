"""Close combat (2 AP): a blow in base contact, the defender's Strike Back, and breaking jammed hatches (A83)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.errors import IllegalOrderError
from rules.orders import Order
from rules.systems.combat_action.actions.fire import weapon_of
from rules.systems.combat_action.actions.play import acting, ready
from rules.systems.combat_action.effects import HatchBroken, Missed
from rules.systems.combat_action.hits import hit
from rules.systems.combat_action.rolltests import HatchTest
from rules.systems.combat_action.shooting import roll_to_hit, to_hit_modifiers
from rules.systems.combat_action.state import HATCH_JAMMED, HIDDEN, ROUTING, on_table
from rules.systems.combat_action.table import checks, handles, order
from rules.systems.combat_action.tables import tables
from rules.systems.combat_action.units import Unit, Weapon

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle

CLOSE_CLASSES = ("close_combat", "heavy_close_combat")
BARE_HANDS = "bare hands"


@order("close-combat", "owner")
@dataclass(frozen=True)
class CloseCombat(Order):
    """Attack in close combat (2 AP) with a close combat weapon or bare hands; `hatch` strikes a jammed hatch."""

    unit: str
    target: str
    weapon: str = ""
    hatch: bool = False


def in_base_contact(battle: Battle, unit: Unit, other: Unit) -> bool:
    """Return whether two models on the table are in base contact (Close Combat range, A75)."""
    return unit.cell.distance(other.cell) <= int(battle.const("base_contact_squares"))


def close_weapon(unit: Unit, name: str) -> Weapon | None:
    """Return the close combat weapon a unit strikes with (None: bare hands), refusing a ranged weapon."""
    if not name or name.strip().lower() == BARE_HANDS:
        return None
    weapon = weapon_of(unit, name)
    if weapon.wclass not in CLOSE_CLASSES:
        kind = tables().weapon_classes[weapon.wclass].name
        raise IllegalOrderError(f"{unit.name}'s {weapon.name} is a {kind} weapon; strike with a Close Combat or "
                                "Heavy Close Combat weapon, or bare hands.")
    if weapon.disabled:
        raise IllegalOrderError(f"{unit.name}'s {weapon.name} is broken and cannot be used again this battle.")
    return weapon


def best_close_weapon(unit: Unit) -> Weapon | None:
    """Return the close combat weapon a unit strikes back with: the biggest bonus, then the biggest Pen."""
    usable = [w for w in unit.weapons if w.wclass in CLOSE_CLASSES and not w.disabled]
    return max(usable, key=lambda w: (tables().weapon_classes[w.wclass].bonus.get("CC", 0), w.pen), default=None)


def why_not_strike(battle: Battle, unit: Unit, target: Unit) -> str | None:
    """Return why a model may not strike this target in close combat now, or None."""
    if ROUTING in unit.statuses:
        return f"{unit.name} is routing: it may only charge away from the enemy, never strike."
    if unit.inside:
        return f"{unit.name} is inside a vehicle; from there it can only break a jammed hatch (`hatch:true`)."
    if target is unit or not on_table(target):
        return f"{target.name} is not a target: it is {'inside a vehicle' if target.inside else 'out of the fight'}."
    if not in_base_contact(battle, unit, target):
        apart = unit.cell.distance(target.cell)
        return (f"{target.name} is {apart} square{'' if apart == 1 else 's'} away; close combat needs base contact "
                f"(charge into its square first).")
    return None


def why_not_break_hatch(battle: Battle, unit: Unit, target: Unit) -> str | None:
    """Return why a model may not strike this vehicle's jammed hatches now, or None."""
    if ROUTING in unit.statuses:
        return f"{unit.name} is routing: it may only charge away from the enemy."
    if "hold" not in target.locations:
        return f"{target.name} has no hold, so no hatches to break."
    if HATCH_JAMMED not in target.statuses:
        return f"{target.name}'s hatches are not jammed; open them with the hatch action (1 AP)."
    if unit.inside != target.id and (unit.inside or not in_base_contact(battle, unit, target)):
        return f"{unit.name} must be inside {target.name} or in base contact with it to strike its hatches."
    return None


def _blow(battle: Battle, unit: Unit, weapon: Weapon | None, target: Unit, dice: Dice, outcome: Outcome,
          strike_back: bool) -> None:
    """Roll one blow: 1d6 + the class's Close Combat bonus and size against SS, damage at the weapon's Pen."""
    mods = to_hit_modifiers(battle, unit, weapon, target, "close")
    what = weapon.name if weapon else BARE_HANDS
    shot = roll_to_hit(battle, unit, target, mods, dice, outcome, what, mode="close", strike_back=strike_back)
    if shot.hit:
        pen = weapon.pen if weapon else int(battle.const("bare_hands_pen"))
        hit(battle, target, pen, dice, outcome, what)
    else:
        outcome.add(Missed(unit=unit.name, target=target.name))


def _break_hatch(battle: Battle, unit: Unit, weapon: Weapon | None, target: Unit, dice: Dice,
                 outcome: Outcome) -> None:
    """003:L189 + A83: the blow hits by itself; d6 + Pen - hatch PF reaching the margin breaks the hatch open."""
    inside = unit.inside == target.id
    pf = max(0, target.pf - int(battle.const("hatch_inside_pf_penalty"))) if inside else target.pf
    pen = weapon.pen if weapon else int(battle.const("bare_hands_pen"))
    die = dice.d(6, f"{unit.name} strikes {target.name}'s hatch")
    need = int(battle.const("hatch_break_margin"))
    broken = die + pen - pf >= need
    outcome.tests.append(HatchTest(unit=unit.name, target=target.name, die=die, pen=pen, pf=pf, inside=inside,
                                   value=die + pen - pf, need=need, broken=broken,
                                   weapon=weapon.name if weapon else BARE_HANDS))
    if broken:
        target.statuses.remove(HATCH_JAMMED)
        target.hatch = "broken"
        outcome.add(HatchBroken(unit=target.name, by=unit.name))


@checks("close-combat")
def check_close_combat(battle: Battle, order: CloseCombat) -> tuple[Unit, Weapon | None, Unit] | None:
    """Check a strike: a close combat weapon (or bare hands) and a target in base contact, or a jammed hatch to
    break; None when the order will not be obeyed."""
    unit = ready(battle, order.unit)
    if unit is None:
        return None
    weapon = close_weapon(unit, order.weapon)
    target = battle.unit(order.target)
    why = why_not_break_hatch(battle, unit, target) if order.hatch else why_not_strike(battle, unit, target)
    if why:
        raise IllegalOrderError(why)
    return unit, weapon, target


@handles("close-combat")
def close_combat(battle: Battle, order: CloseCombat, dice: Dice, outcome: Outcome) -> None:
    """Strike in base contact; a defender that is neither routing nor a machine strikes back once (4.11.3)."""
    check_close_combat(battle, order)
    if acting(battle, order.unit, dice, outcome) is None:
        return
    checked = check_close_combat(battle, order)
    assert checked is not None  # the activation is open: the unit obeys
    unit, weapon, target = checked
    unit.last_action = f"strike {target.id}"
    if HIDDEN in unit.statuses:
        unit.statuses.remove(HIDDEN)
    outcome.highlight.update(attacker=str(unit.cell), target=str(target.cell))
    if order.hatch:
        _break_hatch(battle, unit, weapon, target, dice, outcome)
        return
    _blow(battle, unit, weapon, target, dice, outcome, strike_back=False)
    answers = target.alive and not target.machine and not target.building and ROUTING not in target.statuses
    if answers and battle.const("strike_back"):
        _blow(battle, target, best_close_weapon(target), unit, dice, outcome, strike_back=True)
