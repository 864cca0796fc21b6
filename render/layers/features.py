"""Features: fortifications and obstacles, drawn as a coloured frame and a short tag."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from PIL import Image, ImageDraw

from render.fonts import draw_centred, fit_size, text_width
from render.geometry import Geometry
from render.palette import WHITE, Palette, ink_on
from render.shapes import dash_border
from render.view import FeatureMark

log = logging.getLogger(__name__)


def draw_features(
    grid: Image.Image, geometry: Geometry, palette: Palette, features: Iterable[FeatureMark]
) -> None:
    """Draw every feature inside the window; hidden ones get a dashed frame and a hollow tag."""
    cp = geometry.cell_px
    draw = ImageDraw.Draw(grid)
    frame_w = max(2, cp // 12)
    tag_h = max(7, round(cp * 0.34))
    for feature in features:
        if not geometry.contains(feature.x, feature.y):
            continue
        colour = palette(feature.color)
        left, top, right, bottom = geometry.local_box(feature.x, feature.y)
        inner = (left + 1, top + 1, right - 1, bottom - 1)
        if feature.hidden:
            for p, q in dash_border(inner, max(3, cp // 6), frame_w / 2):
                draw.line((p, q), fill=colour, width=frame_w)
        else:
            draw.rectangle(inner, outline=colour, width=frame_w)
        text = feature.label[:3]
        if not text:
            continue
        size = fit_size(text, cp - 4, tag_h - 2, tag_h)
        tw = max(tag_h, text_width(text, size) + 4)
        tag = (left + 1, bottom - tag_h, left + tw, bottom - 1)
        if feature.hidden:
            draw.rectangle(tag, fill=palette(WHITE), outline=colour, width=1)
            ink = colour
        else:
            draw.rectangle(tag, fill=colour)
            ink = ink_on(colour)
        draw_centred(draw, (tag[0] + tag[2]) / 2, (tag[1] + tag[3]) / 2, text, size, ink)
