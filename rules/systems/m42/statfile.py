"""M42 stat-block files: the shared [[unit]] file with `ld`, `models` and `traits` for each unit."""

from __future__ import annotations

from typing import Any

from rules.coords import Cell
from rules.errors import InvalidOrderError
from rules.statfile import StatError, UnitSpec, parse_unit_file
from rules.systems.m42.units import STATS, read_stats


def _check(name: str, side: str, at: Cell, stats: dict[str, Any]) -> None:
    """Check one unit's M42 stat block, naming the field that is wrong."""
    for key in stats:
        if key not in STATS:
            raise StatError((key,), f"`{key}` is not an M42 stat; give `ld`, `models` and `traits`.")
    for key in STATS:
        if key in stats:
            try:
                read_stats({key: stats[key]})
            except InvalidOrderError as exc:
                raise StatError((key,), exc.message) from None


def parse_m42_file(text: str) -> list[UnitSpec]:
    """Read an M42 stat-block file; any error names its line and field."""
    return parse_unit_file(text, _check)

