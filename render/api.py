"""The renderer's entry points: a view (plus overlays) in, PNG bytes out."""

from __future__ import annotations

import logging
import threading
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.cache import KeptFrames
from render.geometry import Crop, Geometry
from render.key import UnitKey, build_key
from render.layers.areas import draw_area_marks, draw_area_tints
from render.layers.base import BASE_CACHE, BLOCK_CACHE, BaseLayer, base_key, base_layer
from render.layers.effects import draw_effects
from render.layers.features import draw_features
from render.layers.labels import draw_labels
from render.layers.overlays import draw_overlays, draw_reachable
from render.layers.title import draw_title, title_width
from render.layers.units import draw_units, piled, stacks
from render.legend import SWATCH as LEGEND_SWATCH
from render.legend import Legend, build_legend
from render.palette import LEGEND_PAPER, PAPER, Palette, palette_named
from render.png import BAND_ROWS, Frame, encode_frame, frame_png, write_png
from render.scene import Squares, changed_squares, grid_squares
from render.view import (
    XY,
    AreaOfEffect,
    LineOfFire,
    MapView,
    Marker,
    MissLanding,
    MovePath,
    Overlay,
    SquareChoices,
    TargetSquare,
)

log = logging.getLogger(__name__)

# The last picture of each battle's map: its pixels, deflated bands and what each square showed, so the next map
# of that battle repaints only the squares that changed and deflates only the bands of rows that changed.
# Each keeps its base layer too, so a repaint never waits for one to be built again when many battles take turns.
# Kept with its base, a crop of a 40x40 map takes about 3 MB, a whole 16x16 map 5, a whole 40x40 map 13 and a
# whole 100x100 map 35: the bound caps the memory, the least recently drawn battles dropped first.
FRAME_BUDGET = 48 * 1024 * 1024
# Images kept to draw on again (a grid to repaint on, a canvas a newer picture replaced): a new image of some
# megabytes costs the kernel as much as drawing it, page by page. The bound caps their memory.
SCRATCH_BUDGET = 16 * 1024 * 1024
SQUARE_BYTES = 120  # about what a square's drawings take in a kept picture's scene


@dataclass(frozen=True)
class Scene:
    """Remember what a picture showed: what fixes its layout, each square's drawings, and its legend, key and title.

    `fixed` must be equal for a kept picture to be repainted in place; the other parts say which regions to paint.
    """

    fixed: tuple[object, ...]
    geometry: Geometry
    squares: Squares
    legend: object
    key: object
    key_height: int
    board_height: int
    title: object


@dataclass(frozen=True)
class Drawn:
    """A battle's kept picture: its encoded frame, the RGB canvas drawn on, its base layer, and what it showed."""

    frame: Frame
    scene: Scene | None  # None: the next picture under its key is drawn whole
    base: BaseLayer
    base_key: tuple[object, ...]
    grey_of: Image.Image | None = None  # the RGB canvas of a grey frame (a colour frame's image is its canvas)

    @property
    def canvas(self) -> Image.Image:
        """Return the RGB canvas the picture was drawn on."""
        return self.grey_of if self.grey_of is not None else self.frame.image

    @property
    def nbytes(self) -> int:
        """Return about how many bytes the kept picture holds: frame, a grey frame's canvas, base, squares' drawings."""
        canvas = _bytes(self.grey_of) if self.grey_of is not None else 0
        squares = len(self.scene.squares.at) * SQUARE_BYTES if self.scene is not None else 0
        base = _bytes(self.base.image)  # counted even while the cache shares it
        return self.frame.nbytes + canvas + squares + base


FRAMES: KeptFrames[Drawn] = KeptFrames(FRAME_BUDGET, lambda drawn: drawn.nbytes)


@dataclass
class RepaintCounts:
    """Count the kept maps repainted in place, those drawn whole, and the squares repainted (for tests and benchmarks)."""

    repainted: int = 0
    whole: int = 0
    squares: int = 0
    last_squares: int = 0

    def add(self, squares: int | None) -> None:
        """Count one map: repainted on `squares` squares, or drawn whole when None."""
        with _COUNT_LOCK:
            if squares is None:
                self.whole += 1
                return
            self.repainted += 1
            self.squares += squares
            self.last_squares = squares

    def reset(self) -> None:
        """Set every count back to zero."""
        with _COUNT_LOCK:
            self.repainted = self.whole = self.squares = self.last_squares = 0


