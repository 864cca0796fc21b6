"""Area attacks, missed shots and range bands: tints under the units, outlines and tags over them.

Each area shape is drawn its own way (a burst for a blast, a wedge for a cone, a chain of squares
for a line, an octagon for an AT-field), so the shape tells them apart in greyscale as well as hue.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.fonts import draw_centred, fit_size, text_width
from render.geometry import Geometry
from render.layers.overlays import draw_marker, outline_area
from render.palette import AREA_STYLES, BAND_COLOURS, LANDED, OUTLINE, WHITE, Palette, rgba
from render.shapes import Point, cased_line, cross, dot, shorten
from render.view import RGB, XY, AreaOfEffect, Marker, MissLanding, Overlay, RangeBands

log = logging.getLogger(__name__)

AREA_ALPHA = 84
CONE_ALPHA = 56
BAND_ALPHA = 64


def area_colour(kind: str) -> RGB:
    """Return the colour of an area shape (a neutral orange for an unknown one)."""
    return AREA_STYLES.get(kind, ("Area", (255, 120, 0)))[1]


def band_colour(index: int) -> RGB:
    """Return the tint of the index-th range band, nearest first."""
    return BAND_COLOURS[min(index, len(BAND_COLOURS) - 1)]


def band_cells(geometry: Geometry, src: XY, low: int, high: int | None) -> set[XY]:
    """Return the squares inside the window at a distance from src between low and high (inclusive)."""
    x0, y0, x1, y1 = geometry.crop
    out: set[XY] = set()
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            d = max(abs(x - src[0]), abs(y - src[1]))
            if d >= low and (high is None or d <= high):
                out.add((x, y))
    return out


def draw_area_tints(grid: Image.Image, geometry: Geometry, palette: Palette, overlays: Sequence[Overlay]) -> None:
    """Tint range bands and the squares of area attacks, under the units."""
    draw = ImageDraw.Draw(grid, "RGBA")
    for o in overlays:
        if isinstance(o, RangeBands):
            _band_tints(draw, geometry, palette, o)
    for o in overlays:
        if isinstance(o, AreaOfEffect):
            _area_tint(draw, geometry, palette, o)


def draw_area_marks(grid: Image.Image, geometry: Geometry, palette: Palette, overlays: Sequence[Overlay]) -> None:
    """Draw area outlines, missed-shot landings and their tags, over the units."""
    draw = ImageDraw.Draw(grid)
    for o in overlays:
        if isinstance(o, AreaOfEffect):
            _area_outline(draw, geometry, palette, o)
        elif isinstance(o, MissLanding):
            _landing(draw, geometry, palette, o)
    for o in overlays:
        if isinstance(o, AreaOfEffect) and o.label and o.cells:
            x, y = _tag_cell(o)
            draw_marker(draw, geometry, palette, Marker(x, y, o.label))


def _tag_cell(area: AreaOfEffect) -> XY:
    """Return the square an area's tag points at: its aimed square, the last of a line."""
    return area.cells[-1]


def _band_tints(draw: ImageDraw.ImageDraw, geometry: Geometry, palette: Palette, bands: RangeBands) -> None:
    """Tint each band's ring of squares and outline where it ends; name each band at its top edge."""
    cp = geometry.cell_px
    width = 2 if cp >= 18 else 1
    for i, band in enumerate(bands.bands):
        colour = palette(band_colour(i))
        cells = band_cells(geometry, bands.src, band.low, band.high)
        for x, y in cells:
            lx, t, r, b = geometry.local_box(x, y)
            draw.rectangle((lx + 1, t + 1, r - 1, b - 1), fill=rgba(colour, BAND_ALPHA))
        # Every other band dashed, so neighbouring rings part in greyscale where tints look alike.
        outline_area(draw, geometry, cells, rgba(palette(OUTLINE), 200), width, dashed=i % 2 == 1)
    for i, band in enumerate(bands.bands):
        _band_name(draw, geometry, palette, bands.src, band.name, band.high if band.high is not None else band.low, i)


