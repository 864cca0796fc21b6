"""Map images for battlepost: a pure Pillow renderer from a read-only view to PNG bytes.

The game layer builds a `MapView` (plus overlays) and calls `render_map`, usually
through `asyncio.to_thread`. Rendering is deterministic and thread-safe: the only
shared state is the locked base-layer cache and read-only tiles and sprites.
"""

from render.api import clear_cache, encode_png, overlay_cells, render_image, render_map
from render.geometry import Crop, Geometry, cell_box, crop_around, default_cell_px
from render.layers.base import BASE_CACHE
from render.view import (
    RGB,
    AreaOfEffect,
    CellEffect,
    FeatureMark,
    LineOfFire,
    MapView,
    Marker,
    MissLanding,
    MovePath,
    Overlay,
    RangeBand,
    RangeBands,
    Reachable,
    SideStyle,
    SquareChoices,
    TargetSquare,
    TerrainStyle,
    UnitToken,
)

__all__ = [
    "BASE_CACHE",
    "RGB",
    "AreaOfEffect",
    "CellEffect",
    "Crop",
    "FeatureMark",
    "Geometry",
    "LineOfFire",
    "MapView",
    "Marker",
    "MissLanding",
    "MovePath",
    "Overlay",
    "RangeBand",
    "RangeBands",
    "Reachable",
    "SideStyle",
    "SquareChoices",
    "TargetSquare",
    "TerrainStyle",
    "UnitToken",
    "cell_box",
    "clear_cache",
    "crop_around",
    "default_cell_px",
    "encode_png",
    "overlay_cells",
    "render_image",
    "render_map",
]
