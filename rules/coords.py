"""Grid coordinates in the A1 style: columns A..Z, AA.., rows from 1."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.errors import InvalidOrderError, shorten

MAX_SIDE = 100
_CELL_RE = re.compile(r"^([A-Za-z]{1,3})([0-9]{1,4})$")


def column_label(index: int) -> str:
    """Return the letters of a 0-based column index (0 -> A, 26 -> AA)."""
    if index < 0:
        raise ValueError("column index must be >= 0")
    letters = ""
    n = index + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def column_index(letters: str) -> int:
    """Return the 0-based column index of column letters (A -> 0, AA -> 26)."""
    n = 0
    for ch in letters.upper():
        if not "A" <= ch <= "Z":
            raise ValueError(f"not a column letter: {ch!r}")
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


@dataclass(frozen=True, order=True, slots=True)
class Cell:
    """One square of the grid, 0-based column x and row y."""

    x: int
    y: int

    @classmethod
    def parse(cls, text: str) -> Cell:
        """Parse an A1-style cell, case-insensitively."""
        raw = text.strip()
        m = _CELL_RE.match(raw)
        if not m:
            shown = raw if len(raw) <= 20 else raw[:20] + "…"
            raise InvalidOrderError(
                f"`{shown}` is not a cell. Write a column letter then a row number, like `A1`, `E5` or `AB12`."
            )
        col, row = m.group(1), int(m.group(2))
        if row < 1:
            raise InvalidOrderError(
                f"`{raw}`: rows start at 1, so the first cell of that column is `{m.group(1).upper()}1` (cells look like `A1`)."
            )
        return cls(column_index(col), row - 1)

    def __str__(self) -> str:
        return f"{column_label(self.x)}{self.y + 1}"

    def distance(self, other: Cell) -> int:
        """Return the Chebyshev (king-move) distance in squares."""
        return max(abs(self.x - other.x), abs(self.y - other.y))

    def neighbours(self) -> list[Cell]:
        """Return the eight adjacent cells (some may be off the map)."""
        return [
            Cell(self.x + dx, self.y + dy)
            for dy in (-1, 0, 1)
            for dx in (-1, 0, 1)
            if dx or dy
        ]


def line_cells(a: Cell, b: Cell) -> list[Cell]:
    """Return the Bresenham line from a to b, both ends included."""
    x0, y0, x1, y1 = a.x, a.y, b.x, b.y
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx = 1 if x0 < x1 else -1
    sy = 1 if y0 < y1 else -1
    err = dx + dy
    out = []
    while True:
        out.append(Cell(x0, y0))
        if x0 == x1 and y0 == y1:
            return out
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


_EDGE_DIRS = {"n": (0, -1), "s": (0, 1), "e": (1, 0), "w": (-1, 0)}
_EDGE_HELP = "Write an edge as two side-by-side squares, like `C3|C4`, or a square and a side, like `C3:n` (n, s, e or w)."


@dataclass(frozen=True, order=True, slots=True)
class Edge:
    """The side shared by two orthogonally adjacent squares; `a` is always the upper or left one."""

    a: Cell
    b: Cell

    @classmethod
    def between(cls, one: Cell, two: Cell) -> Edge:
        """Return the edge between two orthogonally adjacent squares, in canonical order."""
        if abs(one.x - two.x) + abs(one.y - two.y) != 1:
            raise InvalidOrderError(
                f"{one} and {two} do not share a side, so there is no edge between them. {_EDGE_HELP}"
            )
        return cls(one, two) if (one.y, one.x) <= (two.y, two.x) else cls(two, one)

    @classmethod
    def of(cls, cell: Cell, side: str) -> Edge:
        """Return the edge on one side (n, s, e, w) of a square."""
        step = _EDGE_DIRS.get(side.strip().lower()[:1])
        if step is None or side.strip().lower() not in ("n", "s", "e", "w", "north", "south", "east", "west"):
            raise InvalidOrderError(f"`{shorten(side, 20)}` is not a side of a square; use n, s, e or w. {_EDGE_HELP}")
        other = Cell(cell.x + step[0], cell.y + step[1])
        if other.x < 0 or other.y < 0:
            raise InvalidOrderError(
                f"The {side} side of {cell} is the edge of the map: there is no square beyond it. {_EDGE_HELP}"
            )
        return cls.between(cell, other)

    @classmethod
    def parse(cls, text: str) -> Edge:
        """Parse `C3|C4` or `C3:n`, case-insensitively."""
        raw = text.strip()
        if "|" in raw:
            left, _, right = raw.partition("|")
            return cls.between(Cell.parse(left), Cell.parse(right))
        if ":" in raw:
            cell, _, side = raw.partition(":")
            return cls.of(Cell.parse(cell), side)
        shown = raw if len(raw) <= 20 else raw[:20] + "…"
        raise InvalidOrderError(f"`{shown}` is not an edge. {_EDGE_HELP}")

    @property
    def horizontal(self) -> bool:
        """Return whether the edge runs left to right (its squares are one above the other)."""
        return self.a.x == self.b.x

    def cells(self) -> tuple[Cell, Cell]:
        """Return the two squares the edge separates."""
        return (self.a, self.b)

    def segment(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Return the edge as a segment on the grid lines (square corners in square units)."""
        if self.horizontal:
            return ((self.a.x, self.b.y), (self.a.x + 1, self.b.y))
        return ((self.b.x, self.a.y), (self.b.x, self.a.y + 1))

    def __str__(self) -> str:
        return f"{self.a}|{self.b}"
