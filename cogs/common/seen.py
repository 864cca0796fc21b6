"""Where a viewer sees a unit: its square, or only that it is hiding (`rules.visibility` decides which)."""

from __future__ import annotations

from typing import Any

from rules.battle import Battle
from rules.units import Unit
from rules.visibility import PUBLIC, Viewer, sees

OUT_OF_SIGHT = "hidden"  # what a viewer reads in place of the square of a unit it cannot see


def square_seen(unit: Unit, viewer: Viewer = PUBLIC) -> str:
    """Return the unit's square as the viewer may read it: `G7`, or `hidden`."""
    return str(unit.cell) if sees(viewer, unit) else OUT_OF_SIGHT


def place(battle: Battle[Any], unit: Unit, viewer: Viewer = PUBLIC, *, on: str = "on ") -> str:
    """Return ` on G7` (a square the viewer sees), ` hidden`, or nothing in a battle without a map."""
    if not battle.system.has_map:
        return ""
    return f" {on}{unit.cell}" if sees(viewer, unit) else f" {OUT_OF_SIGHT}"
