"""Where things go: cell size, crop window, label gutters, and cell pixel boxes."""

from __future__ import annotations

import logging
import math
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass

from render.fonts import text_height, text_width
from render.view import MapView
from rules.coords import Cell, column_label

log = logging.getLogger(__name__)

Box = tuple[int, int, int, int]
Crop = tuple[int, int, int, int]
XY = tuple[int, int]

MIN_CELL_PX = 8
CELL_STEP = 4
MAX_CELL_PX = 96
TITLE_FONT_PX = 16
TITLE_HEIGHT = 30
TITLE_HEIGHT_TWO_LINES = 50  # the title, then the round, the phase and who acts now
MAP_EDGE_PX = 2  # the dark frame drawn outside the grid where the map really ends
LABEL_PAD = 4
MIN_CROP = 12


def default_cell_px(cols: int, rows: int) -> int:
    """Return a readable cell size for a window of cols x rows squares."""
    # A crop of up to 30 squares gets 40 px, so every unit of a shared square reads;
    # 40 squares -> 28 px; 100 squares -> 18 px keeps the image under ~2000 px a
    # side, so it encodes fast and stays far below 10 MiB. Sizes go in steps of 4 px
    # so that crops of a map share the base layer's cached blocks (one set per size).
    return max(18, min(40, 1200 // max(cols, rows) // CELL_STEP * CELL_STEP))


def label_font_px(cell_px: int) -> int:
    """Return the font size of the edge labels for a cell size."""
    return max(9, min(14, round(cell_px * 0.44)))


def normalise_crop(width: int, height: int, crop: Crop | None) -> Crop:
    """Return an inclusive crop window clamped to the map, or the whole map for None."""
    if crop is None:
        return (0, 0, width - 1, height - 1)
    x0, y0, x1, y1 = crop
    if x0 > x1 or y0 > y1:
        raise ValueError(f"crop {crop} is empty: use (x0, y0, x1, y1) with x0 <= x1 and y0 <= y1")
    cx0, cy0 = max(0, x0), max(0, y0)
    cx1, cy1 = min(width - 1, x1), min(height - 1, y1)
    if cx0 > cx1 or cy0 > cy1:
        raise ValueError(f"crop {crop} lies outside the {width}x{height} map")
    return (cx0, cy0, cx1, cy1)


def _window(lo: int, hi: int, size: int, limit: int) -> tuple[int, int]:
    """Grow [lo, hi] to at least `size` squares, then slide it inside [0, limit)."""
    span = hi - lo + 1
    if span < size:
        extra = size - span
        lo -= extra // 2
        hi += extra - extra // 2
    if lo < 0:
        hi -= lo
        lo = 0
    if hi > limit - 1:
        lo -= hi - (limit - 1)
        hi = limit - 1
    return max(0, lo), min(limit - 1, hi)


def crop_around(
    view: MapView,
    cells: Iterable[tuple[int, int] | Cell],
    margin: int = 4,
    min_size: int = MIN_CROP,
) -> Crop:
    """Return a crop window around cells plus a margin, at least min_size squares a side, inside the map."""
    points = [(c.x, c.y) if isinstance(c, Cell) else (c[0], c[1]) for c in cells]
    if not points:
        return (0, 0, view.width - 1, view.height - 1)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, x1 = _window(min(xs) - margin, max(xs) + margin, min_size, view.width)
    y0, y1 = _window(min(ys) - margin, max(ys) + margin, min_size, view.height)
    return (x0, y0, x1, y1)


@dataclass(frozen=True)
class Geometry:
    """Lay out one image: the title bar, the label gutters and the grid of squares.

    Canvas coordinates have the origin at the image's top-left. Square (x, y)
    covers `cell_box(x, y)`, right and bottom exclusive; its top and left pixel
    lines carry the grid line.
    """

    map_width: int
    map_height: int
    crop: Crop
    cell_px: int
    label_px: int
    gutter_left: int
    gutter_top: int
    gutter_right: int
    gutter_bottom: int
    label_step: int
    title_height: int = TITLE_HEIGHT

    @classmethod
    def build(
        cls,
        map_width: int,
        map_height: int,
        crop: Crop | None = None,
        cell_px: int | None = None,
        title_height: int = TITLE_HEIGHT,
    ) -> Geometry:
        """Lay out a map of the given size, cropped and scaled as asked."""
        window = normalise_crop(map_width, map_height, crop)
        cols = window[2] - window[0] + 1
        rows = window[3] - window[1] + 1
        cp = default_cell_px(cols, rows) if cell_px is None else int(cell_px)
        if not MIN_CELL_PX <= cp <= MAX_CELL_PX:
            raise ValueError(f"cell_px must be between {MIN_CELL_PX} and {MAX_CELL_PX}, got {cp}")
        lp = label_font_px(cp)
        widest_col = max(text_width(column_label(x), lp) for x in range(window[0], window[2] + 1))
        widest_row = text_width(str(window[3] + 1), lp)
        # Thin out column labels when two letters do not fit a narrow square.
        step = max(1, math.ceil((widest_col + 3) / cp))
        label_h = text_height("A1", lp)
        side = widest_row + 2 * LABEL_PAD + MAP_EDGE_PX
        top = label_h + 2 * LABEL_PAD + MAP_EDGE_PX
        return cls(
            map_width=map_width,
            map_height=map_height,
            crop=window,
            cell_px=cp,
            label_px=lp,
            gutter_left=side,
            gutter_top=top,
            gutter_right=side,
            gutter_bottom=top,
            label_step=step,
            title_height=title_height,
        )

    @classmethod
    def for_view(cls, view: MapView, crop: Crop | None = None, cell_px: int | None = None) -> Geometry:
        """Lay out a view's map, cropped and scaled as asked."""
        title = TITLE_HEIGHT_TWO_LINES if view.status else TITLE_HEIGHT
        return cls.build(view.width, view.height, crop, cell_px, title)

    @property
    def cols(self) -> int:
        """Return the number of columns shown."""
        return self.crop[2] - self.crop[0] + 1

    @property
    def rows(self) -> int:
        """Return the number of rows shown."""
        return self.crop[3] - self.crop[1] + 1

    @property
    def grid_width(self) -> int:
        """Return the grid's pixel width, closing line included."""
        return self.cols * self.cell_px + 1

    @property
    def grid_height(self) -> int:
        """Return the grid's pixel height, closing line included."""
        return self.rows * self.cell_px + 1

    @property
    def board_width(self) -> int:
        """Return the width of the grid plus its label gutters."""
        return self.gutter_left + self.grid_width + self.gutter_right

    @property
    def board_height(self) -> int:
        """Return the height of the grid plus its label gutters."""
        return self.gutter_top + self.grid_height + self.gutter_bottom

    @property
    def grid_left(self) -> int:
        """Return the canvas x of the grid's left line."""
        return self.gutter_left

    @property
    def grid_top(self) -> int:
        """Return the canvas y of the grid's top line."""
        return self.title_height + self.gutter_top

    def contains(self, x: int, y: int) -> bool:
        """Return whether square (x, y) is inside the crop window."""
        return self.crop[0] <= x <= self.crop[2] and self.crop[1] <= y <= self.crop[3]

    def local_box(self, x: int, y: int) -> Box:
        """Return the box of square (x, y) relative to the grid's top-left."""
        left = (x - self.crop[0]) * self.cell_px
        top = (y - self.crop[1]) * self.cell_px
        return (left, top, left + self.cell_px, top + self.cell_px)

    def local_centre(self, x: int, y: int) -> tuple[float, float]:
        """Return the centre of square (x, y) relative to the grid's top-left."""
        # The grid line takes the box's first pixel, so the middle of the
        # visible interior sits at half a cell from the line.
        left, top, _, _ = self.local_box(x, y)
        half = self.cell_px / 2
        return (left + half, top + half)

    def near(self, x: int, y: int, reach: int) -> list[XY]:
        """Return the squares inside the window at most `reach` squares from (x, y) across and down."""
        x0, y0, x1, y1 = self.crop
        xs = range(max(x0, x - reach), min(x1, x + reach) + 1)
        return [(sx, sy) for sy in range(max(y0, y - reach), min(y1, y + reach) + 1) for sx in xs]

    def touches(self, x: int, y: int, reach: int, squares: Collection[XY]) -> bool:
        """Return whether any of `squares` lies at most `reach` squares from (x, y)."""
        return any(c in squares for c in self.near(x, y, reach))

    def under(self, box: tuple[float, float, float, float]) -> Iterator[XY]:
        """Yield the squares inside the window that a box of the grid's pixels (edges included) touches."""
        cp = self.cell_px
        x0, y0, x1, y1 = self.crop
        left, top, right, bottom = box
        for sy in range(max(y0, y0 + math.floor(top) // cp), min(y1, y0 + math.floor(bottom) // cp) + 1):
            for sx in range(max(x0, x0 + math.floor(left) // cp), min(x1, x0 + math.floor(right) // cp) + 1):
                yield (sx, sy)

    def cell_box(self, x: int, y: int) -> Box:
        """Return the canvas box of square (x, y), right and bottom exclusive."""
        left, top, right, bottom = self.local_box(x, y)
        return (left + self.grid_left, top + self.grid_top, right + self.grid_left, bottom + self.grid_top)

    def cell_centre(self, x: int, y: int) -> tuple[int, int]:
        """Return the canvas pixel at the centre of square (x, y)."""
        left, top, _, _ = self.cell_box(x, y)
        return (left + self.cell_px // 2, top + self.cell_px // 2)


def cell_box(
    view: MapView | Geometry,
    x: int,
    y: int,
    cell_px: int | None = None,
    crop: Crop | None = None,
) -> Box:
    """Return the canvas box (left, top, right, bottom) of square (x, y) in `render_map`'s image."""
    geometry = view if isinstance(view, Geometry) else Geometry.for_view(view, crop, cell_px)
    return geometry.cell_box(x, y)
