"""The common end of every map import: terrain keys and marks in, a battlepost map file out."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.mapimport.limits import MapImportError
from rules.battle import Battle
from rules.coords import MAX_SIDE, Cell
from rules.errors import RulesetError
from rules.ruleset import Ruleset
from rules.systems.strategic.mapfile import LAYERS, format_map
from rules.systems.strategic.terrain import OVER_WATER

log = logging.getLogger(__name__)

IGNORE = "ignore"
LAYER_NAMES = tuple(layer.name for layer in LAYERS)


@dataclass(frozen=True)
class FeaturePlacement:
    """A feature a map file lays on a square, for a side."""

    feature: str
    side: str
    cell: Cell


@dataclass
class Grid:
    """A map being read: its size, a terrain key per square (None until known) and the marks of each square."""

    width: int
    height: int
    terrain: list[str | None] = field(default_factory=list)
    flags: dict[Cell, set[str]] = field(default_factory=dict)
    features: list[FeaturePlacement] = field(default_factory=list)

    @classmethod
    def sized(cls, width: int, height: int, what: str) -> Grid:
        """Return an empty grid, refusing a size the battle map cannot have."""
        if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
            raise MapImportError(
                f"{what} is {width}x{height} squares; a battle map is 1 to {MAX_SIDE} squares each way."
            )
        return cls(width, height, [None] * (width * height))


def terrain_key(ruleset: Ruleset, name: str, where: str) -> str:
    """Return the terrain key a name stands for in the ruleset, or say which names it knows."""
    try:
        return ruleset.terrain_type(name).key
    except RulesetError as exc:
        raise MapImportError(f"{where}: {exc.message}") from None


def split_value(ruleset: Ruleset, value: str, where: str) -> tuple[str | None, set[str]]:
    """Read `water`, `water + deep`, `storm` or `ignore` into a terrain key (or None) and a set of marks."""
    terrain: str | None = None
    marks: set[str] = set()
    for part in (p.strip() for p in value.split("+")):
        if not part:
            continue
        low = part.lower()
        if low in LAYER_NAMES:
            marks.add(low)
        elif low == IGNORE:
            return None, {IGNORE}
        elif terrain is None:
            terrain = terrain_key(ruleset, part, where)
        else:
            raise MapImportError(f"{where}: `{value}` names two terrains; a square has one (marks: storm, deep).")
    return terrain, marks


def map_text(ruleset: Ruleset, grid: Grid, default: str) -> str:
    """Write the grid as a battlepost map file (squares never given a terrain get `default`)."""
    battle = Battle.new(ruleset.id, grid.width, grid.height, "Imported map")
    battle.terrain = [key or default for key in grid.terrain]
    # A mark the battle's squares do not hold (storm on an M42 map, say) has no layer in its map file.
    held = set(LAYER_NAMES) & set(battle.system.square_type.keys())
    for cell, marks in sorted(grid.flags.items()):
        for mark in sorted(marks & held):
            terrain = ruleset.terrain[battle.terrain[cell.y * grid.width + cell.x]]
            if mark == "deep" and not (terrain.water or terrain.key in OVER_WATER):
                raise MapImportError(f"{cell} is marked deep water but is {terrain.name}; only water can be deep.")
            battle.square(cell)[mark] = True
    return format_map(battle)


def count_terrain(grid: Grid, names: Mapping[str, str]) -> str:
    """Describe the terrain of a grid in a few words: `312 Open ground, 40 Forest`."""
    counts: dict[str, int] = {}
    for key in grid.terrain:
        if key is not None:
            counts[key] = counts.get(key, 0) + 1
    ordered = sorted(counts.items(), key=lambda kv: -kv[1])
    return ", ".join(f"{n} {names.get(k, k)}" for k, n in ordered)
