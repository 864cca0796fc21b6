"""Structures on the map: roads along square centres, obstacles on the sides between squares, floor counts."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from PIL import Image, ImageDraw

from render.fonts import draw_centred, fit_size, text_width
from render.geometry import Geometry
from render.palette import EDGE_STYLES, OUTLINE, ROAD, ROAD_EDGE, WHITE, Palette, ink_on, mix
from render.view import RGB, XY, XYZ, EdgeMark, MapView

log = logging.getLogger(__name__)

ROAD_SHARE = 0.34  # a road's width as a share of the square
OPENING_SHARE = 0.44  # the gap an opening leaves in its side, as a share of the side
TALL_WIDTH = 1.8  # a tall obstacle is drawn this much thicker than a low one
_STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))


def edge_width(cell_px: int, tall: bool) -> int:
    """Return the stroke width of an obstacle on a side at a square size."""
    base = max(3, round(cell_px * 0.14))
    return round(base * TALL_WIDTH) if tall else base


def draw_roads(grid: Image.Image, geometry: Geometry, palette: Palette, roads: frozenset[XY]) -> None:
    """Draw each road square as a pale band joined to its road neighbours, a lone one as a disc."""
    if not roads:
        return
    draw = ImageDraw.Draw(grid)
    cp = geometry.cell_px
    half = max(2, round(cp * ROAD_SHARE / 2))
    for casing, extra in ((palette(ROAD_EDGE), 1), (palette(ROAD), 0)):
        r = half + extra
        for x, y in sorted(roads):
            if not geometry.contains(x, y):
                continue
            cx, cy = geometry.local_centre(x, y)
            draw.rectangle((cx - r, cy - r, cx + r, cy + r), fill=casing)
            for dx, dy in _STEPS:
                if (x + dx, y + dy) not in roads:
                    continue
                # Run to the shared side only: the neighbour draws its own half.
                ex, ey = cx + dx * cp / 2, cy + dy * cp / 2
                if dx:
                    draw.rectangle((min(cx, ex), cy - r, max(cx, ex), cy + r), fill=casing)
                else:
                    draw.rectangle((cx - r, min(cy, ey), cx + r, max(cy, ey)), fill=casing)


def _side(geometry: Geometry, edge: EdgeMark) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Return the pixel ends of the side an edge stands on, or None when it lies outside the window."""
    (ax, ay), (bx, by) = sorted((edge.a, edge.b))
    if not (geometry.contains(ax, ay) or geometry.contains(bx, by)):
        return None
    cp = geometry.cell_px
    if ax == bx:  # one above the other: the side runs left to right, on b's top line
        left = (ax - geometry.crop[0]) * cp
        top = (by - geometry.crop[1]) * cp
        return (left, top), (left + cp, top)
    left = (bx - geometry.crop[0]) * cp
    top = (ay - geometry.crop[1]) * cp
    return (left, top), (left, top + cp)


def draw_edges(grid: Image.Image, geometry: Geometry, palette: Palette, edges: Iterable[EdgeMark]) -> None:
    """Draw every obstacle along its side in its kind's colour; an opening leaves a gap between two posts."""
    draw = ImageDraw.Draw(grid)
    cp = geometry.cell_px
    for edge in edges:
        ends = _side(geometry, edge)
        if ends is None:
            continue
        style = EDGE_STYLES.get(edge.kind)
        if style is None:
            log.warning("edge %s-%s: no style for obstacle %r", edge.a, edge.b, edge.kind)
            continue
        colour = palette(style[1])
        width = edge_width(cp, edge.tall)
        (x0, y0), (x1, y1) = ends
        horizontal = y0 == y1
        pieces = [((x0, y0), (x1, y1))]
        gap = cp * OPENING_SHARE / 2
        if edge.opening > 0:
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            a, b = ((mx - gap, my), (mx + gap, my)) if horizontal else ((mx, my - gap), (mx, my + gap))
            pieces = [((x0, y0), a), (b, (x1, y1))]
        for p, q in pieces:
            _bar(draw, p, q, width, colour, palette(OUTLINE), horizontal, edge.kind)
        if edge.opening > 0:
            _opening(draw, (x0 + x1) / 2, (y0 + y1) / 2, gap, width, horizontal, edge.openable, colour, palette)


def _bar(draw: ImageDraw.ImageDraw, p: tuple[float, float], q: tuple[float, float], width: int, colour: RGB,
         casing: RGB, horizontal: bool, kind: str = "wall") -> None:
    """Draw one straight stretch of obstacle centred on the side, in its kind's stroke so kinds differ in grey too.

    A wall is solid, a fence dashed, a hedge studded with light dots, a creek or lava channel has a light
    centre line.
    """
    h = width / 2
    lo, hi = (min(p[0], q[0]), max(p[0], q[0])) if horizontal else (min(p[1], q[1]), max(p[1], q[1]))
    at = p[1] if horizontal else p[0]

    def box(a: float, b: float, half: float) -> tuple[float, float, float, float]:
        return (a, at - half, b, at + half) if horizontal else (at - half, a, at + half, b)

    if kind == "fence":
        step = max(4.0, width * 1.6)
        a = lo
        while a < hi:
            draw.rectangle(box(a, min(hi, a + step * 0.6), h), fill=colour, outline=casing, width=1)
            a += step
        return
    draw.rectangle(box(lo, hi, h), fill=colour, outline=casing, width=1)
    light = mix(colour, (255, 255, 255), 0.65)
    if kind in ("creek", "lava") and width >= 4:
        draw.rectangle(box(lo + 1, hi - 1, max(0.5, h / 3)), fill=light)
    elif kind == "hedge" and width >= 4:
        r = max(1.0, width / 5)
        a = lo + width / 2
        while a < hi - r:
            cx, cy = (a, at) if horizontal else (at, a)
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=light)
            a += width