_COUNT_LOCK = threading.Lock()
REPAINTS = RepaintCounts()
_SCRATCH: list[Image.Image] = []
_SCRATCH_LOCK = threading.Lock()


@dataclass(frozen=True)
class _Layout:
    """Where a picture's parts go: its base, legend, key and the canvas size they make."""

    geometry: Geometry
    base: BaseLayer
    legend: Legend
    width: int
    board_height: int


def _layout(view: MapView, geometry: Geometry, pal: Palette, overlays: Sequence[Overlay],
            base: BaseLayer | None = None) -> _Layout:
    """Lay out a picture's board (on the given base layer, else the cached one) and legend, and the width they and
    the title bar need."""
    if base is None:
        base = base_layer(view, geometry, pal)
    legend = build_legend(view, geometry, pal, base.terrain_keys, overlays, geometry.board_height)
    # Wide enough for the whole title bar: a narrow crop never cuts the title.
    width = max(geometry.board_width + legend.width, title_width(view, geometry))
    return _Layout(geometry, base, legend, width, max(geometry.board_height, legend.height))


def _paint_grid(grid: Image.Image, geometry: Geometry, pal: Palette, view: MapView, overlays: Sequence[Overlay],
                only: set[XY] | None = None) -> None:
    """Paint everything over the grid's ground; with `only`, the tokens and marks that reach those squares and
    every overlay (the caller takes only those squares' pixels)."""
    features = view.features if only is None else tuple(f for f in view.features
                                                        if geometry.touches(f.x, f.y, 1, only))
    effects = view.effects if only is None else tuple(e for e in view.effects if (e.x, e.y) in only)
    draw_features(grid, geometry, pal, features)
    draw_effects(grid, geometry, pal, effects)
    draw_reachable(grid, geometry, pal, overlays, only)
    draw_area_tints(grid, geometry, pal, overlays)
    labels = draw_units(grid, geometry, pal, view, only)
    draw_area_marks(grid, geometry, pal, overlays)
    draw_overlays(grid, geometry, pal, overlays, frozenset(stacks(view, geometry)))
    draw_labels(grid, labels)  # last: no arrow, marker or badge covers a token's label


def _paint_legend(canvas: Image.Image, layout: _Layout, pal: Palette) -> None:
    """Paint the legend beside the board, on its paper down to the board's foot."""
    geometry, legend = layout.geometry, layout.legend
    legend_bottom = geometry.title_height + layout.board_height - 1
    if layout.width > geometry.board_width + legend.width or not legend.columns:
        ImageDraw.Draw(canvas).rectangle(
            (geometry.board_width, geometry.title_height, layout.width - 1, legend_bottom), fill=pal(LEGEND_PAPER)
        )
    legend.draw(canvas, geometry.board_width, geometry.title_height, legend_bottom, pal)


def _draw_whole(view: MapView, layout: _Layout, pal: Palette, overlays: Sequence[Overlay],
                key: UnitKey | None, canvas: Image.Image | None = None) -> Image.Image:
    """Draw the whole picture on a new RGB canvas, or over every pixel of the one given (of the picture's size)."""
    geometry = layout.geometry
    gl, gt = geometry.gutter_left, geometry.gutter_top
    # Draw on a copy of the grid alone, so nothing spills into the labels.
    grid = layout.base.image.crop((gl, gt, gl + geometry.grid_width, gt + geometry.grid_height))
    _paint_grid(grid, geometry, pal, view, overlays)
    height = geometry.title_height + layout.board_height + (key.height if key else 0)
    if canvas is None:
        canvas = Image.new("RGB", (layout.width, height), pal(PAPER))
    else:
        canvas.paste(pal(PAPER), (0, 0, *canvas.size))
    canvas.paste(layout.base.image, (0, geometry.title_height))
    canvas.paste(grid, (gl, geometry.title_height + gt))
    _paint_legend(canvas, layout, pal)
    if key is not None:
        key.draw(canvas, geometry.title_height + layout.board_height, view, pal)
    draw_title(canvas, view, geometry, pal)
    return canvas


