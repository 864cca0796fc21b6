"""Readable maps: big tokens and bars, every unit of a shared square, the unit key, an uncut title."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PIL import Image

from render import FeatureMark, Geometry, MapView, SideStyle, UnitToken, cell_box, render_image, render_map
from render.fonts import text_width
from render.geometry import TITLE_FONT_PX, TITLE_HEIGHT, TITLE_HEIGHT_TWO_LINES
from render.key import ROW, build_key, entry_text, key_units
from render.layers.base import base_layer
from render.layers.title import PAD, title_width
from render.layers.units import TokenSize
from render.legend import build_legend
from render.palette import CONTESTED, HEALTH_GOOD, HEALTH_POOR, LEGEND_PAPER, OUTLINE, Palette
from tests.render.render_samples import SIDES, STYLES, colour_counts, open_png, rgb_at, small_view

CP = 40
BLUE = SIDES[0].color
RED = SIDES[1].color
FOUR_SIDES = (*SIDES, SideStyle("Green", (40, 170, 60)), SideStyle("Gold", (230, 180, 20)))


def render(view: MapView, **kwargs: Any) -> Image.Image:
    """Render at the test cell size and decode."""
    return open_png(render_map(view, cell_px=kwargs.pop("cell_px", CP), **kwargs))


def square(image: Image.Image, view: MapView, x: int, y: int, cp: int = CP) -> Image.Image:
    """Return the pixels of one square."""
    left, top, right, bottom = cell_box(view, x, y, cell_px=cp)
    return image.crop((left, top, right, bottom))


def count(region: Image.Image, colour: tuple[int, int, int]) -> int:
    """Return how many pixels of a region have exactly this colour."""
    return sum(n for n, c in colour_counts(region) if c == colour)


def test_a_lone_token_fills_most_of_its_square() -> None:
    view = small_view(units=(UnitToken("a", "A", "NERV", 6, 6, health=1.0),))
    image = render(view)
    size = TokenSize.for_cell(CP)
    assert size.radius >= 0.42 * CP
    cx, cy = Geometry.for_view(view, cell_px=CP).cell_centre(6, 6)
    # Side colour 0.35 of a square left and right of the (raised) centre: the disc spans most of the square.
    assert rgb_at(image, (cx - int(0.35 * CP), cy - size.lift)) == BLUE
    assert rgb_at(image, (cx + int(0.35 * CP), cy - size.lift)) == BLUE


def test_health_bar_is_wide_tall_and_coloured_by_health() -> None:
    units = (UnitToken("a", "A", "NERV", 3, 6, health=1.0), UnitToken("b", "B", "NERV", 8, 6, health=0.2))
    view = small_view(units=units)
    image = render(view)
    size = TokenSize.for_cell(CP)
    assert size.bar_h >= 0.15 * CP
    for x, colour in ((3, HEALTH_GOOD), (8, HEALTH_POOR)):
        left, _top, right, bottom = cell_box(view, x, 6, cell_px=CP)
        row = bottom - 1 - size.bar_h // 2 - 1
        strip = image.crop((left, row, right, row + 1))
        if colour == HEALTH_GOOD:
            assert count(strip, colour) >= 0.75 * CP, "a full bar runs across most of the square"
        else:
            assert 0 < count(strip, colour) <= 0.3 * CP, "a fifth of health fills a fifth of the bar"


def test_health_bars_show_on_small_squares_too() -> None:
    view = small_view(units=(UnitToken("a", "A", "NERV", 6, 6, health=1.0),))
    image = render(view, cell_px=16)
    assert count(square(image, view, 6, 6, 16), HEALTH_GOOD) >= 6


def test_every_unit_of_a_shared_square_shows_in_its_side_colour() -> None:
    """Four units of four sides on one square: each side's colour shows, in its own quarter."""
    units = tuple(UnitToken(f"u{i}", f"U{i}", side.name, 5, 5) for i, side in enumerate(FOUR_SIDES))
    view = replace(small_view(units=units), sides=FOUR_SIDES)
    image = render(view)
    cell = square(image, view, 5, 5)
    half = CP // 2
    quarters = ((0, 0), (half, 0), (0, half), (half, half))
    for side, (qx, qy) in zip(FOUR_SIDES, quarters, strict=True):
        quarter = cell.crop((qx, qy, qx + half, qy + half))
        assert count(quarter, side.color) >= 60, side.name
        others = [s.color for s in FOUR_SIDES if s != side]
        assert all(count(quarter, c) < 10 for c in others), f"{side.name}'s quarter holds only its token"


