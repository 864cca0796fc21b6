"""Distances in inches as M42 measures them, and what a straight line between two squares crosses.

A model's base fills its square. The Command Radius is measured from the leader's base to the
furthest edge of the model's base (A89), which for squares dx, dy apart is s * sqrt(dx^2 + dy^2),
s being the inches per square. A square may stand for a fraction of an inch (0.5", 0.25"), so s is
a Fraction and every limit a whole or fractional number of inches: comparisons are made on squares
of whole numbers (cross-multiplied), so a model exactly on a limit is always within it.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache
from math import hypot

from rules.coords import Cell, Edge

Inches = int | Fraction  # an exact measure: whole inches, or a fraction of one


def _beyond(d2: int, s: Inches, limit: Inches, vertical: Inches = 0) -> int:
    """Return -1, 0 or 1 as sqrt(d2) squares of s inches (with a rise) fall short of, meet or pass `limit`, exactly."""
    if vertical:
        diff = d2 * Fraction(s) ** 2 + Fraction(vertical) ** 2 - Fraction(limit) ** 2
        return (diff > 0) - (diff < 0)
    # d2 (p/q)^2 against (m/n)^2  <=>  d2 p^2 n^2 against m^2 q^2, all whole numbers.
    left = d2 * (s.numerator * limit.denominator) ** 2
    right = (limit.numerator * s.denominator) ** 2
    return (left > right) - (left < right)


def reach(a: Cell, b: Cell, inches_per_square: Inches) -> float:
    """Return the inches from a's base to the furthest edge of b's base (A89), for display."""
    return float(inches_per_square) * hypot(a.x - b.x, a.y - b.y)


def fully_within(a: Cell, b: Cell, limit: Inches, inches_per_square: Inches, vertical: Inches = 0) -> bool:
    """Return whether b's base lies fully within `limit` inches of a's base (with an optional rise)."""
    dx, dy = a.x - b.x, a.y - b.y
    return limit >= 0 and _beyond(dx * dx + dy * dy, inches_per_square, limit, vertical) <= 0


def gap(a: Cell, b: Cell, inches_per_square: Inches) -> float:
    """Return the inches between the nearest edges of two bases, for display."""
    gx, gy = max(abs(a.x - b.x) - 1, 0), max(abs(a.y - b.y) - 1, 0)
    return float(inches_per_square) * hypot(gx, gy)


def gap_within(a: Cell, b: Cell, limit: Inches, inches_per_square: Inches) -> bool:
    """Return whether two bases are `limit` inches apart or closer (nearest edges), exactly."""
    gx, gy = max(abs(a.x - b.x) - 1, 0), max(abs(a.y - b.y) - 1, 0)
    return limit >= 0 and _beyond(gx * gx + gy * gy, inches_per_square, limit) <= 0


def closer_than(a: Cell, b: Cell, limit: Inches, inches_per_square: Inches) -> bool:
    """Return whether two bases are closer together than `limit` inches (base to base)."""
    gx, gy = max(abs(a.x - b.x) - 1, 0), max(abs(a.y - b.y) - 1, 0)
    return limit > 0 and _beyond(gx * gx + gy * gy, inches_per_square, limit) < 0


@lru_cache(maxsize=64)
def offsets_closer_than(limit: Inches, inches_per_square: Inches) -> tuple[tuple[int, int], ...]:
    """Return the offsets of the squares whose bases are closer than `limit` inches to a base (none for 0)."""
    span = int(limit // inches_per_square) + 2
    centre = Cell(span, span)
    return tuple((x - span, y - span) for y in range(2 * span + 1) for x in range(2 * span + 1)
                 if closer_than(Cell(x, y), centre, limit, inches_per_square))


_Offsets = tuple[tuple[tuple[int, int, int, int], ...], tuple[tuple[int, int], ...]]


@lru_cache(maxsize=1 << 16)
def _pattern(dx: int, dy: int) -> _Offsets:
    """Return the edges a line touches and the squares it passes through, relative to its start square.

    A line's crossings depend only on how far apart its ends are, so they are worked out once per offset.
    In doubled coordinates every centre is a pair of odd numbers and every grid line even; the places
    (0..1) where the line meets grid lines all share one denominator, so whole numbers carry them exactly.
    """
    x1, y1 = 2 * dx, 2 * dy  # the start's centre is (0, 0) here, one unit from each of its sides
    wide, tall = abs(x1) or 1, abs(y1) or 1
    den = wide * tall  # t = n / den for every crossing
    edges: set[tuple[int, int, int, int]] = set()
    marks = {0, den}
    for k in range(min(0, dx) + 1, max(0, dx) + 1):
        n = (2 * k - 1) * den // x1  # where x = 2k - 1 (the grid line between columns k - 1 and k)
        marks.add(n)
        y_num, y_den = (2 * k - 1) * y1 + x1, x1  # y + 1 in doubled units, so rows are floor(value / 2)
        if y_den < 0:
            y_num, y_den = -y_num, -y_den
        row = y_num // (2 * y_den)
        rows = (row - 1, row) if y_num % (2 * y_den) == 0 else (row,)
        edges.update((k - 1, r, k, r) for r in rows)
    for k in range(min(0, dy) + 1, max(0, dy) + 1):
        n = (2 * k - 1) * den // y1
        marks.add(n)
        x_num, x_den = (2 * k - 1) * x1 + y1, y1
        if x_den < 0:
            x_num, x_den = -x_num, -x_den
        col = x_num // (2 * x_den)
        cols = (col - 1, col) if x_num % (2 * x_den) == 0 else (col,)
        edges.update((c, k - 1, c, k) for c in cols)
    squares: list[tuple[int, int]] = []
    ordered = sorted(marks)
    for lo, hi in itertools.pairwise(ordered):
        # The middle of each stretch between crossings lies inside one square: floor((1 + t * 2d) / 2).
        mid2 = lo + hi  # t = mid2 / (2 den)
        col = (2 * den + mid2 * x1) // (4 * den)
        row = (2 * den + mid2 * y1) // (4 * den)
        if (col, row) not in ((0, 0), (dx, dy)) and (col, row) not in squares:
            squares.append((col, row))
    return tuple(sorted(edges, key=lambda e: (e[1], e[0], e[3], e[2]))), tuple(squares)


def edges_crossed(a: Cell, b: Cell) -> list[Edge]:
    """Return the edges the straight line between two squares' centres crosses or touches, row by row."""
    return [Edge(Cell(a.x + ax, a.y + ay), Cell(a.x + bx, a.y + by))
            for ax, ay, bx, by in _pattern(b.x - a.x, b.y - a.y)[0] if a.x + ax >= 0 and a.y + ay >= 0]


def squares_crossed(a: Cell, b: Cell) -> list[Cell]:
    """Return the squares the straight line between two squares' centres passes through, ends excluded."""
    return [Cell(a.x + x, a.y + y) for x, y in _pattern(b.x - a.x, b.y - a.y)[1]]


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
