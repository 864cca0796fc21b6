"""Pure fire rules: range categories from squares, class bonuses and maximum bands, to-hit, deviation."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from rules.coords import Cell
from rules.modifiers import Modifier
from rules.systems.combat_action.tables import Band, WeaponClass, tables


def distance_cm(squares: int, cm_per_square: Fraction) -> Fraction:
    """Return the table distance of a number of squares (Chebyshev squares, as every distance is counted), exactly."""
    return squares * cm_per_square


def band_for_squares(squares: int, cm_per_square: Fraction, base_contact_squares: int = 0) -> Band:
    """Return the range category at a distance in squares: CC in base contact, else by cm (A75)."""
    bands = tables().bands
    if squares <= base_contact_squares:
        return bands[0]
    cm = distance_cm(squares, cm_per_square)
    for band in bands[1:]:
        if band.max_cm is None or cm <= band.max_cm:
            return band
    return bands[-1]


def class_bonus(weapon_class: WeaponClass, band: Band) -> int:
    """Return the to-hit bonus of a weapon class in a band (a blank cell is +0, A74)."""
    return weapon_class.bonus.get(band.key, 0)


def max_band(weapon_class: WeaponClass, override: str | None) -> Band:
    """Return the farthest band a weapon may fire at: its profile's, else its class default (A74)."""
    return tables().band(override or weapon_class.max_band)


def may_reach(weapon_class: WeaponClass, override: str | None, band: Band) -> bool:
    """Return whether a weapon may fire at a band: CC-only weapons in CC, others from PB to their max."""
    table = tables()
    limit = table.band_index(max_band(weapon_class, override).key)
    index = table.band_index(band.key)
    if limit == 0:
        return index == 0
    return 1 <= index <= limit


def speed_mod(moved_cm: int | float, threshold: int = 30, step: int = 10) -> int:
    """Return the optional speed modifier: -1 from the threshold, -1 more per full step beyond (A76)."""
    if moved_cm < threshold:
        return 0
    return -(1 + int((moved_cm - threshold) // step))


def size_mod(size: str) -> int:
    """Return the to-hit modifier of a target's size class."""
    return tables().size[size]


def cover_bonus(covers: list[str], stacks: bool = False) -> int:
    """Return the PF bonus of a target's cover: the single highest (A78), or every one when they stack."""
    values = [tables().cover[c] for c in covers]
    if not values:
        return 0
    return sum(values) if stacks else max(values)


@dataclass(frozen=True, slots=True)
class ToHit:
    """A to-hit roll: 1d6 plus every modifier against the firer's SS (A73)."""

    die: int
    modifiers: tuple[Modifier, ...]
    ss: int
    on_equal: bool = True

    @property
    def total(self) -> int:
        """Return the modified roll."""
        return self.die + sum(m.value for m in self.modifiers)

    @property
    def hit(self) -> bool:
        """Return whether the modified roll reaches SS."""
        return self.total >= self.ss if self.on_equal else self.total > self.ss

    @property
    def miss(self) -> int:
        """Return by how much the shot missed (SS - modified roll), 0 on a hit (A73)."""
        return 0 if self.hit else max(0, self.ss - self.total)

    def to_dict(self) -> dict[str, object]:
        """Return the roll with every term, as stored in an outcome's tests."""
        return {
            "test": "to_hit", "die": self.die, "modifiers": [m.to_dict() for m in self.modifiers],
            "total": self.total, "ss": self.ss, "hit": self.hit, "miss": self.miss,
        }


def deviation_cm(miss: int, grenade: bool, grenade_cm: int = 3, other_cm: int = 4) -> int:
    """Return how far an area weapon deviates: miss x 3 cm for grenades, miss x 4 cm for others."""
    return max(0, miss) * (grenade_cm if grenade else other_cm)


def deviation_angle(face: int, sector_degrees: int = 60) -> int:
    """Return the deviation's turn, clockwise from the line of fire, for a d6 face (1 = straight on, A80)."""
    return ((face - 1) * sector_degrees) % 360


def offset_cell(origin: Cell, toward: Cell, turn_degrees: float, squares: int) -> Cell:
    """Return the cell `squares` away from `toward`, along the line origin->toward turned clockwise.

    The map's y grows downwards (row 1 at the top), so a clockwise turn on screen is a positive angle.
    The step is stretched so the cell lies exactly `squares` away as every distance is counted (Chebyshev):
    a drift or deviation goes as far as the move or shot that measures it says.
    """
    dx, dy = toward.x - origin.x, toward.y - origin.y
    heading = math.atan2(dy, dx) if (dx or dy) else -math.pi / 2
    angle = heading + math.radians(turn_degrees)
    step_x, step_y = math.cos(angle), math.sin(angle)
    longest = max(abs(step_x), abs(step_y))
    return Cell(toward.x + round(squares * step_x / longest), toward.y + round(squares * step_y / longest))


def deviate(origin: Cell, target: Cell, face: int, cm: int, cm_per_square: Fraction, sector_degrees: int = 60) -> Cell:
    """Return where a missed area shot lands: `cm` from the target in the sector the die gives (A80)."""
    squares = round(cm / cm_per_square)
    return offset_cell(origin, target, deviation_angle(face, sector_degrees), squares)