def test_two_units_on_one_square_are_both_drawn() -> None:
    one = small_view(units=(UnitToken("a", "A", "NERV", 5, 5),))
    two = small_view(units=(UnitToken("a", "A", "NERV", 5, 5), UnitToken("b", "B", "Angels", 5, 5)))
    image = render(two)
    cell = square(image, two, 5, 5)
    assert count(cell, BLUE) > 40 and count(cell, RED) > 40
    assert count(square(render(one), one, 5, 5), RED) == 0


def test_enemies_sharing_a_square_get_a_hazard_frame() -> None:
    friends = small_view(units=(UnitToken("a", "A", "NERV", 5, 5), UnitToken("b", "B", "NERV", 5, 5)))
    enemies = small_view(units=(UnitToken("a", "A", "NERV", 5, 5), UnitToken("b", "B", "Angels", 5, 5)))
    assert count(square(render(friends), friends, 5, 5), CONTESTED) == 0
    framed = square(render(enemies), enemies, 5, 5)
    edge = framed.crop((0, 0, CP, 4))
    assert count(edge, CONTESTED) >= 8 and count(edge, OUTLINE) >= 8, "yellow and black dashes along the top"
    # In greyscale the dashes still alternate light and dark.
    grey = square(render(enemies, palette="grey"), enemies, 5, 5).crop((0, 0, CP, 4))
    shades = {c[0] for _, c in colour_counts(grey)}
    assert min(shades) < 60 and max(shades) > 170


def test_legend_explains_shared_squares_features_and_every_status() -> None:
    units = (
        UnitToken("a", "A", "NERV", 5, 5, marks=("p", "I")),
        UnitToken("b", "B", "Angels", 5, 5, marks=("R", "~")),
    )
    features = (FeatureMark(2, 9, "TR", (120, 84, 40), name="Trench"),
                FeatureMark(3, 9, "MF", (170, 40, 120), hidden=True, name="Minefield"))
    view = small_view(units=units, features=features)
    geometry = Geometry.for_view(view, cell_px=CP)
    base = base_layer(view, geometry, Palette())
    legend = build_legend(view, geometry, Palette(), base.terrain_keys, (), 900)
    texts = [line.text for column in legend.columns for line in column]
    assert "Enemies share the square" in texts
    assert {"Prone", "Immobilised", "Routing", "Sunk"} <= set(texts)
    assert "Features" in texts and "Trench" in texts
    assert "Minefield (hidden: only you see it)" in texts


def test_the_key_lists_every_unit_shown_with_name_side_owner_health_and_status() -> None:
    units = (
        UnitToken("e1", "E01", "NERV", 2, 2, health=0.5, name="Eva-01", owner="shinji", health_text="Wounds 20/40",
                  statuses=("Pinned",)),
        UnitToken("s", "Sac", "Angels", 2, 2, name="Sachiel"),
        UnitToken("far", "Far", "Angels", 12, 12, name="Far away"),
    )
    view = small_view(units=units)
    crop = (0, 0, 7, 7)
    geometry = Geometry.for_view(view, crop=crop, cell_px=CP)
    assert [u.label for u in key_units(view, geometry)] == ["E01", "Sac"], "by side, and only the units shown"
    assert entry_text(units[0]) == "Eva-01 \u00b7 NERV \u00b7 shinji \u00b7 Wounds 20/40 \u00b7 Pinned"
    image = render_image(view, crop=crop, cell_px=CP)
    without = render_image(view, crop=crop, cell_px=CP, show_key=False)
    key = build_key(view, geometry, image.width)
    assert image.height - without.height == key.height > 2 * ROW
    # The key's swatches are the units' side colours, one row each (one column here).
    key_top = without.height
    first_row = key_top + 10 + 22 + ROW // 2
    assert rgb_at(image, (10 + 8, first_row)) == BLUE
    assert rgb_at(image, (10 + 8, first_row + ROW)) == RED
    assert rgb_at(image, (image.width - 3, key_top + 5)) == LEGEND_PAPER


