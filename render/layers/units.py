"""Units: round tokens in the side colour, square ones for Hordes; a shared square shows every unit in it."""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.fonts import fit_size, text_bbox
from render.geometry import Geometry
from render.layers.labels import Label
from render.layers.models import draw_models
from render.palette import (
    CONTESTED,
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
from render.shapes import SUPERSAMPLE, arrowhead, badge, badge_measure, dash_border, paste_smooth, smooth_box
from render.view import RGB, XY, MapView, UnitToken

log = logging.getLogger(__name__)

TOKEN_SCALE = 0.43  # a lone token's radius as a share of the square: big, with room for its health bar
# A token never shrinks below this radius, so its label reads: on a map of small squares (100x100 at 18 px) a
# token overlaps its square's edge a little rather than carry an unreadable label.
MIN_RADIUS = 12
DETAIL_MIN_PX = 14  # below this, health bars and status badges would bury the token
MINI_LABEL_MIN_PX = 7  # a stacked token's label smaller than this is left out (the unit key names it)
# Side by side, a square's tokens each get a share of it; below this radius their labels cannot be read, so the
# square shows one token of lone size instead, its sectors in the units' side colours and their count on it,
# and the unit key lists who stands there.
STACK_MIN_RADIUS = 14
STACK_GRID_MIN_PX = 44  # from this size up, a square shows up to nine units; below it, four
UNKNOWN_SIDE: RGB = (150, 150, 150)

# Where a stack's tokens sit, as (centre x, centre y, radius) shares of the square, per layout.
_PAIR = ((0.26, 0.5, 0.25), (0.74, 0.5, 0.25))
_FOUR = ((0.26, 0.26, 0.245), (0.74, 0.26, 0.245), (0.26, 0.74, 0.245), (0.74, 0.74, 0.245))
_NINE = tuple((c / 6, r / 6, 0.165) for r in (1, 3, 5) for c in (1, 3, 5))


@dataclass(frozen=True)
class TokenSize:
    """Hold the pixel measures of tokens, health bars and badges at one square size."""

    radius: int
    outline: int
    badge: int
    bar_h: int
    lift: int
    details: bool

    @classmethod
    def for_cell(cls, cell_px: int) -> TokenSize:
        """Return the measures for a square size."""
        details = cell_px >= DETAIL_MIN_PX
        bar_h = max(3, round(cell_px * 0.16))
        return cls(
            radius=max(MIN_RADIUS, round(cell_px * TOKEN_SCALE)),
            outline=1 if cell_px < 26 else 2,
            badge=max(8, round(cell_px * 0.33)),
            bar_h=bar_h,
            # Raise the token so its health bar sits under it rather than across its label.
            lift=max(1, bar_h // 2) if details else 0,
            details=details,
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


def contested(group: Sequence[UnitToken]) -> bool:
    """Return whether units of more than one side share the square."""
    return len({u.side.lower() for u in group}) > 1


def stack_slots(count: int, cell_px: int) -> tuple[tuple[float, float, float], ...]:
    """Return where a square's `count` tokens go (the last slot may hold a "+N" for the rest)."""
    if count <= 2:
        return _PAIR
    if count <= 4 or cell_px < STACK_GRID_MIN_PX:
        return _FOUR
    return _NINE


def piled(count: int, cell_px: int) -> bool:
    """Return whether a square of `count` units shows one stack token with their count: side by side, their
    tokens would be too small to read."""
    return count > 1 and round(stack_slots(count, cell_px)[0][2] * cell_px) < STACK_MIN_RADIUS


# A stack token's sectors, in the places the tokens side by side would take: two split left and right, three
# and four by quarters (top left, top right, then the bottom), more in equal slices clockwise from the top.
# Angles are Pillow's: degrees clockwise from three o'clock.
_SECTORS = {
    2: ((90, 270), (270, 450)),
    3: ((180, 270), (270, 360), (0, 180)),
    4: ((180, 270), (270, 360), (90, 180), (0, 90)),
}
PILE_SECTORS = 8  # at most this many units colour a stack token; its count says how many stand there


def pile_sectors(count: int) -> tuple[tuple[float, float], ...]:
    """Return the angle spans of a stack token's sectors, one per unit shown."""
    if count in _SECTORS:
        return _SECTORS[count]
    n = min(count, PILE_SECTORS)
    return tuple((270 + 360 * i / n, 270 + 360 * (i + 1) / n) for i in range(n))


def side_colour(view: MapView, palette: Palette, side: str) -> RGB:
    """Return the token colour of a side name, grey for a side the view does not list."""
    index = view.side_index(side)
    if index is None:
        return palette(UNKNOWN_SIDE)
    style = view.sides[index]
    return palette.side(index if style.slot is None else style.slot, style.color)


class Reached:
    """Answer which squares lie within some squares of a set, for each distance asked, worked out once."""

    def __init__(self, squares: Collection[XY] | None) -> None:
        """Start from a set of squares (None: every square)."""
        self.squares = squares
        self._within: dict[int, set[XY]] = {}

    def within(self, reach: int) -> Collection[XY]:
        """Return the squares at most `reach` squares across and down from one of the set."""
        if self.squares is None:
            raise ValueError("every square is within reach of every square")
        found = self._within.get(reach)
        if found is None:
            found = {(x + dx, y + dy) for x, y in self.squares
                     for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)}
            self._within[reach] = found
        return found


def stack_reach(geometry: Geometry, group: Sequence[UnitToken]) -> int:
    """Return how many squares past its own a square's tokens may paint: a big token's rim, a badge, a facing arrow."""
    return _reach(geometry.cell_px, any(u.facing is not None for u in group))


@functools.lru_cache(maxsize=64)
def _reach(cp: int, facing: bool) -> int:
    """Return stack_reach's answer for a square size, with or without a facing arrow."""
    size = TokenSize.for_cell(cp)
    # From the square's centre: the token's rim and its soft edge, or a stacked token's badge past the side.
    extent = max(size.radius + size.outline + 2.0, float(cp))
    if facing:
        # The arrowhead sits past the rim; `_facing` draws it no longer than 1.55 times its size from the rim.
        extent = max(extent, size.radius + 1.6 * max(4.0, size.radius * 0.7) + 3)
    return math.ceil((extent - cp / 2) / cp)


def draw_units(grid: Image.Image, geometry: Geometry, palette: Palette, view: MapView,
               only: Collection[XY] | None = None) -> list[Label]:
    """Draw every unit inside the window; return their labels, to paint once the overlays are drawn.

    With `only`, draw just the tokens and models that may paint on those squares (a map repainted in place).
    """
    draw = ImageDraw.Draw(grid)
    size = TokenSize.for_cell(geometry.cell_px)
    labels: list[Label] = []
    colours = {u.key: side_colour(view, palette, u.side) for u in view.units}
    if any(u.models for u in view.units):
        labels += draw_models(grid, geometry, palette, view, colours, beside_tokens=False, only=only)
    reached = Reached(only)
    for (x, y), group in stacks(view, geometry).items():
        if only is not None and (x, y) not in reached.within(stack_reach(geometry, group)):
            continue
        if len(group) == 1:
            _draw_single(grid, draw, geometry, palette, view, size, x, y, group[0], labels)
        elif piled(len(group), geometry.cell_px):
            _draw_pile(grid, draw, geometry, palette, view, size, x, y, group, labels)
        else:
            _draw_stack(grid, draw, geometry, palette, view, size, x, y, group, labels)
        for unit in group[:1]:
            if unit.level > 0 and size.details:
                _floor_badge(grid, draw, geometry, palette, x, y, unit.level, size.badge)
    if any(u.models for u in view.units):
        # A model beside a leader's token sits in the square's corner over the token's rim, never under it.
        labels += draw_models(grid, geometry, palette, view, colours, beside_tokens=True, only=only)
    return labels


def _draw_single(
    grid: Image.Image,
    draw: ImageDraw.ImageDraw,
    geometry: Geometry,
    palette: Palette,
    view: MapView,
    size: TokenSize,
    x: int,
    y: int,
    unit: UnitToken,
    labels: list[Label],
) -> None:
    """Draw a lone unit: a big token, its health bar along the bottom, its status badges along the top."""
    left, top, right, bottom = geometry.local_box(x, y)
    cx, cy = geometry.local_centre(x, y)
    has_bar = unit.health is not None and size.details
    cy -= size.lift if has_bar else 0
    colour = side_colour(view, palette, unit.side)
    fill = _token(grid, unit, cx, cy, size.radius, size.outline, colour, palette)
    _facing(draw, unit, cx, cy, size.radius, palette)
    labels += _token_label(unit, cx, cy, size.radius, size.outline, fill, min_px=6)
    if has_bar and unit.health is not None:
        margin = max(2, round(geometry.cell_px * 0.08))
        _health_bar(draw, unit.health, (left + margin, bottom - 1 - size.bar_h, right - margin, bottom - 2), palette)
    if unit.marks and size.details:
        _marks(grid, draw, unit.marks, left + 1, top + 1, right - 1, size.badge, palette)


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
    labels: list[Label],
) -> None:
    """Draw every unit of a shared square side by side, each with its own health bar; "+N" for any beyond."""
    cp = geometry.cell_px
    left, top, _, _ = geometry.local_box(x, y)
    slots = stack_slots(len(group), cp)
    shown = list(group) if len(group) <= len(slots) else list(group[: len(slots) - 1])
    for unit, (fx, fy, fr) in zip(shown, slots, strict=False):
        _mini(grid, draw, palette, view, size, unit, (left + fx * cp, top + fy * cp), max(3, round(fr * cp)), labels)
    if len(shown) < len(group):
        fx, fy, fr = slots[len(shown)]
        more = f"+{len(group) - len(shown)}"
        height = max(7, round(fr * cp * 1.3))
        _, width = badge_measure(more, height)
        bx, by = left + fx * cp - width / 2, top + fy * cp - height / 2
        badge(grid, draw, round(bx), round(by), height, more, palette(WHITE), palette(OUTLINE), palette(OUTLINE))
    if contested(group):
        draw_contested(draw, geometry.local_box(x, y), cp, palette)


def _draw_pile(
    grid: Image.Image,
    draw: ImageDraw.ImageDraw,
    geometry: Geometry,
    palette: Palette,
    view: MapView,
    size: TokenSize,
    x: int,
    y: int,
    group: Sequence[UnitToken],
    labels: list[Label],
) -> None:
    """Draw a crowded square as one token of lone size: a sector in each unit's side colour, their count on it."""
    cx, cy = geometry.local_centre(x, y)
    r = size.radius
    fills = [_fill(side_colour(view, palette, u.side), u, palette) for u in group]
    paste_smooth(grid, pie_sprite(r, fills, size.outline, palette(OUTLINE)), math.floor(cx + 0.5) - r,
                 math.floor(cy + 0.5) - r)
    # The count on a white roundel in the middle, large enough to read at any square size.
    inner = max(7, round(r * 0.55))
    paste_smooth(grid, smooth_box(2 * inner + 1, 2 * inner + 1, inner + 0.5, palette(WHITE), palette(OUTLINE), 1),
                 math.floor(cx + 0.5) - inner, math.floor(cy + 0.5) - inner)
    text = str(len(group))
    px = fit_size(text, int(inner * 1.6), int(inner * 1.5), max(9, inner * 2))
    labels.append(Label(text, math.floor(cx + 0.5), math.floor(cy + 0.5), px, palette(OUTLINE), palette(WHITE)))
    marks = tuple(dict.fromkeys(m for u in group for m in u.marks if m != "H"))
    if marks and size.details:
        left, top, right, _ = geometry.local_box(x, y)
        _marks(grid, draw, marks, left + 1, top + 1, right - 1, size.badge, palette)
    if contested(group):
        draw_contested(draw, geometry.local_box(x, y), geometry.cell_px, palette)


def pie_sprite(radius: int, fills: Sequence[RGB], line: int, outline: RGB) -> Image.Image:
    """Return an anti-aliased disc split into sectors, one per fill, framed in the outline colour."""
    f = SUPERSAMPLE
    side = (2 * radius + 1) * f
    colour = Image.new("RGB", (side, side), outline)
    mask = Image.new("L", (side, side), 0)
    box = (0, 0, side - 1, side - 1)
    ImageDraw.Draw(mask).ellipse(box, fill=255)
    d = ImageDraw.Draw(colour)
    inset = line * f
    body = (inset, inset, side - 1 - inset, side - 1 - inset)
    for (start, end), fill in zip(pile_sectors(len(fills)), fills, strict=False):
        d.pieslice(body, start, end, fill=fill)
    out = colour.reduce(f).convert("RGBA")
    out.putalpha(mask.reduce(f))
    return out


def _fill(colour: RGB, unit: UnitToken, palette: Palette) -> RGB:
    """Return a token's fill: its side colour, pale when the unit is hidden."""
    return mix(colour, palette(WHITE), 0.6) if "H" in unit.marks else colour


def _floor_badge(grid: Image.Image, draw: ImageDraw.ImageDraw, geometry: Geometry, palette: Palette,
                 x: int, y: int, level: int, height: int) -> None:
    """Tag a token standing on an upper floor with `^N` in its square's top-right corner."""
    _, top, right, _ = geometry.local_box(x, y)
    text = f"^{level}"
    _, width = badge_measure(text, height)
    badge(grid, draw, right - width - 1, top + 1, height, text, palette(WHITE), palette(OUTLINE), palette(OUTLINE))


def draw_contested(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], cell_px: int, palette: Palette) -> None:
    """Frame a square shared by enemies in black and yellow hazard dashes (they read in greyscale too)."""
    left, top, right, bottom = box
    width = max(2, cell_px // 14)
    inner = (left + 1, top + 1, right - 1, bottom - 1)
    dash = max(3.0, cell_px / 6)
    draw.rectangle(inner, outline=palette(OUTLINE), width=width)
    for p, q in dash_border(inner, dash, width / 2):
        draw.line((p, q), fill=palette(CONTESTED), width=width)


def _mini(
    grid: Image.Image,
    draw: ImageDraw.ImageDraw,
    palette: Palette,
    view: MapView,
    size: TokenSize,
    unit: UnitToken,
    centre: tuple[float, float],
    radius: int,
    labels: list[Label],
) -> None:
    """Draw one unit of a shared square: a smaller token, its label, a bar across its foot, one status badge."""
    cx, cy = centre
    colour = side_colour(view, palette, unit.side)
    outline = 1 if radius < 10 else size.outline
    fill = _token(grid, unit, cx, cy, radius, outline, colour, palette)
    _facing(draw, unit, cx, cy, radius, palette)
    has_bar = unit.health is not None and size.details
    # The label moves up a little when a bar crosses the token's foot.
    labels += _token_label(unit, cx, cy - (radius * 0.15 if has_bar else 0), radius, outline, fill,
                           min_px=MINI_LABEL_MIN_PX)
    if has_bar and unit.health is not None:
        bar_h = max(3, round(radius * 0.42))
        half = max(4, round(radius * 0.9))
        y1 = round(cy + radius)
        _health_bar(draw, unit.health, (round(cx - half), y1 - bar_h + 1, round(cx + half), y1), palette)
    if unit.marks and size.details and radius >= 7:
        text = unit.marks[0][:2] + ("+" if len(unit.marks) > 1 else "")
        height = max(7, round(radius * 0.8))
        style = MARK_STYLES.get(unit.marks[0], ("", OTHER_MARK))[1]
        fill_mark = palette(OUTLINE) if palette.grey else style
        badge(grid, draw, round(cx + radius * 0.35), round(cy - radius - 1), height, text, fill_mark,
              palette(WHITE), palette(WHITE))


def _token(
    grid: Image.Image,
    unit: UnitToken,
    cx: float,
    cy: float,
    radius: int,
    outline: int,
    colour: RGB,
    palette: Palette,
) -> RGB:
    """Draw a unit's body, a disc or a double-framed square for a Horde, pale when hidden; return its fill."""
    r = radius
    hidden = "H" in unit.marks
    fill = _fill(colour, unit, palette)
    edge = colour if hidden else palette(OUTLINE)
    side = 2 * r + 1
    if unit.is_horde:
        sprite = smooth_box(side, side, max(2, r // 3), fill, edge, outline, ink_on(fill))
    else:
        sprite = smooth_box(side, side, side / 2, fill, edge, outline)
    paste_smooth(grid, sprite, math.floor(cx + 0.5) - r, math.floor(cy + 0.5) - r)
    return fill


def _facing(draw: ImageDraw.ImageDraw, unit: UnitToken, cx: float, cy: float, radius: int, palette: Palette) -> None:
    """Point an arrowhead out of the token's rim the way the unit faces (vehicles and robots)."""
    if unit.facing is None:
        return
    angle = math.radians(unit.facing)
    ux, uy = math.sin(angle), -math.cos(angle)
    size = max(4.0, radius * 0.7)
    tip = (cx + ux * (radius + size * 0.55), cy + uy * (radius + size * 0.55))
    arrowhead(draw, (cx, cy), tip, size, palette(OUTLINE), palette(WHITE))


def _token_label(
    unit: UnitToken,
    cx: float,
    cy: float,
    radius: int,
    outline: int,
    fill: RGB,
    min_px: int,
) -> list[Label]:
    """Return the unit's short label inside its token, when it can be read at this size."""
    text = unit.label[:4]
    if not text:
        return []
    px = label_size(text, radius, outline, unit.is_horde)
    if px < min_px:
        return []
    return [Label(text, math.floor(cx + 0.5), math.floor(cy + 0.5), px, ink_on(fill), fill)]


def label_size(text: str, radius: int, outline: int, square: bool) -> int:
    """Return the largest font size at which a label fits inside its token, ring included (0 when none does).

    A disc's label may use the width of the disc at the label's top and bottom edge, not only of its middle
    band: short labels in small tokens stay readable.
    """
    for px in range(max(7, radius), 5, -1):
        left, top, right, bottom = text_bbox(text, px)
        width, height = right - left, bottom - top
        if height > radius * 1.1:
            continue
        if square:
            room = 2 * radius * 0.8 - 2 * outline
        else:
            half = height / 2 + 1
            room = 2 * math.sqrt(max(0.0, radius * radius - half * half)) - 2 * outline - 2
        if width <= room:
            return px
    return 0


def _health_bar(
    draw: ImageDraw.ImageDraw, health: float, box: tuple[int, int, int, int], palette: Palette
) -> None:
    """Draw a health bar in a box: a dark frame and trough, filled by health 0..1 (white in greyscale)."""
    h = min(1.0, max(0.0, health))
    x0, y0, x1, y1 = box
    draw.rectangle((x0, y0, x1, y1), fill=palette(HEALTH_TROUGH), outline=palette(OUTLINE), width=1)
    inner = x1 - x0 - 1
    filled = round(inner * h)
    if filled > 0 and y1 - y0 >= 2:
        fill = palette(WHITE) if palette.grey else health_colour(h)
        draw.rectangle((x0 + 1, y0 + 1, x0 + filled, y1 - 1), fill=fill)


def _marks(
    grid: Image.Image,
    draw: ImageDraw.ImageDraw,
    marks: Sequence[str],
    left: int,
    top: int,
    limit: int,
    height: int,
    palette: Palette,
) -> None:
    """Line status badges along the square's top edge, above the label; "+" when they do not all fit."""
    texts = [m[:2] for m in marks]
    widths = [badge_measure(t, height)[1] for t in texts]
    plus_w = badge_measure("+", height)[1]
    x = left
    for i, (text, width) in enumerate(zip(texts, widths, strict=True)):
        last = i == len(texts) - 1
        # Keep room for a "+" unless this badge is the last one.
        if x + width - 1 > limit or (not last and x + width - 1 + plus_w - 1 > limit):
            if x + plus_w - 1 <= limit:
                badge(grid, draw, x, top, height, "+", palette(OUTLINE), palette(WHITE), palette(WHITE))
            return
        mark = marks[i]
        colour = MARK_STYLES[mark][1] if mark in MARK_STYLES else OTHER_MARK
        fill = palette(OUTLINE) if palette.grey else colour
        badge(grid, draw, x, top, height, text, fill, palette(WHITE), palette(WHITE))
        x += width - 1
