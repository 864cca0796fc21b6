"""Squares offered to a player: outlined in the choice colour and named, and only those."""

from __future__ import annotations

from render import SquareChoices, cell_box, render_map
from render.describe import describe
from render.palette import CHOICE, WHITE
from tests.render.render_samples import colour_counts, open_png, rgb_at, small_view

CP = 32


def test_offered_squares_are_outlined_and_tagged_and_others_are_not() -> None:
    view = small_view()
    image = open_png(render_map(view, cell_px=CP, overlays=(SquareChoices(cells=((3, 3), (4, 3))),)))
    for x, y in ((3, 3), (4, 3)):
        left, top, _right, _bottom = cell_box(view, x, y, cell_px=CP)
        assert rgb_at(image, (left + 1, top + 10)) == CHOICE, "the offered square's edge is outlined"
        tag = {rgb for _n, rgb in colour_counts(image.crop(cell_box(view, x, y, cell_px=CP)))}
        assert WHITE in tag and any(max(c) < 80 for c in tag), "its name is written in dark ink on a white tag"
    left, top, _right, _bottom = cell_box(view, 6, 3, cell_px=CP)
    assert rgb_at(image, (left + 1, top + 10)) != CHOICE, "a square not offered is left alone"
    plain = open_png(render_map(view, cell_px=CP))
    assert plain.crop(cell_box(view, 6, 6, cell_px=CP)).tobytes() == image.crop(
        cell_box(view, 6, 6, cell_px=CP)).tobytes()


def test_the_alt_text_names_the_offered_squares() -> None:
    text = describe(small_view(), (SquareChoices(cells=((3, 3), (4, 3))),))
    assert "Squares to choose, outlined and named: D4, E4." in text.happened
