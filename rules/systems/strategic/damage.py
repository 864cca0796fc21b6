"""Damage: weapon dice with Tearing, armour and cover, Toughness, wounds, Magnitude and destruction."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rules.constants import const_or
from rules.dice import format_dice, parse_dice
from rules.systems.strategic.combat import HEAD_AND_ARMS, clear_engagement
from rules.systems.strategic.details import DamageRoll, HitDamage
from rules.systems.strategic.effects import CoverDecayed, Damage, Destroyed, MagnitudeDamage
from rules.systems.strategic.squares import square_at
from rules.systems.strategic.terrain import cover_ap
from rules.systems.strategic.units import LOCATIONS

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.outcome import Outcome
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit

# Possessive: the spaces before and after the bracket are never split two ways.
_DEVASTATING_RE = re.compile(r"devastating\s*+\(?+\s*+(\d+)", re.IGNORECASE)


def roll_damage(dice: Dice, notation: str, tearing: bool = False, purpose: str = "damage") -> DamageRoll:
    """Roll a damage expression; Tearing rolls one more die of the first kind and drops the lowest (A01)."""
    terms = list(parse_dice(notation))
    first = next((i for i, t in enumerate(terms) if t.faces and t.sign > 0), None)
    if tearing and first is not None:
        t = terms[first]
        terms[first] = type(t)(t.sign, t.count + 1, t.faces)
    roll = dice.roll(format_dice(tuple(terms)), purpose)
    dropped = None
    total = roll.total
    if tearing and first is not None:
        # The first dice term's faces come first: constant terms add none.
        dropped = min(roll.faces[: terms[first].count])
        total -= dropped
    return DamageRoll(notation=roll.notation, faces=tuple(roll.faces), dropped=dropped, total=total,
                      tearing=tearing and first is not None)


def _cover_used(battle: Battle, unit: Unit, cover: int, *, area: bool, melee: bool, location: str) -> tuple[int, str]:
    if cover <= 0:
        return 0, "no cover"
    if unit.flying:
        return 0, "flying: no ground cover"  # A43
    if melee:
        return 0, "melee ignores cover"  # 000:L36, 001:L53
    if area:
        return cover // 2, "half against area attacks"  # 000:L36, 001:L51, A03
    if location in HEAD_AND_ARMS and bool(const_or(battle, "cover_head_arms_bypass", False)):
        return 0, "head or arm hit ignores cover"  # 000:L37 (P only, A57)
    return cover, "full cover"


def devastating(qualities: Iterable[str]) -> int:
    """Return the extra Magnitude a weapon's Devastating (N) quality removes from Hordes."""
    for q in qualities:
        m = _DEVASTATING_RE.search(q)
        if m:
            return int(m.group(1))
    return 0


def apply_damage(battle: Battle, unit: Unit, dice: Dice, outcome: Outcome, *, notation: str, pen: int = 0,
                 tearing: bool = False, area: bool = False, melee: bool = False, location: str | None = None,
                 dtype: str = "I", ignore_armour: bool = False, ignore_tb: bool = False,
                 qualities: Iterable[str] = (), source: str = "") -> HitDamage:
    """Roll and apply one hit's damage to a unit; Hordes lose Magnitude; the destroyed leave the map."""
    loc = location if location in LOCATIONS else "body"
    rolled = roll_damage(dice, notation, tearing, f"damage to {unit.name}")
    _, feature_ap, combined = cover_ap(battle, unit.cell)
    used, why = (0, "ignores armour") if ignore_armour else _cover_used(
        battle, unit, combined, area=area, melee=melee, location=loc)
    personal = 0 if ignore_armour else int(unit.armour.get(loc, 0))
    armour = max(0, personal + used - pen)  # cover is added to personal AP, then Penetration (A01)
    tb = 0 if ignore_tb else unit.bonus("t")
    lost = max(0, rolled.total - armour - tb)
    decayed = _decay_cover(battle, unit, rolled.total, feature_ap, combined, used, melee, outcome)
    magnitude: int | None = None
    if unit.is_horde:
        magnitude = 0
        if lost >= 1:
            # A01: each damaging hit removes 1 Magnitude; Explosive and Devastating remove more.
            magnitude = 1 + devastating(qualities)
            if dtype == "X":
                magnitude += int(battle.const("horde_explosive_magnitude"))
        unit.magnitude = max(0, unit.magnitude - magnitude)
    else:
        unit.wounds = max(0, unit.wounds - lost)
    horde = magnitude is not None
    hit = Damage(unit=unit.name, location=loc, damage=rolled.total, dtype=dtype, personal_ap=personal,
                 cover_ap=combined, cover_used=used, cover_note=why, pen=pen, armour=armour, tb=tb, wounds_lost=lost,
                 area=area, melee=melee, source=source, feature_ap_left=decayed,
                 wounds_left=None if horde else unit.wounds, magnitude_lost=magnitude,
                 magnitude_left=unit.magnitude if horde else None)
    outcome.add(hit)
    return HitDamage(hit=hit, roll=rolled, destroyed=destroy_if_dead(battle, unit, outcome))


def _decay_cover(battle: Battle, unit: Unit, damage: int, feature: int, total: int, used: int, melee: bool,
                 outcome: Outcome) -> int | None:
    """Wear a feature's cover down when a ranged hit beats it (A22); return the Cover AP it has left, if it wore."""
    # Terrain never decays.
    if melee or used <= 0 or feature <= 0 or damage <= total:
        return None
    state = square_at(battle, unit.cell)
    state.feature_ap = max(0, feature - int(const_or(battle, "cover_decay", 1)))
    outcome.add(CoverDecayed(cell=str(unit.cell), feature=state.feature, before=feature, after=state.feature_ap))
    return state.feature_ap


def apply_magdam(battle: Battle, unit: Unit, amount: int, outcome: Outcome, source: str = "") -> dict[str, Any]:
    """Take Magnitude straight off a Horde, with no armour or Toughness (A01 magdam)."""
    unit.magnitude = max(0, unit.magnitude - max(0, amount))
    result: dict[str, Any] = {"unit": unit.name, "magnitude_lost": amount, "magnitude_left": unit.magnitude,
                              "source": source}
    outcome.add(MagnitudeDamage(**result))
    result["destroyed"] = destroy_if_dead(battle, unit, outcome)
    return result


def destroy_if_dead(battle: Battle, unit: Unit, outcome: Outcome) -> bool:
    """Take a unit with no wounds or Magnitude off the map, keeping its last state in the log."""
    if unit.alive or battle.units.get(unit.id) is not unit:
        return False
    partners = clear_engagement(battle, unit)
    battle.remove_unit(unit)
    outcome.add(Destroyed(unit=unit.name, side=unit.side, at=str(unit.cell), engaged_with=partners,
                   last=unit.to_dict()))
    outcome.highlight.mark(str(unit.cell), f"{unit.name} destroyed")
    return True
