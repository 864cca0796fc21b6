"""Crowded squares stay readable: a legible token with its count for a stack, labels nothing covers, a key that
wraps, and labels that read on a 100x100 map."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PIL import Image

from render import Geometry, MapView, Marker, MovePath, UnitToken, render_map
from render.fonts import halo_mask, text_mask
from render.key import LINE, build_key, entry_text
from render.key import TEXT_PX as KEY_PX
from render.layers.units import TokenSize, label_size
from render.palette import LEGEND_PAPER, OUTLINE, TEXT_INK, WHITE, ink_on
from render.view import RGB
from tests.render.render_samples import SIDES, open_png, rgb_at, small_view

CP = 40
BLUE = SIDES[0].color
RED = SIDES[1].color
LEGIBLE_PX = 9  # the smallest label a player reads at a glance


def render(view: MapView, **kwargs: Any) -> Image.Image:
    """Render at a cell size (the test's, unless told) and decode."""
    return open_png(render_map(view, cell_px=kwargs.pop("cell_px", CP), **kwargs))


def painted(image: Image.Image, text: str, px: int, ink: RGB, back: RGB, near: tuple[int, int], slack: int = 4) -> bool:
    """Return whether text at this size is painted whole on its background (ring included) near a point.

    Every pixel of the text and of the one-pixel ring round it must be exactly what it is on a clean background.
    """
    ring = halo_mask(text, px)
    reference = Image.new("RGB", ring.size, back)
    reference.paste(ink, (1, 1), text_mask(text, px))
    want = [((x, y), reference.getpixel((x, y))) for y in range(ring.height) for x in range(ring.width)
            if ring.getpixel((x, y)) == 255]
    x0, y0 = near[0] - ring.width // 2, near[1] - ring.height // 2
    for oy in range(y0 - slack, y0 + slack + 1):
        for ox in range(x0 - slack, x0 + slack + 1):
            if all(image.getpixel((ox + x, oy + y)) == colour for (x, y), colour in want):
                return True
    return False


def painted_any_size(image: Image.Image, text: str, ink: RGB, back: RGB, near: tuple[int, int],
                     smallest: int = 6) -> int:
    """Return the font size at which text is painted whole near a point, or 0 when it is not."""
    for px in range(24, smallest - 1, -1):
        if painted(image, text, px, ink, back, near):
            return px
    return 0


def centre(view: MapView, x: int, y: int, cell_px: int = CP) -> tuple[int, int]:
    """Return the canvas pixel at the centre of a square."""
    return Geometry.for_view(view, cell_px=cell_px).cell_centre(x, y)


def test_two_units_on_a_40px_square_are_one_legible_token_with_their_count() -> None:
    """Side by side, two tokens in a 40 px square were 20 px with 7 px labels: now the square shows one token of
    a lone unit's size, split in the two side colours, with the count 2 in a legible size."""
    view = small_view(units=(UnitToken("a", "A", "NERV", 5, 5), UnitToken("b", "B", "Angels", 5, 5)))
    image = render(view)
    cx, cy = centre(view, 5, 5)
    radius = TokenSize.for_cell(CP).radius
    assert 2 * radius >= 0.8 * CP
    assert rgb_at(image, (cx - radius + 3, cy)) == BLUE and rgb_at(image, (cx + radius - 3, cy)) == RED
    assert painted_any_size(image, "2", OUTLINE, WHITE, (cx, cy)) >= LEGIBLE_PX


def test_three_units_of_one_side_show_their_count() -> None:
    units = tuple(UnitToken(k, k.upper(), "NERV", 5, 5) for k in "abc")
    image = render(small_view(units=units))
    cx, cy = centre(small_view(units=units), 5, 5)
    assert painted_any_size(image, "3", OUTLINE, WHITE, (cx, cy)) >= LEGIBLE_PX


def test_the_key_lists_who_stands_on_a_stacked_square() -> None:
    """The key has an entry named by the square (F6) listing each unit there by label and name."""
    units = (UnitToken("a", "Al", "NERV", 5, 5, name="Alpha"), UnitToken("b", "Br", "Angels", 5, 5, name="Bravo"))
    view = small_view(units=units)
    geometry = Geometry.for_view(view, cell_px=CP)
    image = render(view)
    key = build_key(view, geometry, image.width)
    stacked = [e for column in key.layout for e in column if e.pile]
    assert [(e.label, " ".join(e.lines)) for e in stacked] == [("F6", "2 units here: Al Alpha, Br Bravo")]
    assert [e.label for column in key.layout for e in column if not e.pile] == ["Al", "Br"], "each keeps its own entry"
    found = [y for y in range(image.height - key.height, image.height) if painted_row(image, "F6", y)]
    assert found, "the square's name is written in the key"


def painted_row(image: Image.Image, text: str, y: int) -> bool:
    """Return whether key text is painted with its ink box's top on row y, anywhere across the image."""
    mask = text_mask(text, KEY_PX)
    reference = Image.new("RGB", mask.size, LEGEND_PAPER)
    reference.paste(TEXT_INK, (0, 0), mask)
    rows = [reference.crop((0, r, mask.width, r + 1)).tobytes() for r in range(mask.height)]
    if y + mask.height > image.height:
        return False
    line = image.crop((0, y, image.width, y + 1)).tobytes()
    at = line.find(rows[0])
    while at != -1:
        x = at // 3
        if at % 3 == 0 and all(image.crop((x, y + r, x + mask.width, y + r + 1)).tobytes() == rows[r]
                               for r in range(1, len(rows))):
            return True
        at = line.find(rows[0], at + 1)
    return False


def test_big_squares_still_show_each_unit_with_its_label() -> None:
    """At 64 px a square has room for two tokens of readable size: each is drawn, with its own label."""
    view = small_view(units=(UnitToken("a", "AB", "NERV", 5, 5), UnitToken("b", "CD", "Angels", 5, 5)))
    image = render(view, cell_px=64)
    left, top = Geometry.for_view(view, cell_px=64).cell_box(5, 5)[:2]
    assert painted_any_size(image, "AB", ink_on(BLUE), BLUE, (left + round(0.26 * 64), top + 32)) >= LEGIBLE_PX
    assert painted_any_size(image, "CD", ink_on(RED), RED, (left + round(0.74 * 64), top + 32)) >= LEGIBLE_PX


def test_a_move_arrow_across_a_token_leaves_its_label_whole() -> None:
    """A path drawn over a standing unit's square covers its token, but never its label."""
    view = small_view(units=(UnitToken("a", "AB", "NERV", 5, 5),))
    arrow = MovePath(((2, 5), (3, 5), (4, 5), (5, 5), (6, 5), (7, 5), (8, 5)))
    image = render(view, overlays=(arrow,))
    cx, cy = centre(view, 5, 5)
    radius = TokenSize.for_cell(CP).radius
    band = image.crop((cx - radius, cy - 2, cx + radius, cy + 3))
    assert sum(n for n, c in band.getcolors(band.width * band.height) if c == (255, 255, 255)) > 10, "the arrow's white shaft crosses the token"
    px = label_size("AB", radius, TokenSize.for_cell(CP).outline, False)
    assert px >= LEGIBLE_PX and painted(image, "AB", px, ink_on(BLUE), BLUE, (cx, cy))


def test_a_model_under_a_move_arrow_keeps_its_label() -> None:
    """An M42 leader's model on a square the leader's path crosses: the arrow passes, the label stays whole."""
    leader = UnitToken("b", "Bra", "NERV", 8, 5, models=((5, 5, 0),))
    view = small_view(units=(leader,))
    arrow = MovePath(((2, 5), (3, 5), (4, 5), (5, 5), (6, 5), (7, 5), (8, 5)))
    plain = render(view)
    image = render(view, overlays=(arrow,))
    cx, cy = centre(view, 5, 5)
    px = painted_any_size(plain, "Bra", ink_on(BLUE), BLUE, (cx, cy))
    assert px > 0 and painted(image, "Bra", px, ink_on(BLUE), BLUE, (cx, cy))
    assert image.crop((cx - 10, cy - 10, cx + 10, cy + 10)).tobytes() != \
        plain.crop((cx - 10, cy - 10, cx + 10, cy + 10)).tobytes(), "the arrow is drawn across the model"


def test_a_leader_on_an_upper_floor_keeps_its_label_whole_beside_its_floor_badge() -> None:
    """An M42 leader on floor 1 gets a ^1 badge in its square's corner; its label stays whole at every size."""
    for cell_px in (24, 32, 40):
        view = small_view(units=(UnitToken("b", "Bra", "NERV", 5, 5, level=1, models=((5, 5, 0), (6, 5, 1))),))
        image = render(view, cell_px=cell_px)
        cx, cy = centre(view, 5, 5, cell_px)
        size = TokenSize.for_cell(cell_px)
        px = label_size("Bra", size.radius, size.outline, False)
        assert painted(image, "Bra", px, ink_on(BLUE), BLUE, (cx, cy)), cell_px


def test_tokens_on_a_100x100_map_keep_a_legible_label() -> None:
    """The whole 100x100 map is drawn at 18 px a square; a token keeps a radius whose label reads (9 px)."""
    units = (UnitToken("u", "U12", "NERV", 50, 50), UnitToken("v", "E01", "Angels", 20, 70))
    view = replace(small_view(width=100, height=100, units=units), title="Big")
    geometry = Geometry.for_view(view)
    assert geometry.cell_px == 18
    image = open_png(render_map(view))
    for unit, colour in zip(units, (BLUE, RED), strict=True):
        at = geometry.cell_centre(unit.x, unit.y)
        assert painted_any_size(image, unit.label, ink_on(colour), colour, at) >= LEGIBLE_PX, unit.label


def test_the_key_wraps_a_long_entry_instead_of_cutting_it() -> None:
    """A long name and statuses on a narrow map go on over several lines of the key, every word of them."""
    unit = UnitToken("t", "LS", "NERV", 2, 2, name="Locomotive Squadron of the Third Armoured Division",
                     health_text="Damaged", statuses=("damaged: Locomotive System", "Weapon System", "Pinned"))
    view = small_view(width=8, height=8, units=(unit,))
    geometry = Geometry.for_view(view, cell_px=24)
    image = render(view, cell_px=24)
    key = build_key(view, geometry, image.width)
    [entry] = [e for column in key.layout for e in column]
    assert len(entry.lines) >= 2 and not any("\u2026" in line for line in entry.lines)
    assert " ".join(entry.lines) == entry_text(unit)
    assert key.height >= 2 * 10 + 22 + 22 + LINE * (len(entry.lines) - 1)
    top = image.height - key.height
    last = entry.lines[-1]
    assert any(painted_row(image, last, y) for y in range(top, image.height)), "the last line is written out"


def test_a_callout_goes_below_its_square_when_a_unit_stands_above() -> None:
    """A marker's callout sits above its square, unless a unit stands there and none below: then it goes below."""
    def whites(image: Image.Image, view: MapView, x: int, y: int) -> int:
        box = Geometry.for_view(view, cell_px=CP).cell_box(x, y)
        region = image.crop(box)
        return sum(n for n, c in region.getcolors(region.width * region.height) if c == (255, 255, 255))

    marker = Marker(5, 5, "Fire")
    empty = small_view()
    assert whites(render(empty, overlays=(marker,)), empty, 5, 4) > 100
    assert whites(render(empty, overlays=(marker,)), empty, 5, 6) == 0
    above = small_view(units=(UnitToken("a", "AB", "NERV", 5, 4),))
    image = render(above, overlays=(marker,))
    assert whites(image, above, 5, 6) > 100, "the callout went below"
    radius = TokenSize.for_cell(CP).radius
    px = label_size("AB", radius, TokenSize.for_cell(CP).outline, False)
    assert painted(image, "AB", px, ink_on(BLUE), BLUE, centre(above, 5, 4))
