"""The unit key under the map: each token's label with the unit's name, side, owner, health and statuses.

An entry too long for its column wraps onto more lines rather than being cut. A square whose units are drawn as
one stack token gets an entry of its own, named by the square, listing who stands there.
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.fonts import draw_centred, draw_left, paste_left, text_width
from render.geometry import Geometry
from render.layers.units import pie_sprite, piled, side_colour, stacks
from render.palette import LABEL_INK, LEGEND_PAPER, OUTLINE, TEXT_INK, WHITE, Palette, ink_on
from render.shapes import paste_smooth, smooth_box
from render.view import MapView, UnitToken
from rules.coords import column_label

log = logging.getLogger(__name__)

ROW = 22
LINE = 16  # each further line of a wrapped entry
SWATCH = 16
LABEL_W = 40  # labels are at most four characters
TEXT_PX = 13
HEADER_PX = 11
HEADER_H = 22
PAD = 10
GAP = 18
MIN_COL_W = 240
MAX_COL_W = 360
MIN_TEXT_W = 80  # an entry's text wraps in at least this much room, however narrow the image
SEPARATOR = " \u00b7 "


def key_units(view: MapView, geometry: Geometry) -> list[UnitToken]:
    """Return the units the image shows, by side (in the view's order) and then by label."""
    shown = [u for group in stacks(view, geometry).values() for u in group]
    rank = {s.name: i for i, s in enumerate(view.sides)}
    return sorted(shown, key=lambda u: (rank.get(u.side, len(rank)), natural(u.label), natural(u.shown_name)))


def natural(text: str) -> tuple[tuple[int, str], ...]:
    """Return a sort key that puts U2 before U10."""
    return tuple((int(part), "") if part.isdigit() else (-1, part.lower()) for part in re.split(r"(\d+)", text) if part)


def entry_text(unit: UnitToken) -> str:
    """Return what the key says of a unit after its label: name, side, owner, health, statuses."""
    parts = [unit.shown_name, unit.side, unit.owner, unit.health_text, ", ".join(unit.statuses)]
    return SEPARATOR.join(p for p in parts if p)


def pile_text(group: list[UnitToken]) -> str:
    """Return what the key says of a stack token: how many stand on the square, each by label and name."""
    return f"{len(group)} units here: " + ", ".join(f"{u.label[:4]} {u.shown_name}" for u in group)


def wrap(text: str, room: int) -> list[str]:
    """Break text into lines of at most `room` pixels, between words; a word wider than a line is split."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if text_width(candidate, TEXT_PX) <= room:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = word
        while text_width(line, TEXT_PX) > room and len(line) > 1:
            cut = len(line) - 1
            while cut > 1 and text_width(line[:cut], TEXT_PX) > room:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
    if line or not lines:
        lines.append(line)
    return lines


@dataclass(frozen=True)
class Entry:
    """One entry of the key: a unit, or a square drawn as a stack token (`pile`), with its text's lines."""

    label: str
    lines: tuple[str, ...]
    unit: UnitToken
    pile: tuple[UnitToken, ...] = ()

    @property
    def height(self) -> int:
        """Return the entry's pixel height: a row, and a line more for each further line of its text."""
        return ROW + LINE * (len(self.lines) - 1)


@dataclass(frozen=True)
class UnitKey:
    """Lay out the unit key in columns across a given width: each column a run of entries, in order."""

    units: tuple[UnitToken, ...]
    columns: int
    column_width: int
    layout: tuple[tuple[Entry, ...], ...] = ()

    @property
    def rows(self) -> int:
        """Return how many entries the longest column holds."""
        return max((len(c) for c in self.layout), default=0)

    @property
    def height(self) -> int:
        """Return the key's pixel height (zero without units)."""
        if not self.units:
            return 0
        return 2 * PAD + HEADER_H + max(sum(e.height for e in column) for column in self.layout)

    def draw(self, canvas: Image.Image, top: int, view: MapView, palette: Palette) -> None:
        """Paint the key across the canvas from `top` down."""
        if not self.units:
            return
        draw = ImageDraw.Draw(canvas)
        draw.rectangle((0, top, canvas.width - 1, top + self.height - 1), fill=palette(LEGEND_PAPER))
        draw.line((0, top, canvas.width - 1, top), fill=palette((200, 194, 182)))
        draw_left(draw, PAD, top + PAD + HEADER_H / 2, "UNIT KEY", HEADER_PX, palette(LABEL_INK))
        ink = palette(TEXT_INK)
        for col, column in enumerate(self.layout):
            x = PAD + col * (self.column_width + GAP)
            y = top + PAD + HEADER_H
            for entry in column:
                cy = y + ROW / 2
                self._swatch(canvas, draw, entry, x, cy, view, palette)
                paste_left(canvas, x + SWATCH + 6, cy, entry.label, TEXT_PX, ink)
                for i, line in enumerate(entry.lines):
                    paste_left(canvas, x + SWATCH + 6 + LABEL_W, cy + i * LINE, line, TEXT_PX, ink)
                y += entry.height

    @staticmethod
    def _swatch(canvas: Image.Image, draw: ImageDraw.ImageDraw, entry: Entry, x: int, cy: float, view: MapView,
                palette: Palette) -> None:
        """Paint an entry's swatch: the unit's token, or the stack token with its count."""
        if entry.pile:
            fills = [side_colour(view, palette, u.side) for u in entry.pile]
            paste_smooth(canvas, pie_sprite(SWATCH // 2, fills, 1, palette(OUTLINE)), x - 1, round(cy - SWATCH / 2) - 1)
            draw_centred(draw, x + SWATCH / 2, cy, str(len(entry.pile)), 9, palette(WHITE))
            return
        unit = entry.unit
        colour = side_colour(view, palette, unit.side)
        radius = 3 if unit.is_horde else SWATCH / 2
        sprite = smooth_box(SWATCH, SWATCH, radius, colour, palette(OUTLINE), 1,
                            ink_on(colour) if unit.is_horde else None)
        paste_smooth(canvas, sprite, x, round(cy - SWATCH / 2))


def _columns(entries: list[Entry], columns: int) -> tuple[tuple[Entry, ...], ...]:
    """Flow entries, in order, into at most `columns` columns of about the same height."""
    total = sum(e.height for e in entries)
    target = math.ceil(total / columns)
    out: list[list[Entry]] = [[]]
    height = 0
    for entry in entries:
        if out[-1] and height + entry.height > target and len(out) < columns:
            out.append([])
            height = 0
        out[-1].append(entry)
        height += entry.height
    return tuple(tuple(c) for c in out)


def build_key(view: MapView, geometry: Geometry, width: int) -> UnitKey:
    """Collect the units shown and flow them into as many columns as `width` holds, long entries wrapped."""
    units = key_units(view, geometry)
    if not units:
        return UnitKey((), 1, MIN_COL_W)
    piles = [(xy, g) for xy, g in sorted(stacks(view, geometry).items(), key=lambda i: (i[0][1], i[0][0]))
             if piled(len(g), geometry.cell_px)]
    texts = [entry_text(u) for u in units] + [pile_text(g) for _, g in piles]
    widest = max(text_width(t, TEXT_PX) for t in texts)
    column = max(MIN_COL_W, min(MAX_COL_W, SWATCH + 6 + LABEL_W + widest))
    count = len(units) + len(piles)
    columns = min(max(1, (width - 2 * PAD + GAP) // (column + GAP)), count)
    if columns > 1:
        # Share the width out so the columns spread across the whole image.
        column = min(MAX_COL_W, (width - 2 * PAD - GAP * (columns - 1)) // columns)
    else:
        # One column on a narrow image: no wider than the image, so its lines wrap inside it.
        column = max(SWATCH + 6 + LABEL_W + MIN_TEXT_W, min(column, width - 2 * PAD))
    room = column - SWATCH - 6 - LABEL_W
    entries = [Entry(u.label[:4], tuple(wrap(entry_text(u), room)), u) for u in units]
    entries += [Entry(f"{column_label(x)}{y + 1}", tuple(wrap(pile_text(g), room)), g[0], tuple(g))
                for (x, y), g in piles]
    return UnitKey(tuple(units), columns, column, _columns(entries, columns))


