"""Image size, cell boxes, edge labels, cropping and crop_around."""

from __future__ import annotations

import pytest
from PIL import Image

from render import Geometry, UnitToken, cell_box, crop_around, default_cell_px, overlay_cells, render_map
from render.geometry import MAP_EDGE_PX, MIN_CROP
from render.palette import PAPER
from rules.coords import Cell
from tests.render.render_samples import (
    colour_counts,
    open_png,
    rgb_at,
    sample_overlays,
    sample_view,
    small_view,
)

CP = 24


def test_image_grows_by_one_square_per_extra_column_and_row() -> None:
    a = open_png(render_map(small_view(width=12, height=12), cell_px=CP))
    b = open_png(render_map(small_view(width=13, height=12), cell_px=CP))
    c = open_png(render_map(small_view(width=12, height=13), cell_px=CP))
    assert b.width - a.width == CP
    assert c.height - a.height == CP


def test_image_size_is_grid_plus_gutters_plus_legend() -> None:
    view = small_view(width=14, height=14)
    geometry = Geometry.for_view(view, cell_px=CP)
    image = open_png(render_map(view, cell_px=CP))
    assert geometry.grid_width == 14 * CP + 1
    assert geometry.board_width == geometry.gutter_left + 14 * CP + 1 + geometry.gutter_right
    assert image.width > geometry.board_width  # the legend sits to the right
    assert image.height == geometry.title_height + geometry.board_height
    assert cell_box(view, 0, 0, cell_px=CP) == (
        geometry.grid_left,
        geometry.grid_top,
        geometry.grid_left + CP,
        geometry.grid_top + CP,
    )
    last = cell_box(view, 13, 13, cell_px=CP)
    assert last[2] == geometry.grid_left + 14 * CP
    assert last[3] == geometry.grid_top + 14 * CP


def test_cell_box_accepts_a_geometry() -> None:
    view = small_view()
    geometry = Geometry.for_view(view, crop=(2, 2, 9, 9), cell_px=CP)
    assert cell_box(geometry, 2, 2) == cell_box(view, 2, 2, cell_px=CP, crop=(2, 2, 9, 9))
    assert cell_box(geometry, 2, 2)[:2] == (geometry.grid_left, geometry.grid_top)


def _strip_has_ink(image: Image.Image, box: tuple[int, int, int, int]) -> bool:
    """Return whether a region holds label-coloured text pixels."""
    return any(sum(c) < sum(PAPER) - 150 for _, c in colour_counts(image.crop(box)))


def test_labels_on_all_four_edges() -> None:
    view = small_view()
    geometry = Geometry.for_view(view, cell_px=CP)
    image = open_png(render_map(view, cell_px=CP))
    left, top, right, _bottom = cell_box(view, 0, 0, cell_px=CP)
    title_h = geometry.title_height
    above = (left, title_h, right, top - MAP_EDGE_PX)
    grid_bottom = geometry.grid_top + geometry.grid_height
    below = (left, grid_bottom + MAP_EDGE_PX, right, title_h + geometry.board_height)
    assert _strip_has_ink(image, above)
    # Same letter, same font: the top and bottom labels are pixel-identical.
    assert image.crop(above).tobytes() == image.crop(below).tobytes()
    row = cell_box(view, 0, 4, cell_px=CP)
    grid_right = geometry.grid_left + geometry.grid_width
    assert _strip_has_ink(image, (0, row[1], geometry.grid_left - MAP_EDGE_PX, row[3]))
    assert _strip_has_ink(image, (grid_right + MAP_EDGE_PX, row[1], geometry.board_width, row[3]))


def test_crop_is_smaller_and_matches_the_full_map() -> None:
    view = sample_view()
    crop = (2, 3, 14, 15)
    full = open_png(render_map(view, cell_px=CP))
    part = open_png(render_map(view, cell_px=CP, crop=crop))
    assert part.width < full.width and part.height < full.height
    g_crop = Geometry.for_view(view, crop=crop, cell_px=CP)
    assert (g_crop.cols, g_crop.rows) == (13, 13)
    # Squares without overlays are drawn identically in both images.
    for x, y in ((2, 3), (3, 3), (14, 15), (5, 12), (8, 9), (13, 9)):
        assert (
            full.crop(cell_box(view, x, y, cell_px=CP)).tobytes()
            == part.crop(cell_box(view, x, y, cell_px=CP, crop=crop)).tobytes()
        ), (x, y)
    # The column letter above the crop's first column matches the full map's.
    g_full = Geometry.for_view(view, cell_px=CP)

    def label(image: Image.Image, geometry: Geometry) -> bytes:
        left, _, right, _ = geometry.cell_box(2, 3)
        return image.crop((left, geometry.title_height, right, geometry.grid_top - MAP_EDGE_PX)).tobytes()

    assert label(full, g_full) == label(part, g_crop)


