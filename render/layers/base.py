"""The base layer: terrain, roads, grid lines, obstacles on edges, floors and edge labels, cached per map version."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.cache import LayerCache
from render.fonts import draw_centred, draw_left, draw_right
from render.geometry import LABEL_PAD, MAP_EDGE_PX, Geometry
from render.layers.structures import draw_edges, draw_floors, draw_roads
from render.palette import LABEL_INK, MAP_EDGE, PAPER, UNKNOWN_TERRAIN, Palette
from render.patterns import pattern_tile
from render.view import MapView, TerrainStyle
from rules.coords import column_label

log = logging.getLogger(__name__)

# A few boards cover the maps in play right now; a 100x100 board is ~10 MB of
# pixels, so the bound also caps memory.
BASE_CACHE_SIZE = 6
MAJOR_EVERY = 5
MINOR_ALPHA = 46
MAJOR_ALPHA = 96


@dataclass(frozen=True)
class BaseLayer:
    """Hold a finished board (gutters, labels, terrain, grid) and the terrains it shows."""

    image: Image.Image
    terrain_keys: tuple[str, ...]


BASE_CACHE: LayerCache[BaseLayer] = LayerCache(BASE_CACHE_SIZE)


def unknown_style(key: str) -> TerrainStyle:
    """Return the loud placeholder style for a terrain key the view has no style for."""
    return TerrainStyle(key=key, name=f"unknown ({key})", color=UNKNOWN_TERRAIN, pattern="crosshatch")


def style_of(view: MapView, key: str) -> TerrainStyle:
    """Return the style of a terrain key, or the placeholder when it has none."""
    style = view.styles.get(key)
    return style if style is not None else unknown_style(key)


def base_layer(view: MapView, geometry: Geometry, palette: Palette) -> BaseLayer:
    """Return the base layer for a view, from the cache when this map version was drawn before."""
    # map_version promises the same size, terrain and styles; size is in the key
    # as well so a stale version string can never paste a wrongly sized board.
    key = (view.map_version, view.width, view.height, geometry.cell_px, geometry.crop, palette.name)
    return BASE_CACHE.get_or_build(key, lambda: build_base(view, geometry, palette))


def build_base(view: MapView, geometry: Geometry, palette: Palette) -> BaseLayer:
    """Draw the base layer from scratch."""
    board = Image.new("RGB", (geometry.board_width, geometry.board_height), palette(PAPER))
    grid, keys = _terrain(view, geometry, palette)
    draw_roads(grid, geometry, palette, view.roads)
    _grid_lines(grid, geometry)
    draw_edges(grid, geometry, palette, view.edges)
    draw_floors(grid, geometry, palette, view.floors)
    board.paste(grid, (geometry.gutter_left, geometry.gutter_top))
    draw = ImageDraw.Draw(board)
    _map_edges(draw, geometry, palette)
    _labels(draw, geometry, palette)
    log.debug("built base layer %s at %d px, crop %s", view.map_version, geometry.cell_px, geometry.crop)
    return BaseLayer(image=board, terrain_keys=keys)


def _terrain(view: MapView, geometry: Geometry, palette: Palette) -> tuple[Image.Image, tuple[str, ...]]:
    """Paint every square's terrain tile; return the grid and the terrain keys seen, in style order."""
    cp = geometry.cell_px
    x0, y0, x1, y1 = geometry.crop
    grid = Image.new("RGB", (geometry.grid_width, geometry.grid_height), palette(PAPER))
    tiles: dict[str, Image.Image] = {}
    for y in range(y0, y1 + 1):
        row = y * view.width
        top = (y - y0) * cp
        for x in range(x0, x1 + 1):
            key = view.terrain[row + x]
            tile = tiles.get(key)
            if tile is None:
                style = style_of(view, key)
                if key not in view.styles:
                    log.warning("map %s: no style for terrain %r", view.map_version, key)
                tile = pattern_tile(style.pattern, palette(style.color), cp)
                tiles[key] = tile
            grid.paste(tile, ((x - x0) * cp, top))
    order = {k: i for i, k in enumerate(view.styles)}
    keys = tuple(sorted(tiles, key=lambda k: (order.get(k, len(order)), k)))
    return grid, keys


def _grid_lines(grid: Image.Image, geometry: Geometry) -> None:
    """Draw translucent grid lines, darker every fifth square to help count."""
    cp = geometry.cell_px
    x0, y0 = geometry.crop[0], geometry.crop[1]
    w, h = geometry.grid_width - 1, geometry.grid_height - 1
    # Blending black over each terrain keeps lines visible on light and dark ground alike.
    draw = ImageDraw.Draw(grid, "RGBA")
    for i in range(geometry.cols + 1):
        alpha = MAJOR_ALPHA if (x0 + i) % MAJOR_EVERY == 0 else MINOR_ALPHA
        draw.line((i * cp, 0, i * cp, h), fill=(0, 0, 0, alpha))
    for j in range(geometry.rows + 1):
        alpha = MAJOR_ALPHA if (y0 + j) % MAJOR_EVERY == 0 else MINOR_ALPHA
        draw.line((0, j * cp, w, j * cp), fill=(0, 0, 0, alpha))


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
