"""The renderer's entry points: a view (plus overlays) in, PNG bytes out."""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence

from PIL import Image

from render.geometry import Crop, Geometry
from render.layers.base import BASE_CACHE, base_layer
from render.layers.effects import draw_effects
from render.layers.features import draw_features
from render.layers.overlays import draw_overlays, draw_reachable
from render.layers.title import draw_title
from render.layers.units import draw_units, stacks
from render.legend import build_legend
from render.palette import PAPER, palette_named
from render.view import XY, LineOfFire, MapView, Marker, MovePath, Overlay, TargetSquare

log = logging.getLogger(__name__)

PNG_COMPRESS_LEVEL = 1  # level 1 encodes far faster than 6 for a few percent more bytes


def render_image(
    view: MapView,
    *,
    overlays: Sequence[Overlay] = (),
    crop: Crop | None = None,
    cell_px: int | None = None,
    palette: str = "colour",
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
    draw_units(grid, geometry, pal, view)
    draw_overlays(grid, geometry, pal, overlays, frozenset(stacks(view, geometry)))

    legend = build_legend(view, geometry, pal, base.terrain_keys, overlays, geometry.board_height)
    width = geometry.board_width + legend.width
    height = geometry.title_height + max(geometry.board_height, legend.height)
    canvas = Image.new("RGB", (width, height), pal(PAPER))
    canvas.paste(base.image, (0, geometry.title_height))
    canvas.paste(grid, (gl, geometry.title_height + gt))
    legend.draw(canvas, geometry.board_width, geometry.title_height, height - 1, pal)
    draw_title(canvas, view, geometry, pal)
    if pal.grey:
        # Every colour already went through the grey palette; L mode makes it exact and smaller.
        return canvas.convert("L")
    return canvas


def encode_png(image: Image.Image) -> bytes:
    """Encode an image as PNG bytes at the fast compression level."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()


def render_map(
    view: MapView,
    *,
    overlays: Sequence[Overlay] = (),
    crop: Crop | None = None,
    cell_px: int | None = None,
    palette: str = "colour",
) -> bytes:
    """Draw the map and return it as PNG bytes; the same input always gives the same bytes.

    `crop` is (x0, y0, x1, y1) in squares, inclusive; `palette` is "colour" or "grey".
    Run it in a worker thread (`asyncio.to_thread`): it is pure and thread-safe.
    """
    image = render_image(view, overlays=overlays, crop=crop, cell_px=cell_px, palette=palette)
    data = encode_png(image)
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
    return cells


def clear_cache() -> None:
    """Forget every cached base layer (for benchmarks and tests)."""
    BASE_CACHE.clear()
