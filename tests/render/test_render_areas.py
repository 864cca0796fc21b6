"""Area attacks, missed-shot landings and range bands, probed by pixel in colour and in greyscale."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render import (
    AreaOfEffect,
    Geometry,
    MapView,
    MissLanding,
    RangeBand,
    RangeBands,
    cell_box,
    overlay_cells,
    render_map,
)
from render.layers.base import base_layer
from render.legend import build_legend
from render.palette import AREA_STYLES, LANDED, Palette
from tests.render.render_samples import STYLES, colour_counts, open_png, rgb_at, small_view

CP = 40
PLAIN = STYLES["plain"].color


def render(view: MapView, **kwargs: Any) -> Image.Image:
    """Render at the test cell size and decode."""
    return open_png(render_map(view, cell_px=CP, **kwargs))


def plain_view() -> MapView:
    """Return a 14x14 map of plain ground only."""
    return small_view(terrain=tuple("plain" for _ in range(14 * 14)))


def centre(view: MapView, x: int, y: int) -> tuple[int, int]:
    """Return the canvas centre of a square."""
    return Geometry.for_view(view, cell_px=CP).cell_centre(x, y)


def toward(colour: tuple[int, int, int], probe: tuple[int, int, int]) -> bool:
    """Return whether a probed pixel moved from plain ground toward a colour, channel by channel."""
    return all((p - g) * (c - g) >= 0 for p, g, c in zip(probe, PLAIN, colour, strict=True)) and probe != PLAIN


def test_blast_tints_its_square_and_throws_rays_beyond_it() -> None:
    view = plain_view()
    image = render(view, overlays=(AreaOfEffect("blast", ((6, 6),)),))
    colour = AREA_STYLES["blast"][1]
    cx, cy = centre(view, 6, 6)
    assert toward(colour, rgb_at(image, (cx - 8, cy + 8)))
    # A ray crosses into the square to the right, half a square past the edge.
    assert rgb_at(image, (cx + int(CP * 0.72), cy)) == colour
    # Diagonal neighbours' centres stay plain: the blast hits a single square.
    assert rgb_at(image, centre(view, 8, 8)) == PLAIN


def test_cone_tints_a_wedge_from_the_shooter_to_the_square() -> None:
    view = plain_view()
    image = render(view, overlays=(AreaOfEffect("cone", ((10, 6),), src=(2, 6)),))
    colour = AREA_STYLES["cone"][1]
    assert toward(colour, rgb_at(image, centre(view, 7, 6)))
    assert rgb_at(image, centre(view, 7, 9)) == PLAIN, "the wedge stays narrow"
    assert toward(colour, rgb_at(image, (centre(view, 10, 6)[0] + 6, centre(view, 10, 6)[1] + 6)))


def test_line_tints_every_square_it_crosses() -> None:
    view = plain_view()
    cells = ((3, 4), (4, 4), (5, 4), (6, 4))
    image = render(view, overlays=(AreaOfEffect("line", cells, src=(2, 4)),))
    colour = AREA_STYLES["line"][1]
    for x, y in cells:
        left, top, right, bottom = cell_box(view, x, y, cell_px=CP)
        inside = image.crop((left + 6, top + 6, right - 6, bottom - 6))
        assert all(toward(colour, c) for _, c in colour_counts(inside)), (x, y)
    assert rgb_at(image, centre(view, 7, 4)) == PLAIN


def test_at_field_draws_an_octagon_around_the_square() -> None:
    view = plain_view()
    image = render(view, overlays=(AreaOfEffect("at_field", ((6, 6),)),))
    colour = AREA_STYLES["at_field"][1]
    cx, cy = centre(view, 6, 6)
    # The octagon's flat sides lie just outside the square, so its token stays clear.
    ring = image.crop((cx + CP // 2, cy - 4, cx + int(CP * 0.66), cy + 4))
    assert any(c == colour for _, c in colour_counts(ring))
    assert toward(colour, rgb_at(image, (cx, cy)))
    assert rgb_at(image, centre(view, 8, 6)) == PLAIN


def test_area_shapes_differ_in_greyscale() -> None:
    view = plain_view()
    crops = []
    for kind in ("blast", "line", "at_field"):
        image = render(view, overlays=(AreaOfEffect(kind, ((6, 6),)),), palette="grey")
        left, top, right, bottom = cell_box(view, 6, 6, cell_px=CP)
        crops.append(image.crop((left - CP // 2, top - CP // 2, right + CP // 2, bottom + CP // 2)).tobytes())
    assert len(set(crops)) == 3


def test_area_tag_and_legend() -> None:
    view = plain_view()
    area = AreaOfEffect("blast", ((6, 6),), label="Blast: 3 targets")
    tagged = render(view, overlays=(area,))
    bare = render(view, overlays=(AreaOfEffect("blast", ((6, 6),)),))
    left, top, right, _ = cell_box(view, 6, 6, cell_px=CP)
    above = (left - CP, top - CP, right + CP, top - 6)
    assert tagged.crop(above).tobytes() != bare.crop(above).tobytes()
    geometry = Geometry.for_view(view, cell_px=CP)
    base = base_layer(view, geometry, Palette())
    texts = [ln.text for col in build_legend(view, geometry, Palette(), base.terrain_keys, (area,), 900).columns
             for ln in col]
    assert "Blast" in texts
    hidden = Geometry.for_view(view, crop=(9, 9, 13, 13), cell_px=CP)
    texts = [ln.text for col in build_legend(view, hidden, Palette(), base.terrain_keys, (area,), 900).columns
             for ln in col]
    assert "Blast" not in texts, "an area outside the crop is not in its legend"


def test_missed_shot_landing_is_marked_where_it_came_down() -> None:
    view = plain_view()
    image = render(view, overlays=(MissLanding((5, 5), (8, 7)),))
    cx, cy = centre(view, 8, 7)
    ring = image.crop((cx - int(CP * 0.36), cy - 3, cx - int(CP * 0.22), cy + 3))
    assert any(c == LANDED for _, c in colour_counts(ring))
    # The drift from the aimed square is drawn (dotted) between the two.
    (ax, ay), (bx, by) = centre(view, 5, 5), centre(view, 8, 7)
    mx, my = (ax + bx) // 2, (ay + by) // 2
    mid = image.crop((mx - 6, my - 6, mx + 6, my + 6))
    assert any(c == LANDED for _, c in colour_counts(mid))
    assert {(5, 5), (8, 7)} <= overlay_cells((MissLanding((5, 5), (8, 7)),))


def test_range_bands_tint_rings_by_distance() -> None:
    view = plain_view()
    bands = RangeBands((6, 6), (RangeBand("Short", 0, 2), RangeBand("Long", 3, 4)))
    image = render(view, overlays=(bands,))
    near = rgb_at(image, (centre(view, 8, 6)[0] + 8, centre(view, 8, 6)[1] + 8))
    far = rgb_at(image, (centre(view, 10, 6)[0] + 8, centre(view, 10, 6)[1] + 8))
    beyond = rgb_at(image, (centre(view, 12, 6)[0] + 8, centre(view, 12, 6)[1] + 8))
    assert near != PLAIN and far != PLAIN and near != far
    assert beyond == PLAIN
    # The same ring distance on the diagonal gets the same tint (Chebyshev distance).
    diagonal = rgb_at(image, (centre(view, 8, 8)[0] + 8, centre(view, 8, 8)[1] + 8))
    assert diagonal == near
    grey = render(view, overlays=(bands,), palette="grey")
    g_near = rgb_at(grey, (centre(view, 8, 6)[0] + 8, centre(view, 8, 6)[1] + 8))
    g_far = rgb_at(grey, (centre(view, 10, 6)[0] + 8, centre(view, 10, 6)[1] + 8))
    assert g_near != g_far, "bands stay apart in greyscale"


def test_range_band_names_are_in_the_legend() -> None:
    view = plain_view()
    bands = RangeBands((6, 6), (RangeBand("Short", 0, 2), RangeBand("Long", 3, 4)), label="Rifle")
    geometry = Geometry.for_view(view, cell_px=CP)
    base = base_layer(view, geometry, Palette())
    texts = [ln.text for col in build_legend(view, geometry, Palette(), base.terrain_keys, (bands,), 900).columns
             for ln in col]
    assert "Rifle: Short (0-2 sq)" in texts and "Long (3-4 sq)" in texts
