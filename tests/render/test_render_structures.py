"""Pixel probes of structures and units of models: walls and other obstacles on sides, openings, roads, floors."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from PIL import Image

from render import Geometry, MapView, UnitToken, render_map
from render.layers.models import MODEL_SCALE
from render.layers.structures import OPENING_SHARE, edge_width, structure_swatches
from render.palette import EDGE_STYLES, OUTLINE, ROAD, WHITE, palette_named
from render.view import EdgeMark
from tests.render.render_samples import SIDES, STYLES, open_png, rgb_at, small_view

CP = 40
PLAIN = STYLES["plain"].color
WALL = EDGE_STYLES["wall"][1]
BLUE = SIDES[0].color


def view_with(**changes: Any) -> MapView:
    """Return the small probe map with structures added."""
    return dataclasses.replace(small_view(), **changes)


def render(view: MapView) -> Image.Image:
    """Render at the test cell size and decode."""
    return open_png(render_map(view, cell_px=CP))


def box(view: MapView, x: int, y: int) -> tuple[int, int, int, int]:
    """Return the canvas box of a square."""
    return Geometry.for_view(view, cell_px=CP).cell_box(x, y)


def test_a_wall_is_drawn_along_the_side_between_two_squares_and_nowhere_else() -> None:
    """A wall between F6 and G6 (a vertical side) colours that side's middle; the squares' centres keep their terrain."""
    view = view_with(edges=(EdgeMark((5, 5), (6, 5), "wall", height=2),))
    image = render(view)
    left, top, _, bottom = box(view, 6, 5)
    assert rgb_at(image, (left, (top + bottom) // 2)) == WALL
    assert rgb_at(image, (left, top + 6)) == WALL
    assert rgb_at(image, (left + CP // 2, (top + bottom) // 2)) == PLAIN
    # The side below it (F7|G7) has no wall.
    assert rgb_at(image, (left, bottom + CP // 2)) != WALL


def test_a_horizontal_side_is_drawn_across() -> None:
    """A hedge between E4 and E5 lies along E5's top line."""
    view = view_with(edges=(EdgeMark((4, 3), (4, 4), "hedge", height=1),))
    image = render(view)
    left, top, right, _ = box(view, 4, 4)
    hedge = EDGE_STYLES["hedge"][1]
    assert hedge in {rgb_at(image, (x, top)) for x in range(left + 2, right - 2)}
    assert rgb_at(image, ((left + right) // 2, top + CP // 2)) == PLAIN


def test_a_tall_obstacle_is_thicker_than_a_low_one() -> None:
    """Taller than infantry may cross (A99): drawn wider, so the pixel just past a low wall's width is wall."""
    low, tall = edge_width(CP, False), edge_width(CP, True)
    assert tall > low + 2
    probe_offset = low // 2 + 1
    for is_tall, expected in ((False, False), (True, True)):
        view = view_with(edges=(EdgeMark((5, 5), (6, 5), "wall", height=4 if is_tall else 2, tall=is_tall),),
                         map_version=f"tall-{is_tall}")
        image = render(view)
        left, top, _, bottom = box(view, 6, 5)
        assert (rgb_at(image, (left + probe_offset, (top + bottom) // 2)) == WALL) is expected


def test_an_opening_leaves_a_gap_between_white_posts() -> None:
    """A door in a wall: the middle of the side shows the ground through it, posts of white mark its ends."""
    view = view_with(edges=(EdgeMark((5, 5), (6, 5), "wall", height=3, opening=1.0),))
    image = render(view)
    left, top, _, bottom = box(view, 6, 5)
    mid = (top + bottom) // 2
    assert rgb_at(image, (left + 2, mid)) == PLAIN
    assert rgb_at(image, (left, top + 4)) == WALL
    gap = round(CP * OPENING_SHARE / 2)
    posts = {rgb_at(image, (left + dx, mid + sign * gap)) for dx in (-1, 0, 1) for sign in (-1, 1)}
    assert WHITE in posts


def test_an_unopenable_opening_is_bridged_by_a_dashed_line() -> None:
    """Models stand outside an unopenable building (004:L106): its opening is drawn closed by thin dashes."""
    open_door = render(view_with(edges=(EdgeMark((5, 5), (6, 5), "wall", opening=1.0),), map_version="open"))
    closed = view_with(edges=(EdgeMark((5, 5), (6, 5), "wall", opening=1.0, openable=False),), map_version="shut")
    shut = render(closed)
    left, top, _, bottom = box(closed, 6, 5)
    column = [(left, y) for y in range(top + CP // 4, bottom - CP // 4)]
    assert sum(rgb_at(shut, p) == WALL for p in column) > sum(rgb_at(open_door, p) == WALL for p in column)


@pytest.mark.parametrize("kind", sorted(EDGE_STYLES))
def test_every_obstacle_kind_has_its_own_colour(kind: str) -> None:
    """Walls, hedges, fences, creeks and lava channels each show their own colour on their side."""
    view = view_with(edges=(EdgeMark((5, 5), (6, 5), kind, height=1),))
    image = render(view)
    left, top, _, _ = box(view, 6, 5)
    colours = {rgb_at(image, (left + dx, top + dy)) for dx in range(-3, 4) for dy in range(3, CP - 3)}
    assert EDGE_STYLES[kind][1] in colours
    others = {c for k, (_, c) in EDGE_STYLES.items() if k != kind}
    assert not colours & others


def test_a_road_runs_between_road_squares_and_stops_at_its_end() -> None:
    """Road squares D5 and E5 are joined by a band; nothing runs north of them or past the last one."""
    view = view_with(roads=frozenset({(3, 4), (4, 4)}))
    image = render(view)
    left, top, right, bottom = box(view, 3, 4)
    cy = (top + bottom) // 2
    assert rgb_at(image, ((left + right) // 2, cy)) == ROAD
    assert rgb_at(image, (right - 3, cy)) == ROAD  # toward E5
    assert rgb_at(image, (left + 3, cy)) == PLAIN  # nothing toward C5
    assert rgb_at(image, ((left + right) // 2, top + 3)) == PLAIN  # nothing toward D4


def test_a_multi_storey_square_carries_its_floor_count() -> None:
    """A building square of 3 floors has a dark `3F` tag in its top-left corner; a plain square has none."""
    view = view_with(floors=((6, 6, 3),))
    image = render(view)
    left, top, _, _ = box(view, 6, 6)
    tag = {rgb_at(image, (left + dx, top + 2)) for dx in range(2, 6)}
    assert OUTLINE in tag
    left, top, _, _ = box(view, 8, 6)
    assert rgb_at(image, (left + 3, top + 2)) == PLAIN


def test_models_are_small_discs_in_the_side_colour_and_the_leader_the_big_token() -> None:
    """A unit of a leader and two models: the leader's square shows the big token, each model a smaller disc."""
    unit = UnitToken("a", "Alp", "NERV", 6, 6, models=((8, 6, 0), (6, 8, 0)))
    view = small_view(units=(unit,))
    image = render(view)
    for x, y in ((8, 6), (6, 8)):
        left, top, right, bottom = box(view, x, y)
        cx, cy = (left + right) // 2, (top + bottom) // 2
        r = round(CP * MODEL_SCALE)
        assert rgb_at(image, (cx, cy + r - 3)) == BLUE
        assert rgb_at(image, (cx, top + 2)) == PLAIN
    # A square with no model stays bare.
    left, top, right, bottom = box(view, 7, 8)
    assert rgb_at(image, ((left + right) // 2, (top + bottom) // 2)) == PLAIN


def test_a_model_under_its_leader_sits_in_the_corner() -> None:
    """A model on another floor of the leader's square is drawn in the square's bottom-right corner."""
    bare = render(small_view(units=(UnitToken("a", "Alp", "NERV", 6, 6),)))  # units are not in the cached base
    view = small_view(units=(UnitToken("a", "Alp", "NERV", 6, 6, level=1, models=((6, 6, 0),)),))
    image = render(view)
    _, _, right, bottom = box(view, 6, 6)
    corner = (right - 5, bottom - 6)
    assert rgb_at(image, corner) == BLUE
    assert rgb_at(bare, corner) != BLUE


def test_structures_are_named_in_the_legend_only_when_shown() -> None:
    """The legend lists the road, each obstacle kind (tall ones apart), openings and floors present."""
    view = view_with(
        edges=(EdgeMark((1, 5), (2, 5), "wall", tall=True), EdgeMark((5, 5), (6, 5), "hedge"),
               EdgeMark((8, 5), (9, 5), "wall", opening=1.0, openable=False)),
        roads=frozenset({(3, 9)}), floors=((6, 6, 2),),
    )
    geometry = Geometry.for_view(view, cell_px=CP)
    names = [name for name, _ in structure_swatches(view, geometry, palette_named("colour"))]
    assert names == ["Road", "Wall", "Wall, too tall to cross", "Hedge", "Opening, models stand outside",
                     "Floors of the building"]
    assert structure_swatches(small_view(), geometry, palette_named("colour")) == []


def test_edge_marks_refuse_squares_that_do_not_touch() -> None:
    with pytest.raises(ValueError, match="side-by-side"):
        EdgeMark((1, 1), (2, 2), "wall")


def test_the_text_map_reads_models_walls_roads_and_floors() -> None:
    """Screen readers hear what the picture shows: each unit's models, obstacles by kind, the road, the floors."""
    from render.describe import describe

    view = view_with(
        units=(UnitToken("a", "Alp", "NERV", 6, 6, level=1, models=((7, 6, 0), (6, 7, 1))),),
        edges=(EdgeMark((1, 5), (2, 5), "wall", height=4, tall=True), EdgeMark((5, 5), (5, 6), "hedge"),
               EdgeMark((8, 5), (9, 5), "wall", opening=1.0, openable=False)),
        roads=frozenset({(3, 9), (4, 9)}), floors=((6, 6, 2), (7, 6, 2)),
    )
    text = describe(view)
    assert "on G7 (floor 1)" in text.units[0] and "its other models on H7, G8 (floor 1)" in text.units[0]
    assert "Wall too tall to cross: 1 side, B6|C6." in text.marks
    assert "Hedge: 1 side, F6|F7." in text.marks
    assert 'Wall with an opening 1" wide (models stand outside): 1 side, I6|J6.' in text.marks
    assert "Road: 2 squares from D10 to E10." in text.marks
    assert "2 squares of 2 floors, from G7 to H7." in text.marks
