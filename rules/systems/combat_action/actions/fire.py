"""Fire: standard, aimed sniping, automatic, heavy and grenade shots, to-hit against SS, deviation, damage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.errors import IllegalOrderError, NotFoundError
from rules.modifiers import Modifier
from rules.orders import Order
from rules.systems.combat_action import fire as rules_fire
from rules.systems.combat_action.actions.play import acting
from rules.systems.combat_action.effects import Deviated, Missed, WeaponMalfunctioned
from rules.systems.combat_action.hits import hit
from rules.systems.combat_action.state import AIMED, ROUTING, pinned_rules_apply, safe_from_pinning
from rules.systems.combat_action.table import handles, order
from rules.systems.combat_action.tables import Band, tables
from rules.systems.combat_action.units import Unit, Weapon

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle

FIRE_MODES = ("standard", "sniping", "automatic", "heavy", "grenade")
# Which fire modes each weapon class may use (003:L26-34: the 2 AP modes belong to their classes).
CLASS_MODES = {
    "pistol": ("standard", "automatic"), "rifle": ("standard", "automatic"), "assault": ("standard", "automatic"),
    "sniping": ("standard", "sniping"), "heavy": ("heavy",), "very_heavy": ("heavy",), "grenades": ("grenade",),
    "close_combat": ("standard",), "heavy_close_combat": ("standard",), "starcraft": ("standard", "heavy"),
}


@order("fire", "owner")
@dataclass(frozen=True)
class Fire(Order):
    """Fire a weapon at a unit: standard (1 AP), sniping, automatic or heavy (2 AP), grenade (1 AP)."""

    unit: str
    weapon: str
    target: str
    mode: str = "standard"


def why_not_fire(battle: Battle, unit: Unit, weapon: Weapon, target: Unit, mode: str) -> str | None:
    """Return why this shot may not be taken (mode, weapon state, band, pinned, routing), or None."""
    if mode not in CLASS_MODES.get(weapon.wclass, ()):
        allowed = ", ".join(CLASS_MODES.get(weapon.wclass, ()))
        return f"A {tables().weapon_classes[weapon.wclass].name} weapon fires in mode {allowed}, not `{mode}`."
    if weapon.disabled:
        return f"{unit.name}'s {weapon.name} has malfunctioned and cannot fire again this battle."
    if weapon.shots_left == 0:
        return f"{unit.name}'s {weapon.name} has no shot left: its ammunition feed is destroyed."
    if ROUTING in unit.statuses:
        return f"{unit.name} is routing: it may only charge away from the enemy."
    if pinned_rules_apply(unit, battle) and not safe_from_pinning(battle, unit):
        return f"{unit.name} is pinned: it may only move until it is in cover or flat down."
    if "power_grid" in unit.damaged and unit.moved_cm:
        return f"{unit.name}'s power grid is damaged: it moved this turn, so it cannot fire too."
    if not target.alive or target is unit:
        return f"{target.name} is not a target."
    band = band_to(battle, unit, target)
    if battle.const("enforce_max_band") and not rules_fire.may_reach(
            tables().weapon_classes[weapon.wclass], weapon.max_band or None, band):
        last = rules_fire.max_band(tables().weapon_classes[weapon.wclass], weapon.max_band or None)
        return (f"{target.name} is at {band.name} range; {unit.name}'s {weapon.name} reaches "
                f"{last.name} at most.")
    return None


def band_to(battle: Battle, unit: Unit, target: Unit) -> Band:
    """Return the range category between two units at this battle's scale."""
    return rules_fire.band_for_squares(unit.cell.distance(target.cell), int(battle.const("cm_per_square")),
                                       int(battle.const("base_contact_squares")))


