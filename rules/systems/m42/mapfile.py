"""M42 map files: the shared grid and legend, a [road] layer, a [floors] layer and an [edges] list."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.mapfile import Layer
from rules.systems.m42.kinds import tables

if TYPE_CHECKING:
    from rules.ruleset import Ruleset


def _floors_only_in_buildings(ruleset: Ruleset, terrain_key: str) -> str | None:
    """Refuse a floor count on a square that is neither a building nor a ruin."""
    if tables(ruleset.id).kinds[terrain_key].floors:
        return None
    return f"only buildings and ruins have floors, not {ruleset.terrain[terrain_key].name}."


LAYERS: tuple[Layer, ...] = (
    Layer("road", "a road"),
    Layer("floors", "floors of a building or ruin", counts=True, check=_floors_only_in_buildings),
)
