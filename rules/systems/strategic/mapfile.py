"""Strategic map files: the shared grid and legend, with storm, rain and deep-water layers (no edges)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules import mapfile
from rules.mapfile import Layer, MapData
from rules.systems.strategic.terrain import OVER_WATER

if TYPE_CHECKING:
    from rules.battle import Battle
    from rules.ruleset import Ruleset


def _deep_only_on_water(ruleset: Ruleset, terrain_key: str) -> str | None:
    """Refuse a deep-water mark on a square with no water in or under it (A33, A31)."""
    terrain = ruleset.terrain[terrain_key]
    if terrain.water or terrain_key in OVER_WATER:
        return None
    return f"deep water can only be marked on water, not on {terrain.name}."


# Rain is the scenario's weather flag of A29 and A36: no fire starts or spreads under it, no Fire Trap goes off.
LAYERS: tuple[Layer, ...] = (Layer("storm", "a storm"), Layer("rain", "rain"),
                             Layer("deep", "deep water", check=_deep_only_on_water))


def parse_map(text: str, ruleset: Ruleset) -> MapData:
    """Read a strategic map file; errors name the line and column and say which characters are allowed."""
    return mapfile.parse_map(text, ruleset, LAYERS)


def format_map(battle: Battle[Any]) -> str:
    """Write a strategic battle's map as a map file that parse_map reads back to the same terrain and flags."""
    return mapfile.format_map(battle, LAYERS)


def map_flags(battle: Battle[Any]) -> dict[str, dict[str, Any]]:
    """Return the storm, rain and deep flags of a battle's squares, as parse_map reports them."""
    return mapfile.map_marks(battle, LAYERS)
