"""The unit key under the map: each token's label with the unit's name, side, owner, health and statuses."""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.fonts import draw_left, ellipsize, paste_left, text_width
from render.geometry import Geometry
from render.layers.units import side_colour, stacks
from render.palette import LABEL_INK, LEGEND_PAPER, OUTLINE, TEXT_INK, Palette, ink_on
from render.shapes import paste_smooth, smooth_box
from render.view import MapView, UnitToken

log = logging.getLogger(__name__)

ROW = 22
SWATCH = 16
LABEL_W = 40  # labels are at most four characters
TEXT_PX = 13
HEADER_PX = 11
HEADER_H = 22
PAD = 10
GAP = 18
MIN_COL_W = 240
MAX_COL_W = 360
SEPARATOR = " \u00b7 "


def key_units(view: MapView, geometry: Geometry) -> list[UnitToken]:
    """Return the units the image shows, by side (in the view's order) and then by label."""
    shown = [u for group in stacks(view, geometry).values() for u in group]
    rank = {s.name: i for i, s in enumerate(view.sides)}
    return sorted(shown, key=lambda u: (rank.get(u.side, len(rank)), natural(u.label), natural(u.shown_name)))


def natural(text: str) -> tuple[tuple[int, str], ...]:
    """Return a sort key that puts U2 before U10."""
    return tuple((int(part), "") if part.isdigit() else (-1, part.lower()) for part in re.split(r"(\d+)", text) if part)


def entry_text(unit: UnitToken, name_w: int | None = None) -> str:
    """Return what the key says of a unit after its label: name, side, owner, health, statuses.

    With `name_w`, a long name is shortened to that many pixels so the rest of the entry still shows.
    """
    name = unit.shown_name if name_w is None else ellipsize(unit.shown_name, TEXT_PX, name_w)
    parts = [name, unit.side, unit.owner, unit.health_text, ", ".join(unit.statuses)]
    return SEPARATOR.join(p for p in parts if p)


@dataclass(frozen=True)
class UnitKey:
    """Lay out the unit key in columns across a given width."""

    units: tuple[UnitToken, ...]
    columns: int
    column_width: int

    @property
    def rows(self) -> int:
        """Return how many rows the key takes."""
        return math.ceil(len(self.units) / self.columns) if self.units else 0

    @property
    def height(self) -> int:
        """Return the key's pixel height (zero without units)."""
        return 0 if not self.units else 2 * PAD + HEADER_H + self.rows * ROW

    def draw(self, canvas: Image.Image, top: int, view: MapView, palette: Palette) -> None:
        """Paint the key across the canvas from `top` down."""
        if not self.units:
            return
        draw = ImageDraw.Draw(canvas)
        draw.rectangle((0, top, canvas.width - 1, top + self.height - 1), fill=palette(LEGEND_PAPER))
        draw.line((0, top, canvas.width - 1, top), fill=palette((200, 194, 182)))
        draw_left(draw, PAD, top + PAD + HEADER_H / 2, "UNIT KEY", HEADER_PX, palette(LABEL_INK))
        text_room = self.column_width - SWATCH - 6 - LABEL_W
        for i, unit in enumerate(self.units):
            col, row = divmod(i, self.rows)
            x = PAD + col * (self.column_width + GAP)
            cy = top + PAD + HEADER_H + row * ROW + ROW / 2
            colour = side_colour(view, palette, unit.side)
            radius = 3 if unit.is_horde else SWATCH / 2
            sprite = smooth_box(SWATCH, SWATCH, radius, colour, palette(OUTLINE), 1,
                                ink_on(colour) if unit.is_horde else None)
            paste_smooth(canvas, sprite, x, round(cy - SWATCH / 2))
            ink = palette(TEXT_INK)
            paste_left(canvas, x + SWATCH + 6, cy, unit.label[:4], TEXT_PX, ink)
            text = entry_text(unit)
            if text_width(text, TEXT_PX) > text_room:
                text = ellipsize(entry_text(unit, text_room * 2 // 5), TEXT_PX, text_room)
            paste_left(canvas, x + SWATCH + 6 + LABEL_W, cy, text, TEXT_PX, ink)


def build_key(view: MapView, geometry: Geometry, width: int) -> UnitKey:
    """Collect the units shown and flow them into as many columns as `width` holds."""
    units = key_units(view, geometry)
    if not units:
        return UnitKey((), 1, MIN_COL_W)
    widest = max(text_width(entry_text(u), TEXT_PX) for u in units)
    column = max(MIN_COL_W, min(MAX_COL_W, SWATCH + 6 + LABEL_W + widest))
    columns = max(1, (width - 2 * PAD + GAP) // (column + GAP))
    columns = min(columns, len(units))
    if columns > 1:
        # Share the width out so the columns spread across the whole image.
        column = min(MAX_COL_W, (width - 2 * PAD - GAP * (columns - 1)) // columns)
    return UnitKey(tuple(units), columns, column)


