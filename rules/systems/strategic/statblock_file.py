"""Strategic stat-block files: the shared [[unit]] file, its stats checked as strategic stat blocks, one Horde a square."""

from __future__ import annotations

from typing import Any

from rules.coords import Cell
from rules.statfile import SpecError, UnitSpec, parse_unit_file
from rules.systems.strategic.statblock import apply_stats
from rules.systems.strategic.units import UNIT_KINDS, Unit

__all__ = ["UnitSpec", "parse_statblock_file"]


def _check(name: str, side: str, at: Cell, stats: dict[str, Any]) -> None:
    """Check one unit's stats by writing them onto a throwaway unit."""
    apply_stats(Unit(name=name, side=side, x=at.x, y=at.y), stats, UNIT_KINDS)


def _no_two_hordes(specs: list[UnitSpec]) -> None:
    """Refuse a file that puts two Hordes on one square."""
    hordes: dict[Cell, str] = {}
    for i, spec in enumerate(specs):
        if str(spec.stats.get("kind", "ic")).strip().lower() != "horde":
            continue
        if spec.at in hordes:
            raise SpecError(i, ("at",), f"the Horde {hordes[spec.at]} is already on {spec.at}, and two Hordes "
                                        "may not share a square.")
        hordes[spec.at] = spec.name


def parse_statblock_file(text: str) -> list[UnitSpec]:
    """Read a strategic stat-block file; any error names its line and field, and no unit is returned unless all are valid."""
    return parse_unit_file(text, _check, _no_two_hordes)
