"""Area attacks on the strategic map: how many units a Blast, Cone, Line or AT-field attack hits, and which."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from rules.coords import Cell, line_cells
from rules.errors import IllegalOrderError
from rules.systems.strategic.details import AreaHitNote
from rules.systems.strategic.ranges import strategic_length, weapon_range

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.systems.strategic.board import Battle
    from rules.systems.strategic.units import Unit, Weapon

AREA_KINDS = ("blast", "cone", "line", "at_field")


@dataclass(frozen=True, slots=True)
class AreaHit:
    """One hit of an area attack: the unit struck and why it was struck."""

    unit: Unit
    why: str  # aimed, random, horde_extra, melee_partner, line
    cell: Cell

    def note(self) -> AreaHitNote:
        """Return the hit as the attack's details record it."""
        return AreaHitNote(unit=self.unit.name, why=self.why, cell=str(self.cell))


def area_kind(weapon: Weapon) -> str | None:
    """Return the area rule a weapon uses, or None for a single-target weapon."""
    if weapon.melee:
        return None
    if weapon.blast > 0:
        return "blast"
    if weapon.cone:
        return "cone"
    if weapon.line > 0:
        return "line"
    if weapon.ats > 0:
        return "at_field"  # an AT-Field power with neither Blast nor Cone (000:L28, 001:L36)
    return None


def target_count(battle: Battle, weapon: Weapon) -> int:
    """Return how many targets an area attack hits on its square (000:L25-26, A16, A18, A46-A48)."""
    kind = area_kind(weapon)
    if kind == "blast":
        raw = weapon.blast + int(battle.const("blast_extra_targets"))
    elif kind == "cone":
        raw = weapon_range(battle, weapon) + int(battle.const("cone_extra_targets"))
    elif kind == "at_field":
        raw = weapon.ats // int(battle.const("at_field_divisor"))
    elif kind == "line":
        raw = int(battle.const("line_targets_per_square"))
    else:
        raw = 1
    return max(1, raw)  # A03: a count never falls below one


def line_length(battle: Battle, weapon: Weapon) -> int:
    """Return how many squares a Line weapon crosses, converted like its range (A17, A49)."""
    return max(1, strategic_length(battle, weapon.line, weapon.range_unit))


def line_squares(battle: Battle, src: Cell, aim: Cell, length: int) -> list[Cell]:
    """Return the squares a line crosses from the shooter towards a square, shooter excluded, map-clipped."""
    d = src.distance(aim)
    if d == 0:
        raise IllegalOrderError("A line attack needs a direction: aim it at another square.")
    # Extend by a whole multiple so the line still passes exactly through the aimed square.
    k = max(1, math.ceil(Fraction(length, d)))
    far = Cell(src.x + (aim.x - src.x) * k, src.y + (aim.y - src.y) * k)
    out: list[Cell] = []
    for cell in line_cells(src, far)[1:length + 1]:
        if not battle.on_map(cell):
            break
        out.append(cell)
    return out


def _pick(dice: Dice, pool: list[Unit], purpose: str) -> Unit:
    # A single candidate needs no roll; otherwise a recorded die picks one (never the global RNG).
    index = 0 if len(pool) == 1 else dice.d(len(pool), purpose) - 1
    return pool.pop(index)


def choose_targets(battle: Battle, dice: Dice, cell: Cell, count: int, aimed: Unit | None) -> list[AreaHit]:
    """Fill an area attack's slots on a square: the aimed unit, then others at random, then Horde extras (A15)."""
    hits: list[AreaHit] = []
    slots = count
    if aimed is not None:
        hits.append(AreaHit(aimed, "aimed", cell))
        slots -= 1
    pool = [u for u in battle.units_at(cell) if u is not aimed and u.alive]
    while slots > 0 and pool:
        hits.append(AreaHit(_pick(dice, pool, f"area target on {cell}"), "random", cell))
        slots -= 1
    horde = next((h.unit for h in hits if h.unit.is_horde), None)
    if horde is not None:
        hits.extend(AreaHit(horde, "horde_extra", cell) for _ in range(slots))
    return hits


def melee_partners(battle: Battle, hits: list[AreaHit]) -> list[AreaHit]:
    """Return the units engaged with anyone directly hit, as extra hits outside the count (A15.4)."""
    struck = {h.unit.name for h in hits}
    extra: list[AreaHit] = []
    for hit in hits:
        for name in hit.unit.engaged:
            partner = battle.units.get(name)
            if partner is not None and partner.name not in struck and partner.alive:
                struck.add(partner.name)
                extra.append(AreaHit(partner, "melee_partner", partner.cell))
    return extra


def line_targets(battle: Battle, dice: Dice, squares: list[Cell], aimed: Unit | None) -> list[AreaHit]:
    """Pick one target in each square a line crosses: the aimed unit in its square, else at random (A17)."""
    per_square = int(battle.const("line_targets_per_square"))
    hits: list[AreaHit] = []
    for cell in squares:
        pool = [u for u in battle.units_at(cell) if u.alive]
        taken = 0
        if aimed is not None and aimed in pool:
            pool.remove(aimed)
            hits.append(AreaHit(aimed, "aimed", cell))
            taken = 1
        while taken < per_square and pool:
            hits.append(AreaHit(_pick(dice, pool, f"line target on {cell}"), "line", cell))
            taken += 1
    return hits