def modifiers(battle: Battle, unit: Unit, weapon: Weapon, target: Unit, mode: str) -> list[Modifier]:
    """Return every to-hit modifier of a shot, each with its rule."""
    band = band_to(battle, unit, target)
    wclass = tables().weapon_classes[weapon.wclass]
    out = [Modifier(f"{wclass.name} at {band.name}", rules_fire.class_bonus(wclass, band), "003:L57-68"),
           Modifier(f"Target size ({target.size.replace('_', ' ')})", rules_fire.size_mod(target.size), "003:L72-75")]
    if "high" in (unit.altitude, target.altitude):
        out.append(Modifier("High altitude", int(battle.const("flying_high_mod")), "A77"))
    if battle.const("speed_modifier"):
        out.append(Modifier(f"Target moved {target.moved_cm} cm", rules_fire.speed_mod(
            target.moved_cm, int(battle.const("speed_threshold_cm")), int(battle.const("speed_step_cm"))), "A76"))
    if AIMED in unit.statuses or mode == "sniping":
        out.append(Modifier("Aimed", int(battle.const("aim_bonus")), "003:L29-31"))
    return [m for m in out if m.value]


@handles("fire")
def fire(battle: Battle, order: Fire, dice: Dice, outcome: Outcome) -> None:
    """Resolve a shot: malfunction check, 1d6 + modifiers against SS, deviation on a miss, damage."""
    unit = acting(battle, order.unit, dice, outcome)
    weapon = unit.weapon(order.weapon)
    if weapon is None:
        names = ", ".join(w.name for w in unit.weapons) or "none"
        raise NotFoundError(f"{unit.name} has no weapon `{order.weapon}`; its weapons: {names}.")
    target = battle.unit(order.target)
    why = why_not_fire(battle, unit, weapon, target, order.mode)
    if why:
        raise IllegalOrderError(why)
    unit.fired = True
    unit.last_action = f"fire {weapon.name}"
    if weapon.shots_left > 0:
        weapon.shots_left -= 1
    outcome.highlight.update(attacker=str(unit.cell), target=str(target.cell))
    if weapon.faulty:
        die = dice.d(6, f"{weapon.name} malfunction check")
        broke = die >= int(battle.const("malfunction_min_roll"))
        outcome.tests.append({"test": "malfunction", "weapon": weapon.name, "die": die,
                              "need": int(battle.const("malfunction_min_roll")), "malfunctioned": broke})
        if broke:
            weapon.disabled = True
            outcome.add(WeaponMalfunctioned(unit=unit.name, weapon=weapon.name))
            if battle.const("malfunction_loses_shot"):
                return
    mods = modifiers(battle, unit, weapon, target, order.mode)
    if AIMED in unit.statuses:
        unit.statuses.remove(AIMED)
    shot = rules_fire.ToHit(dice.d(6, f"{unit.name} to hit {target.name}"), tuple(mods), unit.ss,
                            bool(battle.const("hit_on_equal")))
    outcome.tests.append({**shot.to_dict(), "weapon": weapon.name, "mode": order.mode,
                          "band": band_to(battle, unit, target).key, "target": target.name})
    outcome.data.update(hit=shot.hit, weapon=weapon.name, target=target.name)
    landing = target.cell
    if not shot.hit:
        outcome.add(Missed(unit=unit.name, target=target.name))
        if not weapon.area or shot.miss == 0:
            return
        cm = rules_fire.deviation_cm(shot.miss, weapon.area == "grenade", int(battle.const("grenade_deviation_cm")),
                                     int(battle.const("other_deviation_cm")))
        face = dice.d(6, f"{weapon.name} deviation direction")
        landing = rules_fire.deviate(unit.cell, target.cell, face, cm, int(battle.const("cm_per_square")),
                                     int(battle.const("deviation_sector_degrees")))
        outcome.add(Deviated(weapon=weapon.name, frm=str(target.cell), to=str(landing), cm=cm, face=face,
                       on_map=battle.on_map(landing)))
        outcome.highlight["deviation"] = [str(target.cell), str(landing)]
        if not battle.on_map(landing):
            return
    victims = [u for u in battle.units_at(landing) if u.alive] if weapon.area else [target]
    for victim in victims:
        hit(battle, victim, weapon.pen, dice, outcome, weapon.name)
