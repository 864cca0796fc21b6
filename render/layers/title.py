"""The title bar: the battle's title, the round, phase and who acts now, and what the image shows.

The image is made wide enough for the title bar, so a crop never cuts the title: only a title
wider than MAX_TITLE_W (far beyond any battle name) is shortened.
"""

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
STATUS_PX = 13
PAD = 10
MAX_TITLE_W = 1600


def window_text(geometry: Geometry) -> str:
    """Return the subtitle: the squares shown and the map size, e.g. "F3:Q14 of 40x40"."""
    # Plain "x" and ":" because the bundled font has no multiplication sign or en dash.
    x0, y0, x1, y1 = geometry.crop
    size = f"{geometry.map_width}x{geometry.map_height}"
    if (x0, y0, x1, y1) == (0, 0, geometry.map_width - 1, geometry.map_height - 1):
        return f"Whole map {size}"
    return f"{column_label(x0)}{y0 + 1}:{column_label(x1)}{y1 + 1} of {size}"


def title_width(view: MapView, geometry: Geometry) -> int:
    """Return the image width the title bar needs to show everything uncut (capped at MAX_TITLE_W)."""
    sub = text_width(window_text(geometry), SUBTITLE_PX)
    title = text_width(view.title, TITLE_FONT_PX)
    if view.status:
        need = max(2 * PAD + title, 4 * PAD + text_width(view.status, STATUS_PX) + sub)
    else:
        need = 4 * PAD + title + sub
    return min(MAX_TITLE_W, need)


def draw_title(canvas: Image.Image, view: MapView, geometry: Geometry, palette: Palette) -> None:
    """Fill the bar across the top of the canvas and write the title, the status line and the window."""
    draw = ImageDraw.Draw(canvas)
    width, height = canvas.width, geometry.title_height
    draw.rectangle((0, 0, width - 1, height - 1), fill=palette(TITLE_BG))
    sub = window_text(geometry)
    sub_w = text_width(sub, SUBTITLE_PX)
    if view.status:
        top_cy, low_cy = height * 0.3, height * 0.72
        draw_left(draw, PAD, top_cy, ellipsize(view.title, TITLE_FONT_PX, width - 2 * PAD), TITLE_FONT_PX,
                  palette(TITLE_INK))
        status = ellipsize(view.status, STATUS_PX, width - 4 * PAD - sub_w)
        draw_left(draw, PAD, low_cy, status, STATUS_PX, palette(TITLE_INK))
        draw_right(draw, width - PAD, low_cy, sub, SUBTITLE_PX, palette(TITLE_SUBTLE))
        return
    cy = height / 2
    room = width - 4 * PAD - sub_w
    title = ellipsize(view.title, TITLE_FONT_PX, room)
    draw_left(draw, PAD, cy, title, TITLE_FONT_PX, palette(TITLE_INK))
    draw_right(draw, width - PAD, cy, sub, SUBTITLE_PX, palette(TITLE_SUBTLE))