def test_the_key_sorts_labels_naturally_and_flows_into_columns() -> None:
    units = tuple(UnitToken(f"u{i}", f"U{i}", "NERV", i % 14, i // 14) for i in range(40))
    view = small_view(units=units)
    geometry = Geometry.for_view(view, cell_px=CP)
    labels = [u.label for u in key_units(view, geometry)]
    assert labels[:4] == ["U0", "U1", "U2", "U3"] and labels.index("U9") < labels.index("U10")
    key = build_key(view, geometry, 1200)
    assert key.columns >= 3 and key.rows * key.columns >= 40
    assert build_key(view, geometry, 300).columns == 1


def test_no_units_no_key() -> None:
    view = small_view()
    assert render_image(view, cell_px=CP).tobytes() == render_image(view, cell_px=CP, show_key=False).tobytes()


def test_status_line_adds_a_second_title_line() -> None:
    plain = small_view()
    status = replace(plain, status="Round 2 \u00b7 NERV phase \u00b7 to act: Eva-01")
    assert Geometry.for_view(plain).title_height == TITLE_HEIGHT
    assert Geometry.for_view(status).title_height == TITLE_HEIGHT_TWO_LINES
    a, b = render(plain), render(status)
    assert b.height - a.height == TITLE_HEIGHT_TWO_LINES - TITLE_HEIGHT
    second_line = b.crop((PAD, TITLE_HEIGHT_TWO_LINES // 2 + 4, PAD + 120, TITLE_HEIGHT_TWO_LINES - 4))
    assert any(min(c) > 200 for _, c in colour_counts(second_line)), "light text on the dark bar"


def test_a_narrow_crop_never_cuts_the_title() -> None:
    title = "The Siege of Hakone Fortress, third night of the long retreat \u00b7 Strategic Combat (E-Scale)"
    view = replace(small_view(width=40, height=40), title=title, status="Round 12 \u00b7 Angels phase")
    crop = (3, 3, 9, 9)
    narrow = render(view, crop=crop, cell_px=18)
    geometry = Geometry.for_view(view, crop=crop, cell_px=18)
    assert geometry.board_width < text_width(title, TITLE_FONT_PX), "the crop alone is narrower than its title"
    assert narrow.width >= title_width(view, geometry) >= text_width(title, TITLE_FONT_PX) + 2 * PAD
    wide = render(view, cell_px=18)
    # The title's pixels are the same as on the whole map: nothing shortened.
    line = (0, 0, text_width(title, TITLE_FONT_PX) + 2 * PAD, TITLE_HEIGHT_TWO_LINES // 2)
    assert narrow.crop(line).tobytes() == wide.crop(line).tobytes()


def test_a_grey_map_keeps_tokens_bars_and_stacks_apart() -> None:
    units = (
        UnitToken("a", "A", "NERV", 5, 5, health=1.0),
        UnitToken("b", "B", "Angels", 5, 5, health=0.5),
        UnitToken("c", "C", "Angels", 9, 9, health=1.0),
    )
    view = small_view(units=units, terrain=tuple("plain" for _ in range(14 * 14)))
    image = render(view, palette="grey")
    cell = square(image, view, 5, 5)
    greys = {c[0] for _, c in colour_counts(cell)}
    # The two sides' greys are far apart, and white bars sit in dark troughs.
    assert Palette(grey=True).side(0, BLUE)[0] in greys and Palette(grey=True).side(1, RED)[0] in greys
    lone = square(image, view, 9, 9)
    assert count(lone, (255, 255, 255)) >= CP // 2, "a full health bar is white"
    assert STYLES["plain"].color not in {c for _, c in colour_counts(lone)}
