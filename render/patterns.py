"""Terrain patterns: one square tile per (pattern, colour, size), drawn so each reads without colour.

Every pattern repeats with the square, so neighbouring squares of the same
terrain join into one continuous texture.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from render.palette import pattern_ink
from render.view import RGB

log = logging.getLogger(__name__)

Painter = Callable[[ImageDraw.ImageDraw, int, RGB, RGB], None]


def _thin(s: int) -> int:
    """Return the line width that stays visible but light at square size s."""
    return 1 if s < 30 else 2


def _none(d: ImageDraw.ImageDraw, s: int, ink: RGB, fill: RGB) -> None:
    """Leave the square plain."""


def _dots(d: ImageDraw.ImageDraw, s: int, ink: RGB, fill: RGB) -> None:
    """Draw four round dots on a regular lattice (open ground, sand)."""
    r = max(1.0, s / 14)
    for fx, fy in ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)):
        cx, cy = fx * s, fy * s
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)


def _stipple(d: ImageDraw.ImageDraw, s: int, ink: RGB, fill: RGB) -> None:
    """Scatter fine specks irregularly (rough ground, rubble)."""
    # A fixed linear congruential sequence: irregular looking, identical on every run.
    state = 12345 + s
    count = max(6, (s * s) // 22)
    for _ in range(count):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        x = state % s
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        y = state % s
        if s >= 24:
            d.rectangle((x, y, x + 1, y), fill=ink)
        else:
            d.point((x, y), fill=ink)


def _diagonals(d: ImageDraw.ImageDraw, s: int, ink: RGB, per_square: int, rising: bool, width: int) -> None:
    """Draw diagonal lines spaced evenly so they continue into the next square."""
    gap = s / per_square
    for k in range(-per_square, 2 * per_square + 1):
        off = k * gap
        if rising:
            d.line((off, s, off + s, 0), fill=ink, width=width)
        else:
            d.line((off, 0, off + s, s), fill=ink, width=width)


def _hatch(d: ImageDraw.ImageDraw, s: int, ink: RGB, fill: RGB) -> None:
    """Draw rising diagonal lines (marsh, scrub)."""
    _diagonals(d, s, ink, 3, True, _thin(s))


def _crosshatch(d: ImageDraw.ImageDraw, s: int, ink: RGB, fill: RGB) -> None:
    """Draw crossing diagonal lines (heavy cover, ruins)."""
    _diagonals(d, s, ink, 2, True, 1)
    _diagonals(d, s, ink, 2, False, 1)


def _vertical(d: ImageDraw.ImageDraw, s: int, ink: RGB, fill: RGB) -> None:
    """Draw vertical lines (fields, fences)."""
    for k in range(3):
        x = round((k + 0.5) * s / 3)
        d.line((x, 0, x, s), fill=ink, width=_thin(s))


def _horizontal(d: ImageDraw.ImageDraw, s: int, ink: RGB, fill: RGB) -> None:
    """Draw horizontal lines (bridges, roads, planking)."""
    for k in range(3):
        y = round((k + 0.5) * s / 3)
        d.line((0, y, s, y), fill=ink, width=_thin(s))


def _grid(d: ImageDraw.ImageDraw, s: int, ink: RGB, fill: RGB) -> None:
    """Draw a fine square lattice, finer than the map grid (ice, paving)."""
    for k in range(1, 4):
        p = round(k * s / 4)
        d.line((p, 0, p, s), fill=ink, width=1)
        d.line((0, p, s, p), fill=ink, width=1)


def _waves(d: ImageDraw.ImageDraw, s: int, ink: RGB, fill: RGB) -> None:
    """Draw two rows of gentle waves (water)."""
    amp = max(1.0, s / 12)
    steps = max(8, s // 2)
    for base in (0.3, 0.75):
        pts = [(i * s / steps, base * s + amp * math.sin(2 * math.pi * i / steps)) for i in range(steps + 1)]
        d.line(pts, fill=ink, width=_thin(s), joint="curve")


def _trees(d: ImageDraw.ImageDraw, s: int, ink: RGB, fill: RGB) -> None:
    """Draw two small filled conifers on trunks (woods, forest)."""
    h = s * 0.36
    w = s * 0.26
    trunk = max(1.0, s / 20)
    for fx, fy in ((0.27, 0.3), (0.73, 0.72)):
        cx, cy = fx * s, fy * s
        top, foot = cy - h / 2, cy + h / 2
        d.rectangle((cx - trunk / 2, foot - h * 0.25, cx + trunk / 2, foot + h * 0.1), fill=ink)
        d.polygon([(cx, top), (cx + w / 2, foot - h * 0.18), (cx - w / 2, foot - h * 0.18)], fill=ink)


def _bricks(d: ImageDraw.ImageDraw, s: int, ink: RGB, fill: RGB) -> None:
    """Draw courses of bricks with staggered joints (towns, walls)."""
    rows = 4
    rh = s / rows
    w = _thin(s) if s >= 40 else 1
    for r in range(rows):
        y = round(r * rh)
        d.line((0, y, s, y), fill=ink, width=w)
        shift = 0.0 if r % 2 == 0 else s / 4
        for k in range(3):
            x = round(shift + k * s / 2)
            if 0 < x < s:
                d.line((x, y, x, round((r + 1) * rh)), fill=ink, width=w)


def _triangles(d: ImageDraw.ImageDraw, s: int, ink: RGB, fill: RGB) -> None:
    """Draw two open peaks with snow caps (hills, mountains)."""
    w = _thin(s)
    for fx, fy, size in ((0.3, 0.42, 0.42), (0.72, 0.8, 0.36)):
        cx, cy, h = fx * s, fy * s, size * s
        apex = (cx, cy - h / 2)
        left, right = (cx - h * 0.62, cy + h / 2), (cx + h * 0.62, cy + h / 2)
        d.line([left, apex, right], fill=ink, width=w, joint="curve")
        cap = 0.35
        d.polygon(
            [apex, (cx + h * 0.62 * cap, apex[1] + h * cap), (cx - h * 0.62 * cap, apex[1] + h * cap)],
            fill=ink,
        )


PAINTERS: dict[str, Painter] = {
    "none": _none,
    "dots": _dots,
    "stipple": _stipple,
    "hatch": _hatch,
    "crosshatch": _crosshatch,
    "vertical": _vertical,
    "horizontal": _horizontal,
    "grid": _grid,
    "waves": _waves,
    "trees": _trees,
    "bricks": _bricks,
    "triangles": _triangles,
}


@lru_cache(maxsize=512)
def pattern_tile(pattern: str, color: RGB, size: int) -> Image.Image:
    """Return a size x size RGB tile of colour `color` carrying `pattern`; treat it as read-only."""
    painter = PAINTERS.get(pattern)
    if painter is None:
        log.warning("unknown terrain pattern %r, drawing it plain", pattern)
        painter = _none
    tile = Image.new("RGB", (size, size), color)
    painter(ImageDraw.Draw(tile), size, pattern_ink(color), color)
    return tile
