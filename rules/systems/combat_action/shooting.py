"""Taking a shot on the battle: may this weapon fire at that target now, every to-hit term, and the shot itself."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.coords import Cell
from rules.modifiers import Modifier
from rules.scale import square_size
from rules.systems.combat_action import fire as rules_fire
from rules.systems.combat_action.details import ShotDetails
from rules.systems.combat_action.effects import Deviated, Missed, WeaponJammed, WeaponMalfunctioned
from rules.systems.combat_action.hits import hit
from rules.systems.combat_action.rolltests import MalfunctionTest, ToHitTest
from rules.systems.combat_action.state import (
    AIMED,
    HIDDEN,
    ROUTING,
    cm_between,
    fresh,
    on_table,
    pinned_hint,
    pinned_rules_apply,
    safe_from_pinning,
)
from rules.systems.combat_action.tables import Band, tables
from rules.systems.combat_action.units import Unit, Weapon

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.combat_action.board import Battle

FIRE_MODES = ("standard", "sniping", "automatic", "heavy", "grenade")
# Which fire modes each weapon class may use (003:L26-34: the 2 AP modes belong to their classes). Close
# combat weapons strike with the close-combat order (2 AP), never as a shot.
CLASS_MODES = {
    "pistol": ("standard", "automatic"), "rifle": ("standard", "automatic"), "assault": ("standard", "automatic"),
    "sniping": ("standard", "sniping"), "heavy": ("heavy",), "very_heavy": ("heavy",), "grenades": ("grenade",),
    "starcraft": ("standard", "heavy"),
}


def band_to(battle: Battle, unit: Unit, target: Unit) -> Band:
    """Return the range category between two units at this battle's scale."""
    return rules_fire.band_for_squares(unit.cell.distance(target.cell), square_size(battle),
                                       int(battle.const("base_contact_squares")))


def weapon_ready(battle: Battle, unit: Unit, weapon: Weapon) -> str | None:
    """Return why a weapon cannot fire at all now (damage, ammunition, jam, an unprimed grenade), or None."""
    if weapon.disabled:
        return f"{unit.name}'s {weapon.name} has malfunctioned and cannot fire again this battle."
    if weapon.shots_left == 0:
        return f"{unit.name}'s {weapon.name} has no shot left: its ammunition feed is destroyed."
    if weapon.jammed:
        return f"{unit.name}'s {weapon.name} is jammed; unjam it first (2 AP)."
    if weapon.empty:
        return f"{unit.name}'s {weapon.name} has fired its {weapon.ammo} shots; reload it first (1 AP)."
    if weapon.area == "grenade" and battle.const("grenade_priming") and not weapon.primed:
        return f"{unit.name}'s {weapon.name} is not primed; prime it first (1 AP), then throw it (1 AP)."
    return None


def why_not_fire(battle: Battle, unit: Unit, weapon: Weapon, target: Unit, mode: str) -> str | None:
    """Return why this shot may not be taken (mode, weapon state, band, pinned, routing, sight), or None."""
    if mode not in CLASS_MODES.get(weapon.wclass, ()):
        name = tables().weapon_classes[weapon.wclass].name
        allowed = ", ".join(CLASS_MODES.get(weapon.wclass, ()))
        if not allowed:
            return f"A {name} weapon strikes in close combat (2 AP), not as a shot."
        return f"A {name} weapon fires in mode {allowed}, not `{mode}`."
    if unit.inside:
        return f"{unit.name} is inside a vehicle; disembark first."
    ready = weapon_ready(battle, unit, weapon)
    if ready:
        return ready
    if ROUTING in unit.statuses:
        return f"{unit.name} is routing: it may only charge away from the enemy."
    if pinned_rules_apply(unit, battle) and not safe_from_pinning(battle, unit):
        return (f"{unit.name} is pinned: it may only move until it is in cover, flat down or out of sight."
                f"{pinned_hint(battle, unit)}")
    # Opening the activation clears last turn's move, so a fresh unit has not moved.
    if "power_grid" in unit.damaged and unit.moved_cm and not fresh(battle, unit):
        return f"{unit.name}'s power grid is damaged: it moved this turn, so it cannot fire too."
    if target is unit or not on_table(target):
        return f"{target.name} is not a target: it is {'inside a vehicle' if target.inside else 'out of the fight'}."
    if HIDDEN in target.statuses and battle.const("hidden_blocks_fire"):
        return f"{target.name} is hidden behind cover, out of {unit.name}'s sight."
    band = band_to(battle, unit, target)
    wclass = tables().weapon_classes[weapon.wclass]
    if battle.const("enforce_max_band") and not rules_fire.may_reach(wclass, weapon.max_band or None, band):
        last = rules_fire.max_band(wclass, weapon.max_band or None)
        return f"{target.name} is at {band.name} range; {unit.name}'s {weapon.name} reaches {last.name} at most."
    return None


