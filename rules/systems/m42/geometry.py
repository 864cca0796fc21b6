"""Distances in inches as M42 measures them, and what a straight line between two squares crosses.

A model's base fills its square. The Command Radius is measured from the leader's base to the
furthest edge of the model's base (A89), which for squares dx, dy apart is s * sqrt(dx^2 + dy^2),
s being the inches per square; comparisons are done on squares of whole numbers, so boundaries are exact.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import floor, hypot

from rules.coords import Cell, Edge


def reach(a: Cell, b: Cell, inches_per_square: int) -> float:
    """Return the inches from a's base to the furthest edge of b's base (A89)."""
    return inches_per_square * hypot(a.x - b.x, a.y - b.y)


def fully_within(a: Cell, b: Cell, limit: float, inches_per_square: int, vertical: float = 0.0) -> bool:
    """Return whether b's base lies fully within `limit` inches of a's base (with an optional rise)."""
    dx, dy = a.x - b.x, a.y - b.y
    s = inches_per_square
    return (dx * dx + dy * dy) * s * s + vertical * vertical <= limit * limit


def gap(a: Cell, b: Cell, inches_per_square: int) -> float:
    """Return the inches between the nearest edges of two bases."""
    gx, gy = max(abs(a.x - b.x) - 1, 0), max(abs(a.y - b.y) - 1, 0)
    return inches_per_square * hypot(gx, gy)


def closer_than(a: Cell, b: Cell, limit: float, inches_per_square: int) -> bool:
    """Return whether two bases are closer together than `limit` inches (base to base)."""
    gx, gy = max(abs(a.x - b.x) - 1, 0), max(abs(a.y - b.y) - 1, 0)
    s = inches_per_square
    return (gx * gx + gy * gy) * s * s < limit * limit


def _crossings(a: Cell, b: Cell) -> tuple[list[Edge], list[Fraction]]:
    """Return the edges the centre-to-centre segment touches, and where (0..1) it meets grid lines."""
    # Doubled coordinates make every centre a pair of odd whole numbers and every grid line even.
    x0, y0, x1, y1 = 2 * a.x + 1, 2 * a.y + 1, 2 * b.x + 1, 2 * b.y + 1
    edges: list[Edge] = []
    ts: list[Fraction] = []
    for k in range(min(a.x, b.x) + 1, max(a.x, b.x) + 1):
        t = Fraction(2 * k - x0, x1 - x0)
        y = y0 + t * (y1 - y0)
        ts.append(t)
        rows = [int(y // 2) - 1, int(y // 2)] if y.denominator == 1 and y % 2 == 0 else [floor(y / 2)]
        edges.extend(Edge(Cell(k - 1, r), Cell(k, r)) for r in rows if r >= 0)
    for k in range(min(a.y, b.y) + 1, max(a.y, b.y) + 1):
        t = Fraction(2 * k - y0, y1 - y0)
        x = x0 + t * (x1 - x0)
        ts.append(t)
        cols = [int(x // 2) - 1, int(x // 2)] if x.denominator == 1 and x % 2 == 0 else [floor(x / 2)]
        edges.extend(Edge(Cell(c, k - 1), Cell(c, k)) for c in cols if c >= 0)
    return sorted(set(edges)), sorted(set(ts))


def edges_crossed(a: Cell, b: Cell) -> list[Edge]:
    """Return the edges the straight line between two squares' centres crosses or touches."""
    return _crossings(a, b)[0]


def squares_crossed(a: Cell, b: Cell) -> list[Cell]:
    """Return the squares the straight line between two squares' centres passes through, ends excluded."""
    _, ts = _crossings(a, b)
    marks = [Fraction(0), *ts, Fraction(1)]
    out: list[Cell] = []
    for lo, hi in itertools.pairwise(marks):
        if lo == hi:
            continue
        t = (lo + hi) / 2
        x = a.x + Fraction(1, 2) + t * (b.x - a.x)
        y = a.y + Fraction(1, 2) + t * (b.y - a.y)
        cell = Cell(floor(x), floor(y))
        if cell not in (a, b) and cell not in out:
            out.append(cell)
    return out


def _orient(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int]) -> int:
    v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (v > 0) - (v < 0)


def segments_meet(a: Cell, b: Cell, c: Cell, d: Cell) -> bool:
    """Return whether the centre-to-centre segments a-b and c-d cross or touch."""
    p1, p2, p3, p4 = ((q.x, q.y) for q in (a, b, c, d))
    o1, o2, o3, o4 = _orient(p1, p2, p3), _orient(p1, p2, p4), _orient(p3, p4, p1), _orient(p3, p4, p2)
    if o1 != o2 and o3 != o4:
        return True

    def on(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int]) -> bool:
        return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])

    return ((o1 == 0 and on(p1, p2, p3)) or (o2 == 0 and on(p1, p2, p4))
            or (o3 == 0 and on(p3, p4, p1)) or (o4 == 0 and on(p3, p4, p2)))
