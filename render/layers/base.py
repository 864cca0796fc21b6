"""The base layer: terrain, roads, grid lines, obstacles on edges, floors and edge labels, cached per map version and cut for crops.

The terrain and its grid lines are drawn for the whole map, in blocks of BLOCK x BLOCK squares cached per
map version, size, cell size and palette; a crop's grid is cut out of the blocks it overlaps, so a new
crop window of a map already drawn costs a few pastes, not a redraw. A crop's grid is exactly that cut of
the whole map's grid (its closing line lies over the next square's ground, as on the whole map), and
only its roads, obstacles, floors and gutters (labels, map edges) are drawn per crop.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.cache import LayerCache
from render.fonts import draw_centred, draw_left, draw_right
from render.geometry import LABEL_PAD, MAP_EDGE_PX, Geometry
from render.layers.structures import draw_edges, draw_floors, draw_roads
from render.palette import LABEL_INK, MAP_EDGE, PAPER, UNKNOWN_TERRAIN, Palette
from render.patterns import pattern_tile
from render.view import RGB, MapView, TerrainStyle
from rules.coords import column_label

log = logging.getLogger(__name__)

# A few boards cover the maps in play right now; a 100x100 board is ~10 MB of
# pixels, so the bound also caps memory.
BASE_CACHE_SIZE = 6
BLOCK = 16  # squares a side of a cached block of the whole map's grid
# At 40 px a square a block is about 1.2 MB: the bound caps the blocks' memory near 45 MB.
BLOCK_CACHE_SIZE = 36
MAJOR_EVERY = 5
MINOR_ALPHA = 46
MAJOR_ALPHA = 96


@dataclass(frozen=True)
class BaseLayer:
    """Hold a finished board (gutters, labels, terrain, grid) and the terrains it shows."""

    image: Image.Image
    terrain_keys: tuple[str, ...]


BASE_CACHE: LayerCache[BaseLayer] = LayerCache(BASE_CACHE_SIZE)
BLOCK_CACHE: LayerCache[Image.Image] = LayerCache(BLOCK_CACHE_SIZE)


def unknown_style(key: str) -> TerrainStyle:
    """Return the loud placeholder style for a terrain key the view has no style for."""
    return TerrainStyle(key=key, name=f"unknown ({key})", color=UNKNOWN_TERRAIN, pattern="crosshatch")


def style_of(view: MapView, key: str) -> TerrainStyle:
    """Return the style of a terrain key, or the placeholder when it has none."""
    style = view.styles.get(key)
    return style if style is not None else unknown_style(key)


def base_layer(view: MapView, geometry: Geometry, palette: Palette) -> BaseLayer:
    """Return the base layer for a view, from the cache when this map version was drawn before."""
    return BASE_CACHE.get_or_build(base_key(view, geometry, palette), lambda: build_base(view, geometry, palette))


def base_key(view: MapView, geometry: Geometry, palette: Palette) -> tuple[object, ...]:
    """Return what names a base layer: two views with the same key have the same base layer."""
    # map_version promises the same size, terrain and styles; size is in the key
    # as well so a stale version string can never paste a wrongly sized board.
    return (view.map_version, view.width, view.height, geometry.cell_px, geometry.crop, palette.name)


def build_base(view: MapView, geometry: Geometry, palette: Palette) -> BaseLayer:
    """Draw the base layer: the crop's grid cut from the whole map's, then the gutters around it."""
    board = Image.new("RGB", (geometry.board_width, geometry.board_height), palette(PAPER))
    grid = cut_grid(view, geometry, palette)
    draw_roads(grid, geometry, palette, view.roads)
    draw_edges(grid, geometry, palette, view.edges)
    draw_floors(grid, geometry, palette, view.floors)
    board.paste(grid, (geometry.gutter_left, geometry.gutter_top))
    draw = ImageDraw.Draw(board)
    _map_edges(draw, geometry, palette)
    _labels(draw, geometry, palette)
    log.debug("built base layer %s at %d px, crop %s", view.map_version, geometry.cell_px, geometry.crop)
    return BaseLayer(image=board, terrain_keys=_terrain_keys(view, geometry.crop))


def cut_grid(view: MapView, geometry: Geometry, palette: Palette) -> Image.Image:
    """Return the crop's terrain and grid lines: its window of the whole map's grid, from the cached blocks."""
    cp = geometry.cell_px
    x0, y0, x1, y1 = geometry.crop
    # The window in the whole grid's pixels, closing line included.
    left, top, right, bottom = x0 * cp, y0 * cp, (x1 + 1) * cp + 1, (y1 + 1) * cp + 1
    grid = Image.new("RGB", (right - left, bottom - top), palette(PAPER))
    span = BLOCK * cp
    for by in range(y0 // BLOCK, y1 // BLOCK + 1):
        for bx in range(x0 // BLOCK, x1 // BLOCK + 1):
            block = _block(view, cp, palette, bx, by)
            ox, oy = bx * span, by * span
            a, b = max(left, ox), max(top, oy)
            c, d = min(right, ox + block.width), min(bottom, oy + block.height)
            grid.paste(block.crop((a - ox, b - oy, c - ox, d - oy)), (a - left, b - top))
    return grid


def _block(view: MapView, cp: int, palette: Palette, bx: int, by: int) -> Image.Image:
    """Return one block of the whole map's grid, from the cache when this map version was drawn before."""
    key = (view.map_version, view.width, view.height, cp, palette.name, bx, by)
    return BLOCK_CACHE.get_or_build(key, lambda: _draw_block(view, cp, palette, bx, by))


