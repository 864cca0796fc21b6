"""Pure damage rules: the living creature and building table (A79, A88) and machine locations (A82)."""

from __future__ import annotations

from collections.abc import Collection

from rules.systems.combat_action.tables import Location, tables

OOA = "ooa"


def clamp_d6(value: int) -> int:
    """Clamp a looked-up value onto the faces of the table, 1 to 6."""
    return max(1, min(6, value))


def living_value(die: int, pf: int, pen: int, uses_pf: bool = True) -> int:
    """Return the face looked up for a living creature or building: clamp(d6 + PF - Pen, 1, 6) (A79)."""
    return clamp_d6(die + pf - pen) if uses_pf else die


def living_result(die: int, pf: int, pen: int, uses_pf: bool = True) -> str:
    """Return a hit's result on a living creature from the table: wounded, ooa or killed (A79)."""
    return tables().living[living_value(die, pf, pen, uses_pf)]


def building_result(die: int, pf: int, pen: int, uses_pf: bool = True) -> str:
    """Return a hit's result on a building section."""
    return tables().building[living_value(die, pf, pen, uses_pf)]


def machine_value(die: int, pen: int, pf: int) -> int:
    """Return the vehicle and robot damage roll, d6 + Pen - PF."""
    return die + pen - pf


def machine_row(value: int) -> Location:
    """Return the table row of a damage value (-3 or less: Antenna; 6 or more: Power Plant)."""
    rows = tables().locations
    return rows[max(0, min(len(rows) - 1, value - rows[0].result))]


def machine_location(value: int, present: Collection[str], damaged: Collection[str], down: bool = True) -> Location:
    """Return the location a hit damages: the row of its value, else the next result down (A82).

    Down runs toward Power Plant, which every machine has and which always applies; with `down` false
    the search runs toward Antenna and then, finding nothing, falls back to Power Plant.
    """
    rows = tables().locations
    start = rows.index(machine_row(value))
    order = rows[start:] if down else rows[start::-1]
    for row in order:
        if row.key == rows[-1].key or (row.key in present and row.key not in damaged):
            return row
    return rows[-1]
