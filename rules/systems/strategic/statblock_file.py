"""Strategic stat-block files: the shared [[unit]] file format with the strategic stat check."""

from __future__ import annotations

from typing import Any

from rules.coords import Cell
from rules.statblock_file import SpecError, UnitSpec
from rules.statblock_file import parse_statblock_file as read_file
from rules.systems.strategic.statblock import apply_stats
from rules.systems.strategic.units import UNIT_KINDS, Unit

__all__ = ["UnitSpec", "parse_statblock_file"]


def _check(name: str, side: str, at: Cell, stats: dict[str, Any]) -> None:
    apply_stats(Unit(name=name, side=side, x=at.x, y=at.y), stats, UNIT_KINDS)


def _no_two_hordes(specs: list[UnitSpec]) -> None:
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
    return read_file(text, _check, _no_two_hordes)