def _draw_block(view: MapView, cp: int, palette: Palette, bx: int, by: int) -> Image.Image:
    """Paint a block's squares and grid lines, with the line closing it on its right and bottom.

    The closing line is the first pixel column (row) of the next square, whose ground it lies over; past
    the map's last square it lies over paper. Lines are blended over the ground, every vertical one first,
    as on the whole grid, so any pixel reads the same in every block and crop that holds it.
    """
    xs, ys = bx * BLOCK, by * BLOCK
    xe, ye = min(view.width, xs + BLOCK), min(view.height, ys + BLOCK)
    cols, rows = xe - xs, ye - ys
    block = Image.new("RGB", (cols * cp + 1, rows * cp + 1), palette(PAPER))
    # One more square each way where the map goes on: its edge pixels are this block's closing line.
    last = min(view.width, xe + 1)
    for y in range(ys, min(view.height, ye + 1)):
        row = y * view.width
        x = xs
        while x < last:
            # A run of squares of one terrain is one paste of a strip of its tiles.
            key = view.terrain[row + x]
            end = x + 1
            while end < last and view.terrain[row + end] == key:
                end += 1
            style = style_of(view, key)
            if key not in view.styles:
                log.warning("map %s: no style for terrain %r", view.map_version, key)
            block.paste(_strip(style.pattern, palette(style.color), cp, end - x), ((x - xs) * cp, (y - ys) * cp))
            x = end
    draw = ImageDraw.Draw(block, "RGBA")
    w, h = block.width - 1, block.height - 1
    for i in range(cols + 1):
        alpha = MAJOR_ALPHA if (xs + i) % MAJOR_EVERY == 0 else MINOR_ALPHA
        draw.line((i * cp, 0, i * cp, h), fill=(0, 0, 0, alpha))
    for j in range(rows + 1):
        alpha = MAJOR_ALPHA if (ys + j) % MAJOR_EVERY == 0 else MINOR_ALPHA
        draw.line((0, j * cp, w, j * cp), fill=(0, 0, 0, alpha))
    return block


@lru_cache(maxsize=512)
def _strip(pattern: str, color: RGB, cp: int, count: int) -> Image.Image:
    """Return `count` tiles of a terrain side by side (read-only, shared)."""
    tile = pattern_tile(pattern, color, cp)
    strip = Image.new("RGB", (cp * count, cp))
    for i in range(count):
        strip.paste(tile, (i * cp, 0))
    return strip


def _terrain_keys(view: MapView, crop: tuple[int, int, int, int]) -> tuple[str, ...]:
    """Return the terrain keys the crop shows, in the order of the view's styles (unknown ones last)."""
    x0, y0, x1, y1 = crop
    seen = {view.terrain[y * view.width + x] for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)}
    order = {k: i for i, k in enumerate(view.styles)}
    return tuple(sorted(seen, key=lambda k: (order.get(k, len(order)), k)))


def _map_edges(draw: ImageDraw.ImageDraw, geometry: Geometry, palette: Palette) -> None:
    """Frame the sides where the map really ends; cropped sides stay open."""
    gl, gt = geometry.gutter_left, geometry.gutter_top
    gr, gb = gl + geometry.grid_width - 1, gt + geometry.grid_height - 1
    x0, y0, x1, y1 = geometry.crop
    e = MAP_EDGE_PX
    ink = palette(MAP_EDGE)
    if x0 == 0:
        draw.rectangle((gl - e, gt - e, gl - 1, gb + e), fill=ink)
    if x1 == geometry.map_width - 1:
        draw.rectangle((gr + 1, gt - e, gr + e, gb + e), fill=ink)
    if y0 == 0:
        draw.rectangle((gl - e, gt - e, gr + e, gt - 1), fill=ink)
    if y1 == geometry.map_height - 1:
        draw.rectangle((gl - e, gb + 1, gr + e, gb + e), fill=ink)


def _labels(draw: ImageDraw.ImageDraw, geometry: Geometry, palette: Palette) -> None:
    """Write column letters above and below the grid and row numbers on both sides."""
    cp, lp = geometry.cell_px, geometry.label_px
    x0, y0, x1, y1 = geometry.crop
    gl, gt = geometry.gutter_left, geometry.gutter_top
    gr, gb = gl + geometry.grid_width - 1, gt + geometry.grid_height - 1
    ink = palette(LABEL_INK)
    top_cy = (gt - MAP_EDGE_PX) / 2
    bottom_cy = gb + 1 + MAP_EDGE_PX + (geometry.gutter_bottom - MAP_EDGE_PX) / 2
    for x in range(x0, x1 + 1):
        if (x - x0) % geometry.label_step:
            continue
        cx = gl + (x - x0) * cp + cp / 2
        text = column_label(x)
        draw_centred(draw, cx, top_cy, text, lp, ink)
        draw_centred(draw, cx, bottom_cy, text, lp, ink)
    for y in range(y0, y1 + 1):
        cy = gt + (y - y0) * cp + cp / 2
        text = str(y + 1)
        draw_right(draw, gl - MAP_EDGE_PX - LABEL_PAD, cy, text, lp, ink)
        draw_left(draw, gr + 1 + MAP_EDGE_PX + LABEL_PAD, cy, text, lp, ink)
