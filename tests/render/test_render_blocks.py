"""The base layer cut for crops: any crop's grid is exactly its window of the whole map's grid, however it is assembled."""

from __future__ import annotations

import pytest

from render import clear_cache, render_map
from render.geometry import Geometry
from render.layers import base
from render.palette import palette_named
from tests.render.render_samples import sample_view

CROPS = [(0, 0, 29, 19), (0, 0, 12, 9), (4, 3, 17, 12), (15, 15, 29, 19), (16, 0, 16, 19), (3, 16, 28, 16)]


def whole_map_window(crop: tuple[int, int, int, int], cell_px: int, palette: str) -> bytes:
    """Return the crop's window of the whole map's grid drawn in one piece."""
    view = sample_view()
    whole = base.cut_grid(view, Geometry.for_view(view, None, cell_px), palette_named(palette))
    x0, y0, x1, y1 = crop
    return whole.crop((x0 * cell_px, y0 * cell_px, (x1 + 1) * cell_px + 1, (y1 + 1) * cell_px + 1)).tobytes()


@pytest.mark.parametrize("palette", ["colour", "grey"])
@pytest.mark.parametrize("block", [7, 16])
def test_a_crops_grid_is_its_window_of_the_whole_map(monkeypatch: pytest.MonkeyPatch, block: int,
                                                      palette: str) -> None:
    view = sample_view()
    cell_px = 24
    monkeypatch.setattr(base, "BLOCK", 1000)  # the whole map as one block: the reference
    reference = {crop: whole_map_window(crop, cell_px, palette) for crop in CROPS}
    clear_cache()
    monkeypatch.setattr(base, "BLOCK", block)
    for crop in CROPS:
        grid = base.cut_grid(view, Geometry.for_view(view, crop, cell_px), palette_named(palette))
        assert grid.tobytes() == reference[crop], crop


def test_blocks_are_drawn_once_per_map_version_and_shared_by_crops() -> None:
    view = sample_view()
    render_map(view, crop=(0, 0, 12, 9), cell_px=24)
    drawn = base.BLOCK_CACHE.misses
    assert drawn == 1  # the crop lies inside the first 16x16 block
    render_map(view, crop=(1, 1, 13, 10), cell_px=24)  # a new window: a new board, no new block
    assert (base.BLOCK_CACHE.misses, base.BASE_CACHE.misses) == (drawn, 2)
    render_map(view, crop=(10, 10, 25, 19), cell_px=24)  # reaches into three more blocks
    assert base.BLOCK_CACHE.misses == drawn + 3
    render_map(sample_view(map_version="sample-2"), crop=(0, 0, 12, 9), cell_px=24)
    assert base.BLOCK_CACHE.misses == drawn + 4


def test_the_legend_lists_only_the_terrain_of_the_crop() -> None:
    view = sample_view()
    geometry = Geometry.for_view(view, (0, 0, 6, 6), 24)
    layer = base.base_layer(view, geometry, palette_named("colour"))
    assert layer.terrain_keys == ("plain", "forest")