def test_true_map_edges_are_framed_and_cropped_edges_are_open() -> None:
    view = small_view()
    full = open_png(render_map(view, cell_px=CP))
    part = open_png(render_map(view, cell_px=CP, crop=(3, 3, 13, 13)))
    g_full = Geometry.for_view(view, cell_px=CP)
    g_part = Geometry.for_view(view, crop=(3, 3, 13, 13), cell_px=CP)
    mid_full = g_full.cell_centre(0, 7)[1]
    mid_part = g_part.cell_centre(3, 7)[1]
    assert rgb_at(full, (g_full.grid_left - 1, mid_full)) != PAPER
    assert rgb_at(part, (g_part.grid_left - 1, mid_part)) == PAPER
    # Column 13 is the map's last: framed on the right in both.
    right_full = g_full.grid_left + g_full.grid_width
    right_part = g_part.grid_left + g_part.grid_width
    assert rgb_at(full, (right_full, mid_full)) == rgb_at(part, (right_part, mid_part)) != PAPER


def test_units_outside_the_crop_are_not_drawn() -> None:
    inside = small_view(units=(UnitToken("a", "A", "NERV", 5, 5),))
    outside = small_view(units=(UnitToken("a", "A", "NERV", 5, 5), UnitToken("b", "B", "NERV", 0, 0)))
    crop = (3, 3, 13, 13)
    assert render_map(inside, crop=crop) == render_map(outside, crop=crop)


def test_crop_is_clamped_and_validated() -> None:
    view = small_view()
    assert Geometry.for_view(view, crop=(-5, -5, 40, 40)).crop == (0, 0, 13, 13)
    with pytest.raises(ValueError):
        Geometry.for_view(view, crop=(5, 5, 4, 9))
    with pytest.raises(ValueError):
        Geometry.for_view(view, crop=(20, 20, 30, 30))


def test_crop_around_a_middle_cell_is_at_least_minimum_size() -> None:
    view = sample_view()
    x0, y0, x1, y1 = crop_around(view, [(15, 10)], margin=2)
    assert x1 - x0 + 1 >= MIN_CROP and y1 - y0 + 1 >= MIN_CROP
    assert x0 <= 13 and x1 >= 17 and y0 <= 8 and y1 >= 12


def test_crop_around_keeps_the_margin_and_stays_on_the_map() -> None:
    view = sample_view()  # 30 x 20
    x0, y0, x1, y1 = crop_around(view, [(1, 1), (8, 2)], margin=4)
    assert (x0, y0) == (0, 0)
    assert x1 >= 12 and y1 >= 6
    x0, y0, x1, y1 = crop_around(view, [(29, 19)], margin=4)
    assert (x1, y1) == (29, 19)
    assert x1 - x0 + 1 >= MIN_CROP and y1 - y0 + 1 >= MIN_CROP


def test_crop_around_on_a_small_map_or_with_no_cells_is_the_whole_map() -> None:
    tiny = small_view(width=8, height=6)
    assert crop_around(tiny, [(3, 3)]) == (0, 0, 7, 5)
    assert crop_around(sample_view(), []) == (0, 0, 29, 19)


def test_crop_around_accepts_cells() -> None:
    view = sample_view()
    assert crop_around(view, [Cell(10, 10)]) == crop_around(view, [(10, 10)])


def test_default_cell_size_is_readable_and_bounded() -> None:
    assert 24 <= default_cell_px(40, 40) <= 32
    assert default_cell_px(100, 100) * 100 <= 2000
    assert default_cell_px(12, 12) == default_cell_px(30, 30) == 40  # crops get big squares


def test_cell_px_is_validated() -> None:
    with pytest.raises(ValueError):
        render_map(small_view(), cell_px=4)


def test_overlay_cells_feed_crop_around() -> None:
    view = sample_view()
    cells = overlay_cells(sample_overlays())
    assert (5, 14) in cells and (19, 9) in cells and (24, 6) in cells
    assert (12, 7) not in cells  # inside the reachable areas only
    x0, y0, x1, y1 = crop_around(view, cells)
    assert all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in cells)
