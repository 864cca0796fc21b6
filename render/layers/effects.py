"""Cell effects: fire, smoke, storm, rain, burnt ground and deep water, as translucent tiles."""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from render.geometry import Geometry
from render.palette import Palette, rgba
from render.view import CellEffect

log = logging.getLogger(__name__)

EFFECT_NAMES: dict[str, str] = {
    "fire": "Fire",
    "smoke": "Smoke",
    "storm": "Storm",
    "rain": "Rain",
    "burnt": "Burnt",
    "deep": "Deep water",
}


def draw_effects(
    grid: Image.Image, geometry: Geometry, palette: Palette, effects: Iterable[CellEffect]
) -> None:
    """Blend each effect's tile over its square."""
    for effect in effects:
        if not geometry.contains(effect.x, effect.y):
            continue
        tile = effect_tile(effect.kind, geometry.cell_px, palette)
        left, top, _, _ = geometry.local_box(effect.x, effect.y)
        # Skip the grid line pixel so the grid stays crisp under the tint.
        grid.paste(tile, (left + 1, top + 1), tile)


@lru_cache(maxsize=128)
def effect_tile(kind: str, cell_px: int, palette: Palette) -> Image.Image:
    """Return the RGBA tile of an effect for a square's interior; treat it as read-only."""
    s = cell_px - 1
    tile = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(tile)
    painter = _PAINTERS.get(kind)
    if painter is None:
        log.warning("unknown cell effect %r, drawing a neutral tint", kind)
        d.rectangle((0, 0, s - 1, s - 1), fill=rgba(palette((150, 60, 160)), 70))
    else:
        painter(d, s, palette)
    return tile


def _fire(d: ImageDraw.ImageDraw, s: int, p: Palette) -> None:
    """Draw an orange wash with three flames along the bottom."""
    d.rectangle((0, 0, s - 1, s - 1), fill=rgba(p((255, 90, 20)), 92))
    w = s / 4
    for i, fx in enumerate((0.2, 0.5, 0.8)):
        h = s * (0.42 if i == 1 else 0.32)
        cx, foot = fx * s, s - 2
        outer = [
            (cx - w / 2, foot),
            (cx - w * 0.25, foot - h * 0.55),
            (cx, foot - h),
            (cx + w * 0.3, foot - h * 0.5),
            (cx + w / 2, foot),
        ]
        d.polygon(outer, fill=rgba(p((230, 40, 10)), 230))
        ih = h * 0.55
        inner = [(cx - w / 4, foot), (cx, foot - ih), (cx + w / 4, foot)]
        d.polygon(inner, fill=rgba(p((255, 210, 60)), 240))


def _smoke(d: ImageDraw.ImageDraw, s: int, p: Palette) -> None:
    """Draw a pale grey veil with soft puffs."""
    d.rectangle((0, 0, s - 1, s - 1), fill=rgba(p((205, 205, 210)), 120))
    for fx, fy, fr in ((0.28, 0.3, 0.2), (0.68, 0.36, 0.24), (0.45, 0.7, 0.22)):
        r = fr * s
        cx, cy = fx * s, fy * s
        d.ellipse(
            (cx - r, cy - r, cx + r, cy + r),
            fill=rgba(p((240, 240, 244)), 120),
            outline=rgba(p((120, 120, 128)), 170),
        )


def _storm(d: ImageDraw.ImageDraw, s: int, p: Palette) -> None:
    """Draw a slate-blue wash with slanting rain."""
    d.rectangle((0, 0, s - 1, s - 1), fill=rgba(p((60, 80, 150)), 84))
    streak = rgba(p((225, 235, 255)), 210)
    n = 4
    for i in range(n):
        for j in range(2):
            x = (i + 0.5 + 0.5 * j) * s / n
            y = (0.2 + 0.45 * j) * s
            d.line((x, y, x - s * 0.1, y + s * 0.22), fill=streak, width=1)


def _rain(d: ImageDraw.ImageDraw, s: int, p: Palette) -> None:
    """Draw a pale blue wash with upright drops (a storm's streaks slant, on a darker wash)."""
    d.rectangle((0, 0, s - 1, s - 1), fill=rgba(p((120, 170, 230)), 60))
    drop = rgba(p((40, 90, 190)), 200)
    for fx, fy in ((0.2, 0.2), (0.55, 0.3), (0.85, 0.15), (0.35, 0.65), (0.7, 0.75)):
        d.line((fx * s, fy * s, fx * s, fy * s + s * 0.14), fill=drop, width=1)


def _burnt(d: ImageDraw.ImageDraw, s: int, p: Palette) -> None:
    """Draw a charcoal wash with embers."""
    d.rectangle((0, 0, s - 1, s - 1), fill=rgba(p((35, 30, 28)), 120))
    for fx, fy in ((0.22, 0.3), (0.7, 0.22), (0.5, 0.55), (0.25, 0.8), (0.8, 0.75)):
        r = max(1.0, s / 20)
        d.ellipse((fx * s - r, fy * s - r, fx * s + r, fy * s + r), fill=rgba(p((20, 18, 16)), 220))


def _deep(d: ImageDraw.ImageDraw, s: int, p: Palette) -> None:
    """Draw a dark blue wash with a heavy wave."""
    d.rectangle((0, 0, s - 1, s - 1), fill=rgba(p((16, 40, 110)), 100))
    steps = max(8, s // 2)
    amp = s / 10
    pts = [(i * s / steps, 0.55 * s + amp * math.sin(2 * math.pi * i / steps)) for i in range(steps + 1)]
    d.line(pts, fill=rgba(p((200, 220, 255)), 200), width=2 if s >= 24 else 1)


_PAINTERS = {
    "fire": _fire,
    "smoke": _smoke,
    "storm": _storm,
    "rain": _rain,
    "burnt": _burnt,
    "deep": _deep,
}
