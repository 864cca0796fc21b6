"""Strategic stat-block files: the shared [[unit]] file, its stats checked as strategic stat blocks, one Horde a square."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.coords import Cell
from rules.statfile import StatError, UnitFile, UnitSpec, parse_unit_file, unit_error
from rules.systems.strategic.movement import blocker
from rules.systems.strategic.statblock import apply_stats
from rules.systems.strategic.units import UNIT_KINDS, Unit

if TYPE_CHECKING:
    from rules.battle import Battle


def _check(name: str, side: str, at: Cell, stats: dict[str, Any]) -> None:
    """Check one unit's stats by writing them onto a throwaway unit."""
    apply_stats(Unit(name=name, side=side, x=at.x, y=at.y), stats, UNIT_KINDS)


def parse_statblock_file(text: str) -> list[UnitSpec]:
    """Read a strategic stat-block file; any error names its line and field, and no unit is returned unless all are valid."""
    specs = parse_unit_file(text, _check)
    hordes: dict[Cell, str] = {}
    for i, spec in enumerate(specs):
        if str(spec.stats.get("kind", "ic")).strip().lower() == "horde":
            if spec.at in hordes:
                raise unit_error(text, i, ("at",), f"the Horde {hordes[spec.at]} is already on {spec.at}, and two "
                                                   "Hordes may not share a square.", spec.name)
            hordes[spec.at] = spec.name
    return specs


def probe(battle: Battle[Any], name: str, side: str, at: Cell, stats: dict[str, Any]) -> None:
    """Refuse a unit whose stats do not suit this battle's unit kinds or whose square it may not stand on."""
    unit = Unit(name=name, side=side, x=at.x, y=at.y)
    apply_stats(unit, stats, battle.ruleset.unit_kinds)
    why = blocker(battle, unit, at)
    if why:
        raise StatError(("at",), f"{name} cannot be placed there: {why}.")


UNIT_FILE = UnitFile(read=parse_statblock_file, probe=probe)