def _band_name(
    draw: ImageDraw.ImageDraw, geometry: Geometry, palette: Palette, src: XY, name: str, reach: int, index: int
) -> None:
    """Write a band's name in a small tag on the outermost square of the band straight above the source."""
    if not name:
        return
    x, y = src[0], src[1] - reach
    if not geometry.contains(x, y):
        return
    cp = geometry.cell_px
    size = fit_size(name, 6 * cp, max(7, cp // 3), max(8, min(12, cp // 2 - 2)))
    lx, t, r, _ = geometry.local_box(x, y)
    w, h = text_width(name, size) + 6, size + 4
    left = (lx + r) / 2 - w / 2
    left = min(max(1, left), geometry.grid_width - w - 1)
    box = (left, t + 1, left + w, t + 1 + h)
    draw.rectangle(box, fill=palette(band_colour(index)), outline=palette(OUTLINE))
    draw_centred(draw, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, name, size, palette(OUTLINE))


def _area_tint(draw: ImageDraw.ImageDraw, geometry: Geometry, palette: Palette, area: AreaOfEffect) -> None:
    """Tint an area's squares, and for a cone the wedge from the shooter to them."""
    colour = palette(area_colour(area.kind))
    if area.kind == "cone" and area.src is not None and area.cells:
        wedge = _cone_wedge(geometry, area.src, area.cells[-1])
        draw.polygon(wedge, fill=rgba(colour, CONE_ALPHA))
    for x, y in area.cells:
        if not geometry.contains(x, y):
            continue
        lx, t, r, b = geometry.local_box(x, y)
        draw.rectangle((lx + 1, t + 1, r - 1, b - 1), fill=rgba(colour, AREA_ALPHA))
        if area.kind == "line":
            # Diagonal stripes tell a line's squares apart from a blast's in greyscale.
            step = max(4, geometry.cell_px // 4)
            for k in range(-geometry.cell_px, geometry.cell_px, step):
                draw.line((lx + 1 + k, b - 1, lx + 1 + k + (b - t - 2), t + 1), fill=rgba(colour, 150), width=1)


def _cone_wedge(geometry: Geometry, src: XY, aim: XY) -> list[Point]:
    """Return the wedge from the shooter's centre to the two far corners of the aimed square."""
    sx, sy = geometry.local_centre(*src)
    ax, ay = geometry.local_centre(*aim)
    dx, dy = ax - sx, ay - sy
    length = math.hypot(dx, dy) or 1.0
    # Widen to the square's half diagonal, across the line of fire, at the far side of the square.
    half = geometry.cell_px * 0.6
    px, py = -dy / length * half, dx / length * half
    fx, fy = ax + dx / length * half * 0.5, ay + dy / length * half * 0.5
    return [(sx, sy), (fx + px, fy + py), (fx - px, fy - py)]


def _area_outline(draw: ImageDraw.ImageDraw, geometry: Geometry, palette: Palette, area: AreaOfEffect) -> None:
    """Outline an area in its own shape, cased so it reads on any ground."""
    colour = palette(area_colour(area.kind))
    dark = palette(OUTLINE)
    cp = geometry.cell_px
    width = max(2, cp // 10)
    if area.kind == "cone" and area.src is not None and area.cells:
        wedge = _cone_wedge(geometry, area.src, area.cells[-1])
        for tail, edge in ((wedge[0], wedge[1]), (wedge[0], wedge[2])):
            p, q = shorten(tail, edge, cp * 0.45, 0)
            cased_line(draw, [p, q], colour, width, dark, dash=max(3.0, cp * 0.2))
    for x, y in area.cells:
        if not geometry.contains(x, y):
            continue
        if area.kind == "at_field":
            _octagon(draw, geometry.local_centre(x, y), cp, colour, dark, width)
        elif area.kind == "blast":
            _burst_frame(draw, geometry.local_box(x, y), cp, colour, dark, width)
        else:
            lx, t, r, b = geometry.local_box(x, y)
            draw.rectangle((lx, t, r, b), outline=dark, width=width + 2)
            draw.rectangle((lx + 1, t + 1, r - 1, b - 1), outline=colour, width=width)


def _octagon(draw: ImageDraw.ImageDraw, centre: Point, cp: int, colour: RGB, dark: RGB, width: int) -> None:
    """Draw the AT-field's octagon around a square, just outside its token."""
    cx, cy = centre
    radius = cp * 0.62
    pts = [
        (cx + radius * math.cos(math.pi / 8 + i * math.pi / 4), cy + radius * math.sin(math.pi / 8 + i * math.pi / 4))
        for i in range(8)
    ]
    draw.polygon(pts, outline=dark, width=width + 2)
    inner = [(cx + (x - cx) * 0.97, cy + (y - cy) * 0.97) for x, y in pts]
    draw.polygon(inner, outline=colour, width=width)


def _burst_frame(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], cp: int, colour: RGB, dark: RGB, width: int
) -> None:
    """Outline a blast square and send eight short rays out of it, like an explosion."""
    lx, t, r, b = box
    draw.rectangle((lx, t, r, b), outline=dark, width=width + 2)
    draw.rectangle((lx + 1, t + 1, r - 1, b - 1), outline=colour, width=width)
    cx, cy = (lx + r) / 2, (t + b) / 2
    inner, outer = cp * 0.56, cp * 0.86
    for i in range(8):
        a = i * math.pi / 4
        p = (cx + inner * math.cos(a), cy + inner * math.sin(a))
        q = (cx + outer * math.cos(a), cy + outer * math.sin(a))
        cased_line(draw, [p, q], colour, width, dark)


def _landing(draw: ImageDraw.ImageDraw, geometry: Geometry, palette: Palette, miss: MissLanding) -> None:
    """Draw a dotted drift from the aimed square to where the shot came down, and a crater there."""
    cp = geometry.cell_px
    colour, white = palette(LANDED), palette(WHITE)
    a = geometry.local_centre(*miss.aim)
    b = geometry.local_centre(*miss.landed)
    radius = max(5.0, cp * 0.3)
    if miss.aim != miss.landed:
        p, q = shorten(a, b, cp * 0.25, radius)
        cased_line(draw, [p, q], colour, max(2, cp // 14), white, dash=max(2.0, cp * 0.12))
    if not geometry.contains(*miss.landed):
        return
    dot(draw, b, radius, None, white, width=max(3, cp // 9) + 2)
    dot(draw, b, radius, None, colour, width=max(3, cp // 9))
    cross(draw, b, radius * 0.5, colour, white, max(2, cp // 14))