def to_hit_modifiers(battle: Battle, unit: Unit, weapon: Weapon | None, target: Unit, mode: str) -> list[Modifier]:
    """Return every to-hit modifier of a shot or blow, each with its rule (a bare-handed blow has no class)."""
    band = band_to(battle, unit, target)
    out: list[Modifier] = []
    if weapon is not None:
        wclass = tables().weapon_classes[weapon.wclass]
        out.append(Modifier(f"{wclass.name} at {band.name}", rules_fire.class_bonus(wclass, band), "003:L57-68"))
    out.append(Modifier(f"Target size ({target.size.replace('_', ' ')})", rules_fire.size_mod(target.size),
                        "003:L72-75"))
    if "high" in (unit.altitude, target.altitude):
        out.append(Modifier("High altitude", int(battle.const("flying_high_mod")), "A77"))
    if battle.const("speed_modifier"):
        out.append(Modifier(f"Target moved {target.moved_cm} cm", rules_fire.speed_mod(
            target.moved_cm, int(battle.const("speed_threshold_cm")), int(battle.const("speed_step_cm"))), "A76"))
    if mode != "close" and (AIMED in unit.statuses or mode == "sniping"):
        out.append(Modifier("Aimed", int(battle.const("aim_bonus")), "003:L29-31"))
    return [m for m in out if m.value]


def roll_to_hit(battle: Battle, unit: Unit, target: Unit, mods: list[Modifier], dice: Dice,
                outcome: Outcome, what: str, *, mode: str, strike_back: bool | None = None) -> rules_fire.ToHit:
    """Roll 1d6 + modifiers against the unit's SS (A73) and record the roll with every term."""
    shot = rules_fire.ToHit(dice.d(6, f"{unit.name} to hit {target.name}"), tuple(mods), unit.ss,
                            bool(battle.const("hit_on_equal")))
    cm = cm_between(battle, unit.cell, target.cell)
    outcome.tests.append(ToHitTest(die=shot.die, modifiers=shot.modifiers, total=shot.total, ss=shot.ss, hit=shot.hit,
                                   miss=shot.miss, weapon=what, band=band_to(battle, unit, target).key,
                                   target=target.name, unit=unit.name, cm=cm, mode=mode, strike_back=strike_back))
    return shot


def _malfunctions(battle: Battle, unit: Unit, weapon: Weapon, dice: Dice, outcome: Outcome) -> bool:
    """Roll a faulty weapon's malfunction die before the shot (A86); return whether the shot is lost."""
    die = dice.d(6, f"{weapon.name} malfunction check")
    broke = die >= int(battle.const("malfunction_min_roll"))
    outcome.tests.append(MalfunctionTest(weapon=weapon.name, die=die, need=int(battle.const("malfunction_min_roll")),
                                         malfunctioned=broke))
    if broke:
        weapon.disabled = True
        outcome.add(WeaponMalfunctioned(unit=unit.name, weapon=weapon.name))
    return broke and bool(battle.const("malfunction_loses_shot"))


def resolve_shot(battle: Battle, unit: Unit, weapon: Weapon, target: Unit, mode: str, dice: Dice,
                 outcome: Outcome) -> None:
    """Fire one shot: malfunction check, 1d6 + modifiers against SS, jam, deviation on a miss, damage."""
    unit.fired = True
    unit.last_action = f"fire {target.id} {mode} {weapon.name}"
    if HIDDEN in unit.statuses:
        unit.statuses.remove(HIDDEN)
    if weapon.shots_left > 0:
        weapon.shots_left -= 1
    if weapon.ammo:
        weapon.spent += 1
    weapon.primed = False
    outcome.highlight.update(attacker=str(unit.cell), target=str(target.cell), line=[str(unit.cell), str(target.cell)])
    if weapon.faulty and _malfunctions(battle, unit, weapon, dice, outcome):
        return
    mods = to_hit_modifiers(battle, unit, weapon, target, mode)
    if AIMED in unit.statuses:
        unit.statuses.remove(AIMED)
    shot = roll_to_hit(battle, unit, target, mods, dice, outcome, weapon.name, mode=mode)
    outcome.details = ShotDetails(hit=shot.hit, weapon=weapon.name, target=target.name)
    outcome.highlight.hit = shot.hit
    if shot.die <= int(battle.const("jam_on_roll")):
        weapon.jammed = True
        outcome.add(WeaponJammed(unit=unit.name, weapon=weapon.name, die=shot.die))
    landing = target.cell
    if not shot.hit:
        outcome.add(Missed(unit=unit.name, target=target.name))
        if not weapon.area or shot.miss == 0:
            return
        cm = rules_fire.deviation_cm(shot.miss, weapon.area == "grenade", int(battle.const("grenade_deviation_cm")),
                                     int(battle.const("other_deviation_cm")))
        face = dice.d(6, f"{weapon.name} deviation direction")
        landing = rules_fire.deviate(unit.cell, target.cell, face, cm, square_size(battle),
                                     int(battle.const("deviation_sector_degrees")))
        # A landing off the table is drawn, and named, at the edge it went over.
        edge = Cell(max(0, min(battle.width - 1, landing.x)), max(0, min(battle.height - 1, landing.y)))
        outcome.add(Deviated(weapon=weapon.name, frm=str(target.cell), to=str(edge), cm=cm, face=face,
                       miss=shot.miss, on_map=battle.on_map(landing)))
        outcome.highlight.landed = str(edge)  # drawn from the aimed square, the outcome's `target`
        if not battle.on_map(landing):
            return
    victims = [u for u in battle.units_at(landing) if on_table(u)] if weapon.area else [target]
    for victim in victims:
        hit(battle, victim, weapon.pen, dice, outcome, weapon.name)
