"""Overlays: reachable tints under the units; move paths, shots, targets and markers over them."""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw

from render.fonts import draw_centred, text_height, text_width
from render.geometry import Geometry
from render.layers.units import TokenSize
from render.palette import (
    CHOICE,
    OUTLINE,
    SHOT_HIT,
    SHOT_MISS,
    SHOT_PENDING,
    TARGET,
    TEXT_INK,
    WHITE,
    Palette,
    luminance,
    rgba,
)
from render.shapes import Point, arrowhead, burst, cased_line, cross, dot, shorten
from render.view import RGB, XY, LineOfFire, Marker, MovePath, Overlay, Reachable, SquareChoices, TargetSquare
from rules.coords import column_label

log = logging.getLogger(__name__)

REACH_ALPHA = 56


def casing_for(colour: RGB) -> RGB:
    """Return the casing that separates a line of this colour from the ground."""
    return OUTLINE if luminance(colour) > 110 else WHITE


def reach_dashed(palette: Palette, index: int) -> bool:
    """Return whether the index-th reachable area gets a dashed border (greyscale, where tints look alike)."""
    return palette.grey and index % 2 == 1


def draw_reachable(
    grid: Image.Image, geometry: Geometry, palette: Palette, overlays: Sequence[Overlay],
    only: Collection[XY] | None = None,
) -> None:
    """Tint reachable squares and outline each area, largest first so nested areas stay visible.

    With `only`, paint just those squares (each square's tint and border stay inside it).
    """
    listed = [o for o in overlays if isinstance(o, Reachable)]
    if not listed:
        return
    draw = ImageDraw.Draw(grid, "RGBA")
    cp = geometry.cell_px
    w = 2 if cp >= 18 else 1
    order = sorted(range(len(listed)), key=lambda i: -len(listed[i].cells))
    for i in order:
        area = listed[i]
        colour = palette(area.color)
        tint = rgba(colour, REACH_ALPHA)
        cells = sorted(c for c in area.cells if geometry.contains(*c) and (only is None or c in only))
        for x, y in cells:
            lx, t, r, b = geometry.local_box(x, y)
            draw.rectangle((lx + 1, t + 1, r - 1, b - 1), fill=tint)
        # The border only where the area ends: that edge is what a player reads.
        outline_area(draw, geometry, area.cells, rgba(colour, 255), w, reach_dashed(palette, i), only)


def outline_area(
    draw: ImageDraw.ImageDraw,
    geometry: Geometry,
    area: Collection[XY],
    colour: tuple[int, int, int, int],
    width: int,
    dashed: bool = False,
    only: Collection[XY] | None = None,
) -> None:
    """Draw a border inside the squares of an area, only along the sides where the area ends (on `only` of them)."""
    for x, y in sorted(c for c in area if geometry.contains(*c) and (only is None or c in only)):
        lx, t, r, b = geometry.local_box(x, y)
        if (x - 1, y) not in area:
            _edge(draw, (lx + 1, t + 1, lx + width, b - 1), colour, dashed)
        if (x + 1, y) not in area:
            _edge(draw, (r - width, t + 1, r - 1, b - 1), colour, dashed)
        if (x, y - 1) not in area:
            _edge(draw, (lx + 1, t + 1, r - 1, t + width), colour, dashed)
        if (x, y + 1) not in area:
            _edge(draw, (lx + 1, b - width, r - 1, b - 1), colour, dashed)


def _edge(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: tuple[int, int, int, int], dashed: bool
) -> None:
    """Fill one border strip, or its first and third quarters when dashed."""
    if not dashed:
        draw.rectangle(box, fill=colour)
        return
    x0, y0, x1, y1 = box
    horizontal = x1 - x0 > y1 - y0
    length = (x1 - x0 + 1) if horizontal else (y1 - y0 + 1)
    for k in (0, 2):
        a = round(k * length / 4)
        z = round((k + 1) * length / 4) - 1
        if horizontal:
            draw.rectangle((x0 + a, y0, x0 + z, y1), fill=colour)
        else:
            draw.rectangle((x0, y0 + a, x1, y0 + z), fill=colour)


