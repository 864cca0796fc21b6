"""Narrow a long list of squares to a menu's worth: areas first, then the squares of the area picked."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.coords import Cell

MENU = 25  # Discord's most options in one select menu
TILE = 5  # a 5 by 5 area holds at most 25 squares, so one more step always lists them


@dataclass(frozen=True)
class Area:
    """A rectangle of the map, inclusive, and the squares on offer inside it."""

    x0: int
    y0: int
    x1: int
    y1: int
    cells: tuple[Cell, ...] = ()

    @property
    def token(self) -> str:
        """Return the area as a select menu value: `x0.y0.x1.y1`."""
        return f"{self.x0}.{self.y0}.{self.x1}.{self.y1}"

    @property
    def name(self) -> str:
        """Return the area as players read it: `C3 to G7`."""
        return f"{Cell(self.x0, self.y0)} to {Cell(self.x1, self.y1)}"

    def holds(self, cell: Cell) -> bool:
        """Return whether a square lies inside the area."""
        return self.x0 <= cell.x <= self.x1 and self.y0 <= cell.y <= self.y1

    @staticmethod
    def parse(token: str) -> Area:
        """Read an area back from its menu value; a malformed one raises ValueError."""
        x0, y0, x1, y1 = (int(part) for part in token.split("."))
        if x0 > x1 or y0 > y1 or min(x0, y0) < 0:
            raise ValueError(token)
        return Area(x0, y0, x1, y1)


def within(cells: Sequence[Cell], area: Area | None) -> list[Cell]:
    """Return the squares inside an area (all of them for None)."""
    return list(cells) if area is None else [c for c in cells if area.holds(c)]


def split(cells: Sequence[Cell], limit: int = MENU) -> list[Area]:
    """Split squares into at most `limit` areas (tiles of the squares' bounding box), north-west first.

    Tiles start 5 squares wide, so each lists in one menu; a reach too wide for 25 such tiles gets
    wider tiles, and the player narrows once more inside the one picked.
    """
    if not cells:
        return []
    left = min(c.x for c in cells)
    top = min(c.y for c in cells)
    size = TILE
    while True:
        tiles: dict[tuple[int, int], list[Cell]] = {}
        for cell in cells:
            tiles.setdefault(((cell.y - top) // size, (cell.x - left) // size), []).append(cell)
        if len(tiles) <= limit:
            break
        size += TILE
    areas = []
    for _tile, found in sorted(tiles.items()):
        # Named by the squares it holds, so `C3 to E5` says where the choices are, not where the tile is.
        xs, ys = [c.x for c in found], [c.y for c in found]
        areas.append(Area(min(xs), min(ys), max(xs), max(ys), tuple(sorted(found, key=lambda c: (c.y, c.x)))))
    return areas