def render_image(
    view: MapView,
    *,
    overlays: Sequence[Overlay] = (),
    crop: Crop | None = None,
    cell_px: int | None = None,
    palette: str = "colour",
    show_key: bool = True,
) -> Image.Image:
    """Draw the map and return the image: RGB, or L for the grey palette.

    Thread-safe: only the base-layer cache is shared, and it is locked and
    never drawn on; everything else is built fresh per call.
    """
    pal = palette_named(palette)
    geometry = Geometry.for_view(view, crop, cell_px)
    layout = _layout(view, geometry, pal, overlays)
    key = build_key(view, geometry, layout.width) if show_key else None
    canvas = _draw_whole(view, layout, pal, overlays, key)
    if pal.grey:
        # Every colour already went through the grey palette; L mode makes it exact and smaller.
        return canvas.convert("L")
    return canvas


def encode_png(image: Image.Image) -> bytes:
    """Encode an image as PNG bytes, unfiltered at the fastest compression level (see render.png)."""
    return write_png(image)


def render_map(
    view: MapView,
    *,
    overlays: Sequence[Overlay] = (),
    crop: Crop | None = None,
    cell_px: int | None = None,
    palette: str = "colour",
    show_key: bool = True,
    keep: Hashable | None = None,
) -> bytes:
    """Draw the map and return it as PNG bytes; the same input always gives the same bytes.

    `crop` is (x0, y0, x1, y1) in squares, inclusive; `palette` is "colour" or "grey"; the unit
    key under the map lists every unit shown unless `show_key` is False. With `keep` (a battle's key),
    the picture is kept, and the next map under that key at the same window repaints only the squares whose
    drawings changed (and the legend, key and title when theirs did) and deflates only the bands of rows that
    changed: the bytes are those of a map drawn and encoded afresh.
    Run it in a worker thread (`asyncio.to_thread`): it is thread-safe.
    """
    if keep is None:
        image = render_image(view, overlays=overlays, crop=crop, cell_px=cell_px, palette=palette,
                             show_key=show_key)
        data = encode_png(image)
        log.debug("rendered %s: %dx%d px, %d bytes", view.map_version, image.width, image.height, len(data))
        return data
    kept = FRAMES.take(keep)  # ours alone until kept again: no other thread draws on it meanwhile
    pal = palette_named(palette)
    geometry = Geometry.for_view(view, crop, cell_px)
    key = base_key(view, geometry, pal)
    layout = _layout(view, geometry, pal, overlays, kept.base if kept is not None and kept.base_key == key else None)
    drawn = _draw_kept(view, layout, pal, overlays, show_key, kept, key)
    FRAMES.keep(keep, drawn)
    data = frame_png(drawn.frame)
    log.debug("rendered %s: %dx%d px, %d bytes", view.map_version, *drawn.frame.size, len(data))
    return data


