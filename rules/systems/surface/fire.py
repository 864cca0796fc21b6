"""Firing (steps 2C to 2E): hits from Accuracy over Evade (A62), deflection from AS and AV (A63), damage."""

from __future__ import annotations

from fractions import Fraction

from rules.dice import Dice
from rules.systems.surface.rounds import Chance, DamageDone, Hits
from rules.systems.surface.state import SurfaceBattle
from rules.systems.surface.units import ACTIVE, DESTROYED, DISRUPTED, Unit


def hit_quotient(battle: SurfaceBattle, shooter: Unit, target: Unit) -> Fraction:
    """Return q = Accuracy / Evade, an Evade of 0 counting as `evade_zero_pct` percent (A62)."""
    evade = Fraction(target.evade) if target.evade > 0 else Fraction(int(battle.const("evade_zero_pct")), 100)
    return Fraction(shooter.accuracy) / evade


def chance_roll(dice: Dice, faces: int, chance: Fraction, purpose: str) -> Chance:
    """Roll 1dN and succeed at or under N times the chance (no roll when the chance is 0 or 1)."""
    if chance <= 0 or chance >= 1:
        return Chance(roll=None, needed=faces if chance >= 1 else 0, die=faces, success=chance >= 1)
    needed = int(chance * faces)  # "d100 <= 100 * frac" (A62), floored to a whole face
    roll = dice.d(faces, purpose)
    return Chance(roll=roll, needed=needed, die=faces, success=roll <= needed)


def count_hits(battle: SurfaceBattle, shooter: Unit, target: Unit, dice: Dice) -> Hits:
    """Return the hits: floor(q), plus one more when 1dN falls within N times q's fraction (A62)."""
    q = hit_quotient(battle, shooter, target)
    whole = int(q)
    extra = chance_roll(dice, int(battle.const("hit_fraction_die")), q - whole, f"extra hit by {shooter.name}")
    return Hits(q=str(q), whole=whole, extra=extra, hits=whole + int(extra.success))


def deflections(battle: SurfaceBattle, shooter: Unit, target: Unit, hits: int, dice: Dice) -> list[Chance]:
    """Roll each hit's chance AS/(AS+AV) to get through the target's Armor (A63)."""
    chance = Fraction(shooter.attack_strength, shooter.attack_strength + target.armor)
    faces = int(battle.const("deflect_die"))
    return [chance_roll(dice, faces, chance, f"hit {i + 1} through {target.name}'s armor") for i in range(hits)]


def take_damage(battle: SurfaceBattle, target: Unit, through: int) -> DamageDone:
    """Inflict damage per hit that got through: Disrupted on any, Destroyed at its capacity (2E)."""
    before = target.state
    points = through * int(battle.const("damage_per_hit"))
    target.damage += points
    if points and target.state == ACTIVE:
        target.state = DISRUPTED
    if target.damage >= target.capacity:
        target.state = DESTROYED
    return DamageDone(damage=points, total=target.damage, before=before, after=target.state)
