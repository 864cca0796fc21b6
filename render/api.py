"""The renderer's entry points: a view (plus overlays) in, PNG bytes out."""

from __future__ import annotations

import logging
from collections.abc import Hashable, Sequence

from PIL import Image, ImageDraw

from render.cache import KeptFrames
from render.geometry import Crop, Geometry
from render.key import build_key
from render.layers.areas import draw_area_marks, draw_area_tints
from render.layers.base import BASE_CACHE, BLOCK_CACHE, base_layer
from render.layers.effects import draw_effects
from render.layers.features import draw_features
from render.layers.labels import draw_labels
from render.layers.overlays import draw_overlays, draw_reachable
from render.layers.title import draw_title, title_width
from render.layers.units import draw_units, stacks
from render.legend import build_legend
from render.palette import LEGEND_PAPER, PAPER, palette_named
from render.png import Frame, encode_frame, frame_png, write_png
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

# The last frame of each battle's map, so a map drawn again deflates only the bands of rows that changed.
# A crop of a 40x40 map is 2 to 4 MB of rows, a whole 100x100 map about 11 MB: the bound caps the memory.
FRAME_BUDGET = 32 * 1024 * 1024
FRAMES: KeptFrames[Frame] = KeptFrames(FRAME_BUDGET, lambda frame: len(frame.rows))


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
    base = base_layer(view, geometry, pal)
    gl, gt = geometry.gutter_left, geometry.gutter_top
    # Draw on a copy of the grid alone, so nothing spills into the labels.
    grid = base.image.crop((gl, gt, gl + geometry.grid_width, gt + geometry.grid_height))
    draw_features(grid, geometry, pal, view.features)
    draw_effects(grid, geometry, pal, view.effects)
    draw_reachable(grid, geometry, pal, overlays)
    draw_area_tints(grid, geometry, pal, overlays)
    labels = draw_units(grid, geometry, pal, view)
    draw_area_marks(grid, geometry, pal, overlays)
    draw_overlays(grid, geometry, pal, overlays, frozenset(stacks(view, geometry)))
    draw_labels(grid, labels)  # last: no arrow, marker or badge covers a token's label

    legend = build_legend(view, geometry, pal, base.terrain_keys, overlays, geometry.board_height)
    # Wide enough for the whole title bar: a narrow crop never cuts the title.
    width = max(geometry.board_width + legend.width, title_width(view, geometry))
    key = build_key(view, geometry, width) if show_key else None
    board_h = max(geometry.board_height, legend.height)
    height = geometry.title_height + board_h + (key.height if key else 0)
    canvas = Image.new("RGB", (width, height), pal(PAPER))
    canvas.paste(base.image, (0, geometry.title_height))
    canvas.paste(grid, (gl, geometry.title_height + gt))
    legend_bottom = geometry.title_height + board_h - 1
    if width > geometry.board_width + legend.width or not legend.columns:
        ImageDraw.Draw(canvas).rectangle(
            (geometry.board_width, geometry.title_height, width - 1, legend_bottom), fill=pal(LEGEND_PAPER)
        )
    legend.draw(canvas, geometry.board_width, geometry.title_height, legend_bottom, pal)
    if key is not None:
        key.draw(canvas, geometry.title_height + board_h, view, pal)
    draw_title(canvas, view, geometry, pal)
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
    the frame is kept, and the next map under that key deflates only the bands of rows that changed:
    the bytes are those of a map encoded afresh.
    Run it in a worker thread (`asyncio.to_thread`): it is thread-safe.
    """
    image = render_image(view, overlays=overlays, crop=crop, cell_px=cell_px, palette=palette, show_key=show_key)
    if keep is None:
        data = encode_png(image)
    else:
        frame = encode_frame(image, FRAMES.get(keep))
        FRAMES.keep(keep, frame)
        data = frame_png(frame)
    log.debug("rendered %s: %dx%d px, %d bytes", view.map_version, image.width, image.height, len(data))
    return data


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
    """Forget every cached base layer, grid block and kept frame (for benchmarks and tests)."""
    BASE_CACHE.clear()
    BLOCK_CACHE.clear()
    FRAMES.clear()
