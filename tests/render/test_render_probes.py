"""Pixel probes at known squares: terrain, tokens, stacks, Hordes, health, marks, features, overlays."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render import (
    CellEffect,
    FeatureMark,
    Geometry,
    LineOfFire,
    MapView,
    MovePath,
    Reachable,
    TargetSquare,
    UnitToken,
    cell_box,
    render_map,
)
from render.layers.units import TokenSize
from render.palette import SHOT_HIT, TARGET
from tests.render.render_samples import SIDES, STYLES, colour_counts, dominant, open_png, rgb_at, small_view

CP = 32
BLUE = SIDES[0].color
PLAIN = STYLES["plain"].color
FOREST = STYLES["forest"].color


def render(view: MapView, **kwargs: Any) -> Image.Image:
    """Render at the test cell size and decode."""
    return open_png(render_map(view, cell_px=CP, **kwargs))


def centre(view: MapView, x: int, y: int) -> tuple[int, int]:
    """Return the canvas centre pixel of a square."""
    return Geometry.for_view(view, cell_px=CP).cell_centre(x, y)


def close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 6) -> bool:
    """Return whether two colours match within a small tolerance."""
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


def test_empty_plain_square_shows_its_terrain_colour() -> None:
    view = small_view()
    image = render(view)
    assert rgb_at(image, centre(view, 8, 8)) == PLAIN


def test_patterned_square_is_dominated_by_its_terrain_colour() -> None:
    view = small_view()
    image = render(view)
    assert dominant(image, cell_box(view, 1, 1, cell_px=CP)) == FOREST


def test_unit_token_shows_its_side_colour() -> None:
    view = small_view(units=(UnitToken("a", "INF", "NERV", 6, 6),))
    image = render(view)
    cx, cy = centre(view, 6, 6)
    radius = TokenSize.for_cell(CP).radius
    # Below the label, inside the disc.
    assert rgb_at(image, (cx, cy + int(radius * 0.65))) == BLUE
    assert rgb_at(image, (cx - (radius - 3), cy)) == BLUE


def test_unknown_side_gets_a_neutral_token() -> None:
    view = small_view(units=(UnitToken("a", "X", "Nobody", 6, 6),))
    image = render(view)
    cx, cy = centre(view, 6, 6)
    colour = rgb_at(image, (cx, cy + int(TokenSize.for_cell(CP).radius * 0.65)))
    assert colour[0] == colour[1] == colour[2]


def test_a_stack_too_big_for_its_square_shows_one_token_with_its_count() -> None:
    """Five tokens side by side in a 32 px square would be 8 px each: the square shows one lone-size token in the
    side colour, with a white roundel in its middle for the count, and no "+N" badge in its corner."""
    units = (*tuple(UnitToken(k, k.upper(), "NERV", 4, 4) for k in "abcde"), UnitToken("f", "F", "NERV", 9, 9))
    view = small_view(units=units)
    image = render(view)
    cx, cy = centre(view, 4, 4)
    radius = TokenSize.for_cell(CP).radius
    assert rgb_at(image, (cx - radius + 3, cy)) == BLUE and rgb_at(image, (cx + radius - 3, cy)) == BLUE
    roundel = image.crop((cx - 4, cy - 6, cx + 5, cy + 7))
    assert sum(n for n, c in colour_counts(roundel) if min(c) >= 235) >= 20, "the count sits on a white roundel"
    _left, _top, right, bottom = cell_box(view, 4, 4, cell_px=CP)
    corner = image.crop((right - 5, bottom - 5, right - 1, bottom - 1))
    assert sum(n for n, c in colour_counts(corner) if min(c) >= 235) == 0, "no +N badge"


def test_horde_is_square_and_a_unit_is_round() -> None:
    units = (
        UnitToken("h", "H", "NERV", 3, 8, is_horde=True),
        UnitToken("u", "U", "NERV", 9, 8),
    )
    view = small_view(units=units)
    image = render(view)
    radius = TokenSize.for_cell(CP).radius
    hx, hy = centre(view, 3, 8)
    ux, uy = centre(view, 9, 8)
    # Toward the token's bounding-box corner: filled for a square, bare ground for a disc.
    assert rgb_at(image, (hx - (radius - 4), hy + (radius - 4))) == BLUE
    assert rgb_at(image, (ux - (radius - 1), uy + (radius - 1))) == PLAIN


def test_health_bar_only_when_health_is_known() -> None:
    units = (
        UnitToken("a", "A", "NERV", 3, 8, health=None),
        UnitToken("b", "B", "NERV", 6, 8, health=1.0),
        UnitToken("c", "C", "NERV", 9, 8, health=0.2),
    )
    view = small_view(units=units)
    image = render(view)

    def bar(x: int) -> bytes:
        left, _top, right, bottom = cell_box(view, x, 8, cell_px=CP)
        return image.crop((left + 1, bottom - 8, right, bottom)).tobytes()

    assert bar(3) != bar(6)
    assert bar(6) != bar(9)


def test_status_marks_draw_a_badge_in_the_top_left() -> None:
    units = (UnitToken("a", "A", "NERV", 3, 8, marks=("P",)), UnitToken("b", "A", "NERV", 9, 8))
    view = small_view(units=units)
    image = render(view)

    def corner(x: int) -> bytes:
        left, top, _, _ = cell_box(view, x, 8, cell_px=CP)
        return image.crop((left + 1, top + 1, left + CP // 3, top + CP // 3)).tobytes()

    assert corner(3) != corner(9)


def test_feature_frame_uses_its_colour() -> None:
    colour = (120, 84, 40)
    view = small_view(features=(FeatureMark(7, 7, "TR", colour),))
    image = render(view)
    left, top, right, bottom = cell_box(view, 7, 7, cell_px=CP)
    assert rgb_at(image, (right - 2, (top + bottom) // 2)) == colour
    assert rgb_at(image, ((left + right) // 2, top + 2)) == colour


def test_effects_change_their_square() -> None:
    plain = render(small_view())
    for kind in ("fire", "smoke", "storm", "burnt", "deep"):
        view = small_view(effects=(CellEffect(7, 7, kind),))
        image = render(view)
        box = cell_box(view, 7, 7, cell_px=CP)
        assert image.crop(box).tobytes() != plain.crop(box).tobytes(), kind


def test_move_path_passes_through_step_centres() -> None:
    view = small_view()
    colour = (255, 214, 10)
    path = MovePath(((2, 8), (3, 8), (4, 8), (5, 8)), colour)
    image = render(view, overlays=(path,))
    assert rgb_at(image, centre(view, 3, 8)) == colour
    assert rgb_at(image, centre(view, 4, 8)) == colour


def test_line_of_fire_and_target_square() -> None:
    view = small_view()
    overlays = (LineOfFire((2, 10), (10, 10), hit=True), TargetSquare(10, 10))
    image = render(view, overlays=overlays)
    assert close(rgb_at(image, centre(view, 6, 10)), SHOT_HIT)
    left, top, _right, bottom = cell_box(view, 10, 10, cell_px=CP)
    assert close(rgb_at(image, (left, (top + bottom) // 2 - 8)), TARGET)


def test_reachable_tints_only_its_squares() -> None:
    view = small_view()
    area = Reachable(frozenset({(6, 6), (7, 6), (6, 7), (7, 7)}), "Walk", (60, 170, 250))
    plain = render(view)
    tinted = render(view, overlays=(area,))
    inside = centre(view, 6, 6)
    outside = centre(view, 10, 10)
    assert rgb_at(tinted, inside) != rgb_at(plain, inside)
    assert rgb_at(tinted, outside) == rgb_at(plain, outside)