def draw_overlays(
    grid: Image.Image,
    geometry: Geometry,
    palette: Palette,
    overlays: Sequence[Overlay],
    occupied: Collection[XY],
) -> None:
    """Draw move paths, target squares, shots and markers, in that order, over the units."""
    draw = ImageDraw.Draw(grid)
    for o in overlays:
        if isinstance(o, MovePath):
            _move_path(draw, geometry, palette, o, occupied)
    # Targets go under the shots so a hit's burst stays on top of the outline.
    for o in overlays:
        if isinstance(o, TargetSquare):
            _target(draw, geometry, palette, o)
    for o in overlays:
        if isinstance(o, LineOfFire):
            _line_of_fire(draw, geometry, palette, o, occupied)
    for o in overlays:
        if isinstance(o, Marker):
            draw_marker(draw, geometry, palette, o, occupied)
    for o in overlays:
        if isinstance(o, SquareChoices):
            draw_square_choices(draw, geometry, palette, o)


def _move_path(
    draw: ImageDraw.ImageDraw, geometry: Geometry, palette: Palette, path: MovePath, occupied: Collection[XY]
) -> None:
    """Draw a path from square centre to square centre: hollow start, dots per step, arrow at the end."""
    if not path.cells:
        return
    cp = geometry.cell_px
    colour = palette(path.color)
    casing = palette(casing_for(path.color))
    width = max(3, cp // 8)
    points: list[Point] = [geometry.local_centre(x, y) for x, y in path.cells]
    dot(draw, points[0], max(3.0, cp * 0.16), None, colour, width=max(2, width - 1))
    if len(points) == 1:
        return
    radius = TokenSize.for_cell(cp).radius
    head = max(8.0, cp * 0.42)
    end_gap = radius + 1 if tuple(path.cells[-1]) in occupied else 0
    tail, tip = shorten(points[-2], points[-1], 0, end_gap)
    line = [*points[:-1], tip]
    # Stop the shaft inside the arrowhead so its square end never shows past the tip.
    _, shaft_end = shorten(tail, tip, 0, head * 0.6)
    cased_line(draw, [*line[:-1], shaft_end], colour, width, casing)
    for p in points[1:-1]:
        dot(draw, p, width * 0.9 + 1, colour, casing)
    arrowhead(draw, tail, tip, head, colour, casing)


def _line_of_fire(
    draw: ImageDraw.ImageDraw,
    geometry: Geometry,
    palette: Palette,
    shot: LineOfFire,
    occupied: Collection[XY],
) -> None:
    """Draw a shot: solid with a burst when it hit, dashed with a cross when it missed, dotted with an arrow when pending."""
    cp = geometry.cell_px
    radius = TokenSize.for_cell(cp).radius
    a = geometry.local_centre(*shot.src)
    b = geometry.local_centre(*shot.dst)
    width = max(2, cp // 10)
    mark_r = max(5.0, cp * 0.22) if shot.hit is True else max(3.0, cp * 0.14)
    start = radius + 1 if tuple(shot.src) in occupied else 0
    # Stop short of a token so the hit burst or miss cross sits beside it, not over its label.
    end = radius + mark_r * 0.6 if tuple(shot.dst) in occupied else 0
    p, q = shorten(a, b, start, end)
    if shot.hit is True:
        colour = palette(SHOT_HIT)
        cased_line(draw, [p, q], colour, width, palette(WHITE))
        burst(draw, q, mark_r, colour, palette(WHITE))
    elif shot.hit is False:
        colour = palette(SHOT_MISS)
        cased_line(draw, [p, q], colour, width, palette(OUTLINE), dash=max(4.0, cp * 0.3))
        cross(draw, q, mark_r, colour, palette(OUTLINE), width)
    else:
        colour = palette(SHOT_PENDING)
        head = max(7.0, cp * 0.36)
        _, tip = shorten(a, b, 0, radius + 1 if tuple(shot.dst) in occupied else 0)
        _, shaft_end = shorten(p, tip, 0, head * 0.6)
        cased_line(draw, [p, shaft_end], colour, width, palette(OUTLINE), dash=max(2.0, cp * 0.12))
        arrowhead(draw, p, tip, head, colour, palette(OUTLINE))


def _target(draw: ImageDraw.ImageDraw, geometry: Geometry, palette: Palette, target: TargetSquare) -> None:
    """Outline a square in red with a white casing and inward ticks, like a sight."""
    if not geometry.contains(target.x, target.y):
        return
    lx, t, r, b = geometry.local_box(target.x, target.y)
    cp = geometry.cell_px
    red, white = palette(TARGET), palette(WHITE)
    draw.rectangle((lx - 2, t - 2, r + 2, b + 2), outline=white, width=5)
    draw.rectangle((lx - 1, t - 1, r + 1, b + 1), outline=red, width=3)
    # Ticks point outward like a sight's brackets, leaving the token inside readable.
    tick = max(3, cp // 5)
    mx, my = (lx + r) / 2, (t + b) / 2
    for x0, y0, x1, y1 in (
        (mx, t - 2, mx, t - 2 - tick),
        (mx, b + 2, mx, b + 2 + tick),
        (lx - 2, my, lx - 2 - tick, my),
        (r + 2, my, r + 2 + tick, my),
    ):
        draw.line((x0, y0, x1, y1), fill=white, width=4)
        draw.line((x0, y0, x1, y1), fill=red, width=2)


def marker_box(geometry: Geometry, marker: Marker,
               occupied: Collection[XY] = frozenset()) -> tuple[float, float, float, float] | None:
    """Return the grid pixels a marker's callout and pointer cover (edges included), or None when it is not drawn."""
    placed = _marker_place(geometry, marker, occupied)
    if placed is None:
        return None
    (left, top, right, bottom), _, _, _, tip_y = placed
    return (min(left, placed[2] - 5), min(top, tip_y), max(right, placed[2] + 5), max(bottom, tip_y))


def _marker_place(
    geometry: Geometry, marker: Marker, occupied: Collection[XY]
) -> tuple[tuple[float, float, float, float], int, float, float, float] | None:
    """Return a marker's callout box, text size, pointer x, pointer foot y and tip y (None: not drawn)."""
    if not geometry.contains(marker.x, marker.y) or not marker.text:
        return None
    cp = geometry.cell_px
    size = max(9, min(13, round(cp * 0.45)))
    text = marker.text
    tw, th = text_width(text, size), text_height("Ag", size)
    w, h = tw + 10, th + 8
    lx, t, r, b = geometry.local_box(marker.x, marker.y)
    cx = (lx + r) / 2
    gw, gh = geometry.grid_width, geometry.grid_height
    above = t - h - 5 >= 0
    if above and (marker.x, marker.y - 1) in occupied and (marker.x, marker.y + 1) not in occupied \
            and b + 5 + h < geometry.grid_height:
        above = False  # the callout would sit on the token above; below it covers nobody
    top = t - h - 5 if above else min(b + 5, gh - h - 1)
    left = min(max(1, cx - w / 2), gw - w - 1)
    pointer_y = top + h if above else top
    tip_y = t + 2 if above else b - 2
    return (left, top, left + w, top + h), size, cx, pointer_y, tip_y


def draw_marker(draw: ImageDraw.ImageDraw, geometry: Geometry, palette: Palette, marker: Marker,
                occupied: Collection[XY] = frozenset()) -> None:
    """Pin a text callout above a square (below it on the top row, or when a unit stands above and none below),
    kept inside the grid."""
    placed = _marker_place(geometry, marker, occupied)
    if placed is None:
        return
    box, size, cx, pointer_y, tip_y = placed
    left, top, right, bottom = box
    draw.polygon([(cx - 5, pointer_y), (cx + 5, pointer_y), (cx, tip_y)], fill=palette(OUTLINE))
    draw.rounded_rectangle(box, radius=4, fill=palette(WHITE), outline=palette(OUTLINE), width=1)
    draw_centred(draw, (left + right) / 2, (top + bottom) / 2, marker.text, size, palette(TEXT_INK))


def draw_square_choices(draw: ImageDraw.ImageDraw, geometry: Geometry, palette: Palette, choices: SquareChoices) -> None:
    """Outline each square on offer and tag it with its name at its foot, so a player can pick it by name."""
    cp = geometry.cell_px
    colour = palette(CHOICE)
    for x, y in choices.cells:
        if not geometry.contains(x, y):
            continue
        lx, t, r, b = geometry.local_box(x, y)
        draw.rectangle((lx + 1, t + 1, r - 1, b - 1), outline=colour, width=2 if cp >= 18 else 1)
        name = f"{column_label(x)}{y + 1}"
        size = max(7, min(12, round(cp * 0.34)))
        while size > 7 and text_width(name, size) > cp - 6:
            size -= 1
        tw, th = text_width(name, size), text_height("Ag", size)
        if tw > cp - 2:
            continue  # too small a square to name: the outline alone marks it
        cx = (lx + r) / 2
        box = (cx - tw / 2 - 2, b - th - 5, cx + tw / 2 + 2, b - 2)
        draw.rectangle(box, fill=palette(WHITE), outline=colour, width=1)
        draw_centred(draw, cx, (box[1] + box[3]) / 2, name, size, palette(TEXT_INK))