def _opening(draw: ImageDraw.ImageDraw, mx: float, my: float, gap: float, width: int, horizontal: bool,
             openable: bool, colour: RGB, palette: Palette) -> None:
    """Mark an opening: white posts at its ends; a closed (unopenable) one is bridged by a thin dashed line."""
    post = max(2, width // 2)
    reach = width / 2 + post
    for sign in (-1, 1):
        if horizontal:
            x = mx + sign * gap
            box = (x - post / 2, my - reach, x + post / 2, my + reach)
        else:
            y = my + sign * gap
            box = (mx - reach, y - post / 2, mx + reach, y + post / 2)
        draw.rectangle(box, fill=palette(WHITE), outline=palette(OUTLINE), width=1)
    if openable:
        return
    steps = 4
    for i in range(steps):
        if i % 2:
            continue
        a = -gap + 2 * gap * i / steps
        b = -gap + 2 * gap * (i + 1) / steps
        line = ((mx + a, my, mx + b, my) if horizontal else (mx, my + a, mx, my + b))
        draw.line(line, fill=colour, width=max(1, width // 3))


def draw_floors(grid: Image.Image, geometry: Geometry, palette: Palette, floors: Iterable[XYZ]) -> None:
    """Write the floor count of each block of multi-storey squares in a small tag in its top-left corner.

    A square whose left or upper neighbour has as many floors belongs to that block and gets no tag.
    """
    draw = ImageDraw.Draw(grid)
    cp = geometry.cell_px
    tag_h = max(7, round(cp * 0.3))
    counts = {(x, y): n for x, y, n in floors}
    for x, y, count in floors:
        if count < 2 or not geometry.contains(x, y):
            continue
        inside = (x - 1 >= geometry.crop[0] and counts.get((x - 1, y)) == count) or (
            y - 1 >= geometry.crop[1] and counts.get((x, y - 1)) == count)
        if inside:
            continue
        left, top, _, _ = geometry.local_box(x, y)
        text = f"{count}F"
        size = fit_size(text, cp // 2, tag_h - 2, tag_h)
        tw = text_width(text, size) + 4
        box = (left + 1, top + 1, left + tw, top + tag_h)
        fill = palette(OUTLINE)
        draw.rectangle(box, fill=fill)
        draw_centred(draw, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, text, size, ink_on(fill))


Swatch = Callable[[Image.Image, ImageDraw.ImageDraw, tuple[int, int, int, int]], None]


def _shown_edges(view: MapView, geometry: Geometry) -> list[EdgeMark]:
    return [e for e in view.edges if geometry.contains(*e.a) or geometry.contains(*e.b)]


def structure_swatches(view: MapView, geometry: Geometry, palette: Palette) -> list[tuple[str, Swatch]]:
    """Return a legend entry for each kind of structure shown: roads, each obstacle kind, openings, floors."""
    out: list[tuple[str, Swatch]] = []
    if any(geometry.contains(x, y) for x, y in view.roads):

        def road(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
            cy = (box[1] + box[3]) // 2
            draw.rectangle((box[0], cy - 4, box[2], cy + 4), fill=palette(ROAD), outline=palette(ROAD_EDGE))

        out.append(("Road", road))
    edges = _shown_edges(view, geometry)
    for kind in sorted({e.kind for e in edges if e.kind in EDGE_STYLES}, key=list(EDGE_STYLES).index):
        name, ink = EDGE_STYLES[kind]
        shade = palette(ink)
        for tall in sorted({e.tall for e in edges if e.kind == kind}):

            def bar(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int],
                    colour: RGB = shade, tall: bool = tall, kind: str = kind) -> None:
                cy = (box[1] + box[3]) / 2
                _bar(draw, (box[0], cy), (box[2], cy), 8 if tall else 5, colour, palette(OUTLINE), True, kind)

            out.append((f"{name}, too tall to cross" if tall else name, bar))
    for openable in sorted({e.openable for e in edges if e.opening > 0}, reverse=True):

        def door(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int],
                 openable: bool = openable) -> None:
            cy = (box[1] + box[3]) / 2
            mx, gap = (box[0] + box[2]) / 2, (box[2] - box[0]) * 0.25
            wall = palette(EDGE_STYLES["wall"][1])
            _bar(draw, (box[0], cy), (mx - gap, cy), 4, wall, palette(OUTLINE), True)
            _bar(draw, (mx + gap, cy), (box[2], cy), 4, wall, palette(OUTLINE), True)
            _opening(draw, mx, cy, gap, 4, True, openable, wall, palette)

        out.append(("Opening (door, window)" if openable else "Opening, models stand outside", door))
    if any(n > 1 and geometry.contains(x, y) for x, y, n in view.floors):

        def storeys(canvas: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
            fill = palette(OUTLINE)
            draw.rectangle(box, fill=fill)
            draw_centred(draw, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, "2F", 10, ink_on(fill))

        out.append(("Floors of the building", storeys))
    return out
