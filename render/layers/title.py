"""The title bar: the battle's title on the left, what the image shows on the right."""

from __future__ import annotations

import logging

from PIL import Image, ImageDraw

from render.fonts import draw_left, draw_right, ellipsize, text_width
from render.geometry import TITLE_FONT_PX, Geometry
from render.palette import TITLE_BG, TITLE_INK, TITLE_SUBTLE, Palette
from render.view import MapView
from rules.coords import column_label

log = logging.getLogger(__name__)

SUBTITLE_PX = 12
PAD = 10


def window_text(geometry: Geometry) -> str:
    """Return the subtitle: the squares shown and the map size, e.g. "F3:Q14 of 40x40"."""
    # Plain "x" and ":" because the bundled font has no multiplication sign or en dash.
    x0, y0, x1, y1 = geometry.crop
    size = f"{geometry.map_width}x{geometry.map_height}"
    if (x0, y0, x1, y1) == (0, 0, geometry.map_width - 1, geometry.map_height - 1):
        return f"Whole map {size}"
    return f"{column_label(x0)}{y0 + 1}:{column_label(x1)}{y1 + 1} of {size}"


def draw_title(canvas: Image.Image, view: MapView, geometry: Geometry, palette: Palette) -> None:
    """Fill the bar across the top of the canvas and write the title and subtitle."""
    draw = ImageDraw.Draw(canvas)
    width, height = canvas.width, geometry.title_height
    draw.rectangle((0, 0, width - 1, height - 1), fill=palette(TITLE_BG))
    cy = height / 2
    sub = window_text(geometry)
    sub_w = text_width(sub, SUBTITLE_PX)
    room = width - 3 * PAD - sub_w
    if room < 80:
        # Too narrow for both: the title matters more than the window.
        sub, room = "", width - 2 * PAD
    title = ellipsize(view.title, TITLE_FONT_PX, room)
    draw_left(draw, PAD, cy, title, TITLE_FONT_PX, palette(TITLE_INK))
    if sub:
        draw_right(draw, width - PAD, cy, sub, SUBTITLE_PX, palette(TITLE_SUBTLE))
