"""Units: round tokens in the side colour, square ones for Hordes, stacks with a count badge."""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.fonts import draw_centred, fit_size
from render.geometry import Geometry
from render.palette import (
    HEALTH_TROUGH,
    MARK_STYLES,
    OTHER_MARK,
    OUTLINE,
    WHITE,
    Palette,
    health_colour,
    ink_on,
    mix,
)
from render.shapes import badge, badge_measure, paste_smooth, smooth_box
from render.view import RGB, MapView, UnitToken

log = logging.getLogger(__name__)

TOKEN_SCALE = 0.39  # token radius as a share of the square: leaves room for the corner badges
DETAIL_MIN_PX = 18  # below this, health bars and status badges would bury the token
MAX_SHADOWS = 2  # tokens drawn behind the top one in a stack, however tall it is
UNKNOWN_SIDE: RGB = (150, 150, 150)


@dataclass(frozen=True)
class TokenSize:
    """Hold the pixel measures of tokens and badges at one square size."""

    radius: int
    outline: int
    badge: int
    bar_h: int
    offset: int
    details: bool

    @classmethod
    def for_cell(cls, cell_px: int) -> TokenSize:
        """Return the measures for a square size."""
        return cls(
            radius=max(4, round(cell_px * TOKEN_SCALE)),
            outline=1 if cell_px < 26 else 2,
            badge=max(8, round(cell_px * 0.33)),
            bar_h=max(3, round(cell_px * 0.12)),
            offset=max(2, cell_px // 10),
            details=cell_px >= DETAIL_MIN_PX,
        )


def stacks(view: MapView, geometry: Geometry) -> dict[tuple[int, int], list[UnitToken]]:
    """Group the units inside the window by square, keeping the view's order (first is on top)."""
    out: dict[tuple[int, int], list[UnitToken]] = {}
    for unit in view.units:
        if not (0 <= unit.x < view.width and 0 <= unit.y < view.height):
            log.warning(
                "unit %s at (%d, %d) is off the %dx%d map; not drawn",
                unit.key,
                unit.x,
                unit.y,
                view.width,
                view.height,
            )
            continue
        if geometry.contains(unit.x, unit.y):
            out.setdefault((unit.x, unit.y), []).append(unit)
    return out


def side_colour(view: MapView, palette: Palette, side: str) -> RGB:
    """Return the token colour of a side name, grey for a side the view does not list."""
    index = view.side_index(side)
    if index is None:
        return palette(UNKNOWN_SIDE)
    return palette.side(index, view.sides[index].color)


def draw_units(grid: Image.Image, geometry: Geometry, palette: Palette, view: MapView) -> None:
    """Draw every unit inside the window."""
    draw = ImageDraw.Draw(grid)
    size = TokenSize.for_cell(geometry.cell_px)
    for (x, y), group in stacks(view, geometry).items():
        _draw_stack(grid, draw, geometry, palette, view, size, x, y, group)


def _draw_stack(
    grid: Image.Image,
    draw: ImageDraw.ImageDraw,
    geometry: Geometry,
    palette: Palette,
    view: MapView,
    size: TokenSize,
    x: int,
    y: int,
    group: Sequence[UnitToken],
) -> None:
    """Draw one square's units: offset copies of the lower tokens, the top token, then its badges."""
    left, top, right, bottom = geometry.local_box(x, y)
    cx, cy = geometry.local_centre(x, y)
    top_unit = group[0]
    shadows = group[1 : 1 + MAX_SHADOWS]
    if shadows:
        # Shift the top token down-left so the offset copies stay inside the square.
        shift = size.offset * len(shadows) / 2
        cx, cy = cx - shift, cy + shift
        for depth in range(len(shadows), 0, -1):
            unit = shadows[depth - 1]
            d = depth * size.offset
            # Lighten deeper tokens so the layers of a one-side stack stay apart.
            shade = mix(side_colour(view, palette, unit.side), palette(WHITE), 0.22 * depth)
            _token(grid, unit, cx + d, cy - d, size, shade, palette)
    colour = side_colour(view, palette, top_unit.side)
    fill = _token(grid, top_unit, cx, cy, size, colour, palette)
    _token_label(draw, top_unit, cx, cy, size, fill)
    if top_unit.health is not None and size.details:
        _health_bar(draw, top_unit.health, left, bottom, geometry.cell_px, size, palette)
    count_w = 0
    if len(group) > 1:
        text = str(len(group)) if len(group) < 100 else "99+"
        _, count_w = badge_measure(text, size.badge)
        badge(
            grid,
            draw,
            right - count_w,
            top + 1,
            size.badge,
            text,
            palette(WHITE),
            palette(OUTLINE),
            palette(OUTLINE),
        )
    marks = _stack_marks(group)
    if marks and size.details:
        _marks(grid, draw, marks, left + 1, top + 1, right - count_w - 1, size, palette)


def _token(
    grid: Image.Image, unit: UnitToken, cx: float, cy: float, size: TokenSize, colour: RGB, palette: Palette
) -> RGB:
    """Draw a unit's body, a disc or a double-framed square for a Horde, pale when hidden; return its fill."""
    r = size.radius
    hidden = "H" in unit.marks
    fill = mix(colour, palette(WHITE), 0.6) if hidden else colour
    edge = colour if hidden else palette(OUTLINE)
    side = 2 * r + 1
    if unit.is_horde:
        sprite = smooth_box(side, side, max(2, r // 3), fill, edge, size.outline, ink_on(fill))
    else:
        sprite = smooth_box(side, side, side / 2, fill, edge, size.outline)
    paste_smooth(grid, sprite, math.floor(cx + 0.5) - r, math.floor(cy + 0.5) - r)
    return fill


def _token_label(
    draw: ImageDraw.ImageDraw, unit: UnitToken, cx: float, cy: float, size: TokenSize, fill: RGB
) -> None:
    """Write the unit's short label inside its token."""
    text = unit.label[:4]
    if not text:
        return
    inner = int(size.radius * 2 * (0.8 if unit.is_horde else 0.86)) - 2 * size.outline
    px = fit_size(text, inner, int(size.radius * 1.1), max(7, size.radius))
    draw_centred(draw, math.floor(cx + 0.5), math.floor(cy + 0.5), text, px, ink_on(fill))


def _health_bar(
    draw: ImageDraw.ImageDraw,
    health: float,
    left: int,
    bottom: int,
    cell_px: int,
    size: TokenSize,
    palette: Palette,
) -> None:
    """Draw a small bar along the bottom of the square, filled by health 0..1."""
    h = min(1.0, max(0.0, health))
    margin = max(3, round(cell_px * 0.16))
    x0, x1 = left + margin, left + cell_px - margin
    y1 = bottom - 2
    y0 = y1 - size.bar_h + 1
    draw.rectangle((x0, y0, x1, y1), fill=palette(HEALTH_TROUGH), outline=palette(WHITE), width=1)
    inner = x1 - x0 - 2
    filled = round(inner * h)
    if filled > 0:
        fill = palette(WHITE) if palette.grey else health_colour(h)
        draw.rectangle((x0 + 1, y0 + 1, x0 + filled, y1 - 1), fill=fill)


def _stack_marks(group: Sequence[UnitToken]) -> list[str]:
    """Return the status marks of a square's units, each once, top unit's first."""
    seen: list[str] = []
    for unit in group:
        for mark in unit.marks:
            if mark and mark not in seen:
                seen.append(mark)
    return seen


def _marks(
    grid: Image.Image,
    draw: ImageDraw.ImageDraw,
    marks: Sequence[str],
    left: int,
    top: int,
    limit: int,
    size: TokenSize,
    palette: Palette,
) -> None:
    """Line status badges along the square's top edge, above the label; "+" when they do not all fit."""
    texts = [m[:2] for m in marks]
    widths = [badge_measure(t, size.badge)[1] for t in texts]
    plus_w = badge_measure("+", size.badge)[1]
    x = left
    for i, (text, width) in enumerate(zip(texts, widths, strict=True)):
        last = i == len(texts) - 1
        # Keep room for a "+" unless this badge is the last one.
        if x + width - 1 > limit or (not last and x + width - 1 + plus_w - 1 > limit):
            if x + plus_w - 1 <= limit:
                badge(grid, draw, x, top, size.badge, "+", palette(OUTLINE), palette(WHITE), palette(WHITE))
            return
        mark = marks[i]
        colour = MARK_STYLES[mark][1] if mark in MARK_STYLES else OTHER_MARK
        fill = palette(OUTLINE) if palette.grey else colour
        badge(grid, draw, x, top, size.badge, text, fill, palette(WHITE), palette(WHITE))
        x += width - 1
