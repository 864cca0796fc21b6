"""Drawing primitives shared by the layers and the legend: cased lines, dashes, arrows, badges."""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from render.fonts import draw_centred, fit_size, text_width
from render.view import RGB

log = logging.getLogger(__name__)

Point = tuple[float, float]

SUPERSAMPLE = 4  # tokens and badges are drawn 4x larger and reduced, for smooth edges


@lru_cache(maxsize=1024)
def smooth_box(
    width: int,
    height: int,
    radius: float,
    fill: RGB,
    outline: RGB | None = None,
    line: int = 1,
    inner: RGB | None = None,
) -> Image.Image:
    """Return an anti-aliased RGBA rounded box (a disc when radius is half the size); read-only.

    `inner` adds a thin second frame inside the outline (the Horde's double frame).
    """
    f = SUPERSAMPLE
    w, h = width * f, height * f
    # Colour and coverage are reduced separately, so the soft edge keeps the
    # outline's colour instead of fading toward the transparent black around it.
    edge = outline if outline is not None else fill
    colour = Image.new("RGB", (w, h), edge)
    mask = Image.new("L", (w, h), 0)
    box = (0, 0, w - 1, h - 1)
    r = radius * f
    ImageDraw.Draw(mask).rounded_rectangle(box, radius=r, fill=255)
    d = ImageDraw.Draw(colour)
    if outline is not None:
        d.rounded_rectangle(box, radius=r, fill=fill, outline=outline, width=line * f)
    else:
        d.rounded_rectangle(box, radius=r, fill=fill)
    if inner is not None:
        inset = (line + 1) * f
        d.rounded_rectangle(
            (inset, inset, w - 1 - inset, h - 1 - inset), radius=max(0.0, r - inset), outline=inner, width=f
        )
    out = colour.reduce(f).convert("RGBA")
    out.putalpha(mask.reduce(f))
    return out


def paste_smooth(image: Image.Image, sprite: Image.Image, left: int, top: int) -> None:
    """Blend a smooth_box sprite onto an image at an integer position."""
    image.paste(sprite, (left, top), sprite)


def shorten(a: Point, b: Point, start: float, end: float) -> tuple[Point, Point]:
    """Return segment a-b with `start` pixels cut from a and `end` pixels cut from b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length <= start + end or length == 0:
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        return mid, mid
    ux, uy = dx / length, dy / length
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


def dash_segments(a: Point, b: Point, dash: float, gap: float) -> list[tuple[Point, Point]]:
    """Split segment a-b into dashes of length `dash` separated by `gap`."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return []
    ux, uy = dx / length, dy / length
    out: list[tuple[Point, Point]] = []
    pos = 0.0
    while pos < length:
        stop = min(pos + dash, length)
        out.append(((a[0] + ux * pos, a[1] + uy * pos), (a[0] + ux * stop, a[1] + uy * stop)))
        pos = stop + gap
    return out


def dash_border(
    box: tuple[float, float, float, float], dash: float, inset: float = 1.0
) -> list[tuple[Point, Point]]:
    """Return the dashes of a rectangle's outline, drawn `inset` pixels inside the box."""
    x0, y0, x1, y1 = box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset
    out: list[tuple[Point, Point]] = []
    for a, z in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        out.extend(dash_segments(a, z, dash, dash))
    return out


def cased_line(
    draw: ImageDraw.ImageDraw,
    points: Sequence[Point],
    colour: RGB,
    width: int,
    casing: RGB,
    dash: float | None = None,
) -> None:
    """Draw a line with a contrasting casing so it reads on any terrain; dashed when `dash` is set."""
    if len(points) < 2:
        return
    segments: list[tuple[Point, Point]] = []
    if dash is None:
        segments = [(points[i], points[i + 1]) for i in range(len(points) - 1)]
    else:
        for i in range(len(points) - 1):
            segments.extend(dash_segments(points[i], points[i + 1], dash, dash * 0.7))
    for w, c in ((width + 2, casing), (width, colour)):
        if dash is None:
            draw.line(list(points), fill=c, width=w, joint="curve")
        else:
            for p, q in segments:
                draw.line((p, q), fill=c, width=w)
        # Round a solid line's ends and joints, which Pillow leaves square;
        # dashes stay square so their gaps stay open.
        r = (w - 1) / 2
        if r >= 1 and dash is None:
            for x, y in points:
                draw.ellipse((x - r, y - r, x + r, y + r), fill=c)


def arrowhead(
    draw: ImageDraw.ImageDraw, tail: Point, tip: Point, size: float, colour: RGB, casing: RGB
) -> None:
    """Draw a filled, cased arrowhead at `tip` pointing away from `tail`."""
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return
    ux, uy = dx / length, dy / length
    px, py = -uy, ux
    back = (tip[0] - ux * size, tip[1] - uy * size)
    half = size * 0.55
    poly = [tip, (back[0] + px * half, back[1] + py * half), (back[0] - px * half, back[1] - py * half)]
    draw.polygon(poly, fill=colour, outline=casing, width=1)


def dot(
    draw: ImageDraw.ImageDraw, centre: Point, radius: float, fill: RGB | None, outline: RGB, width: int = 1
) -> None:
    """Draw a circle centred on a point."""
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=outline, width=width)


def burst(draw: ImageDraw.ImageDraw, centre: Point, radius: float, colour: RGB, casing: RGB) -> None:
    """Draw an eight-pointed impact star."""
    x, y = centre
    pts: list[Point] = []
    for i in range(16):
        r = radius if i % 2 == 0 else radius * 0.45
        a = math.pi * i / 8
        pts.append((x + r * math.cos(a), y + r * math.sin(a)))
    draw.polygon(pts, fill=colour, outline=casing, width=1)


def cross(
    draw: ImageDraw.ImageDraw, centre: Point, radius: float, colour: RGB, casing: RGB, width: int
) -> None:
    """Draw a cased X (a miss)."""
    x, y = centre
    for w, c in ((width + 2, casing), (width, colour)):
        draw.line((x - radius, y - radius, x + radius, y + radius), fill=c, width=w)
        draw.line((x - radius, y + radius, x + radius, y - radius), fill=c, width=w)


def badge_measure(text: str, height: int) -> tuple[int, int]:
    """Return the font size and pixel width of a badge of the given height."""
    size = fit_size(text, 10 * height, max(4, height - 3), max(6, height - 2))
    return size, max(height, text_width(text, size) + 4)


def badge(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    left: int,
    top: int,
    height: int,
    text: str,
    fill: RGB,
    ink: RGB,
    outline: RGB,
) -> int:
    """Draw a smooth pill-shaped badge with centred text, at least as wide as tall; return its width."""
    size, width = badge_measure(text, height)
    paste_smooth(image, smooth_box(width, height, height / 2, fill, outline, 1), left, top)
    draw_centred(draw, left + (width - 1) / 2, top + (height - 1) / 2, text, size, ink)
    return width