def _draw_kept(view: MapView, layout: _Layout, pal: Palette, overlays: Sequence[Overlay], show_key: bool,
               kept: Drawn | None, base: tuple[object, ...]) -> Drawn:
    """Draw a battle's picture: the kept one repainted where it changed, or afresh when its layout changed."""
    geometry = layout.geometry
    fixed = (view.map_version, view.width, view.height, view.sides, geometry, pal.name, show_key)
    squares = grid_squares(view, geometry, overlays)
    legend = _legend_sig(layout.legend)
    key_sig = _key_sig(view, geometry, layout.width) if show_key else None
    title = (view.title, view.status, layout.width)
    old = kept.scene if kept is not None else None
    key: UnitKey | None = None
    if old is not None and old.fixed == fixed and old.key == key_sig:
        key_height = old.key_height
    else:
        key = build_key(view, geometry, layout.width) if show_key else None
        key_height = key.height if key is not None else 0
    scene = Scene(fixed, geometry, squares, legend, key_sig, key_height, layout.board_height, title)
    height = geometry.title_height + layout.board_height + key_height
    if (kept is None or old is None or old.fixed != fixed or kept.frame.size != (layout.width, height)
            or old.board_height != layout.board_height or old.key_height != key_height):
        if key is None and show_key:
            key = build_key(view, geometry, layout.width)
        canvas = _draw_whole(view, layout, pal, overlays, key, _take_scratch((layout.width, height)))
        REPAINTS.add(None)
        # Every colour already went through the grey palette; L mode makes it exact and smaller.
        image = canvas.convert("L") if pal.grey else canvas
        drawn = Drawn(encode_frame(image, kept.frame if kept is not None else None), scene, layout.base, base,
                      canvas if pal.grey else None)
        if kept is not None:
            _give_scratch(kept.canvas)  # replaced: its pixels are drawn over by a later picture
        return drawn
    canvas = kept.canvas
    rows: list[tuple[int, int]] = []
    dirty = changed_squares(old.squares, squares)
    if dirty:
        rows += _repaint(canvas, view, layout, pal, overlays, dirty)
    th = geometry.title_height
    if legend != old.legend:
        _clear_legend(canvas, layout, pal)
        _paint_legend(canvas, layout, pal)
        rows.append((th, th + layout.board_height))
    if key is not None:
        key.draw(canvas, th + layout.board_height, view, pal)
        rows.append((th + layout.board_height, height))
    if title != old.title:
        draw_title(canvas, view, geometry, pal)
        rows.append((0, th))
    REPAINTS.add(len(dirty))
    bands = {b for top, bottom in rows for b in range(top // BAND_ROWS, (bottom - 1) // BAND_ROWS + 1)}
    if not pal.grey:
        return Drawn(encode_frame(canvas, kept.frame, bands), scene, layout.base, base)
    grey = kept.frame.image  # the kept grey image, made again from the canvas's changed rows only
    for band in bands:
        box = (0, band * BAND_ROWS, canvas.width, min(canvas.height, (band + 1) * BAND_ROWS))
        grey.paste(canvas.crop(box).convert("L"), box[:2])
    return Drawn(encode_frame(grey, kept.frame, bands), scene, layout.base, base, canvas)


def _clear_legend(canvas: Image.Image, layout: _Layout, pal: Palette) -> None:
    """Put back what lies under the legend: paper, and the board's gutter a swatch's stripes may reach into."""
    geometry = layout.geometry
    th, bw = geometry.title_height, geometry.board_width
    reach = min(LEGEND_SWATCH, geometry.gutter_right)
    canvas.paste(layout.base.image.crop((bw - reach, 0, bw, geometry.board_height)), (bw - reach, th))
    draw = ImageDraw.Draw(canvas)
    if layout.board_height > geometry.board_height:
        draw.rectangle((bw - reach, th + geometry.board_height, bw - 1, th + layout.board_height - 1), fill=pal(PAPER))
    draw.rectangle((bw, th, layout.width - 1, th + layout.board_height - 1), fill=pal(PAPER))


def _repaint(canvas: Image.Image, view: MapView, layout: _Layout, pal: Palette, overlays: Sequence[Overlay],
             dirty: set[XY]) -> list[tuple[int, int]]:
    """Paint the squares again on the canvas: their ground, then every drawing that reaches them; return the rows."""
    geometry = layout.geometry
    gl, gt = geometry.gutter_left, geometry.gutter_top
    size = (geometry.grid_width, geometry.grid_height)
    scratch = _take_scratch(size)
    boxes = _boxes(geometry, dirty)
    try:
        for box in boxes:
            scratch.paste(layout.base.image.crop((box[0] + gl, box[1] + gt, box[2] + gl, box[3] + gt)), box[:2])
        # Drawings reaching past the dirty squares land on stale pixels of the scratch: only the boxes are taken.
        _paint_grid(scratch, geometry, pal, view, overlays, dirty)
        top = geometry.grid_top
        for box in boxes:
            canvas.paste(scratch.crop(box), (box[0] + gl, box[1] + top))
    finally:
        _give_scratch(scratch)
    return [(box[1] + geometry.grid_top, box[3] + geometry.grid_top) for box in boxes]


def _boxes(geometry: Geometry, squares: set[XY]) -> list[tuple[int, int, int, int]]:
    """Return the grid pixel boxes (right and bottom exclusive) covering the squares: runs of a row joined, and a
    run repeated on the rows below joined into one box; the grid's closing lines go with the last column and row."""
    runs: dict[int, list[tuple[int, int]]] = {}
    for x, y in sorted(squares, key=lambda s: (s[1], s[0])):
        row = runs.setdefault(y, [])
        if row and row[-1][1] == x - 1:
            row[-1] = (row[-1][0], x)
        else:
            row.append((x, x))
    boxes: list[tuple[int, int, int, int]] = []
    open_runs: dict[tuple[int, int], int] = {}  # a run of columns -> the first row of the box it makes
    last = -2
    for y, row in runs.items():
        for run in list(open_runs):
            if last != y - 1 or run not in row:
                boxes.append(_run_box(geometry, run, open_runs.pop(run), last))
        for run in row:
            open_runs.setdefault(run, y)
        last = y
    boxes += [_run_box(geometry, run, first, last) for run, first in open_runs.items()]
    return boxes


def _run_box(geometry: Geometry, run: tuple[int, int], first: int, last: int) -> tuple[int, int, int, int]:
    """Return the grid pixel box of columns run[0]..run[1] over rows first..last."""
    cp = geometry.cell_px
    x0, y0, x1, y1 = geometry.crop
    left, top = (run[0] - x0) * cp, (first - y0) * cp
    right = (run[1] - x0 + 1) * cp + (1 if run[1] == x1 else 0)
    bottom = (last - y0 + 1) * cp + (1 if last == y1 else 0)
    return (left, top, right, bottom)


def _take_scratch(size: tuple[int, int]) -> Image.Image:
    """Return an RGB image of the size to draw on over every pixel, one kept from earlier when there is one."""
    with _SCRATCH_LOCK:
        for i, image in enumerate(_SCRATCH):
            if image.size == size:
                return _SCRATCH.pop(i)
    return Image.new("RGB", size)


def _give_scratch(image: Image.Image) -> None:
    """Keep an RGB image nobody uses any more to draw on again, the most recent ones within the budget."""
    if image.mode != "RGB" or _bytes(image) > SCRATCH_BUDGET:
        return
    with _SCRATCH_LOCK:
        _SCRATCH.insert(0, image)
        while sum(_bytes(kept) for kept in _SCRATCH) > SCRATCH_BUDGET:
            _SCRATCH.pop()


def _bytes(image: Image.Image) -> int:
    """Return the bytes Pillow keeps for an RGB image's pixels (four a pixel)."""
    return image.width * image.height * 4


def _legend_sig(legend: Legend) -> object:
    """Return what the legend paints: its columns' widths, its height and each line's text and swatch."""
    return (legend.column_widths, legend.height,
            tuple(tuple((line.text, _swatch_sig(line.swatch)) for line in column) for column in legend.columns))


def _swatch_sig(swatch: object) -> object:
    """Return what a swatch painter paints by: its code, its defaults and the values it closes over."""
    if swatch is None:
        return None
    code = getattr(swatch, "__code__", None)
    if code is None:
        return swatch
    cells = getattr(swatch, "__closure__", None) or ()
    return (code, getattr(swatch, "__defaults__", None), tuple(cell.cell_contents for cell in cells))


def _key_sig(view: MapView, geometry: Geometry, width: int) -> object:
    """Return what the unit key paints by: the width, and each square's units shown, in order, with what the key
    says of them (a square drawn as one stack token is named by its place)."""
    cp = geometry.cell_px
    return (width, tuple(
        (xy if piled(len(group), cp) else None,
         tuple((u.label, u.shown_name, u.side, u.owner, u.health_text, u.statuses, u.is_horde) for u in group))
        for xy, group in stacks(view, geometry).items()))


def overlay_cells(overlays: Sequence[Overlay]) -> set[XY]:
    """Return the squares the overlays touch (reachable areas excepted), to pass to `crop_around`."""
    # Reachable areas are left out: they are context, and would widen a crop
    # far past the action.
    cells: set[XY] = set()
    for o in overlays:
        if isinstance(o, MovePath):
            cells.update(o.cells)
        elif isinstance(o, LineOfFire):
            cells.update((o.src, o.dst))
        elif isinstance(o, (TargetSquare, Marker)):
            cells.add((o.x, o.y))
        elif isinstance(o, AreaOfEffect):
            cells.update(o.cells)
            if o.src is not None:
                cells.add(o.src)
        elif isinstance(o, MissLanding):
            cells.update((o.aim, o.landed))
        elif isinstance(o, SquareChoices):
            cells.update(o.cells)
    return cells


def clear_cache() -> None:
    """Forget every cached base layer, grid block, kept picture and repaint count (for benchmarks and tests)."""
    BASE_CACHE.clear()
    BLOCK_CACHE.clear()
    FRAMES.clear()
    REPAINTS.reset()
    with _SCRATCH_LOCK:
        _SCRATCH.clear()
