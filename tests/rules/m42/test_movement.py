"""How far an M42 leader moves (RULES.md 5.1, rulings A90, A91, A93, A98, A99), from the seed's sentences."""

from __future__ import annotations

import pytest

from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.orders import Move
from rules.systems.m42.orders import SetRoad
from tests.rules.m42.helpers import DICE, ends, field, paint, rule, start, unit, wall


def test_open_ground_advance_is_six_inches() -> None:
    """004:L23 "Open Ground ... has no effect on either a Leader's Movement"; 004:L31 Advance 6"."""
    b = field()
    unit(b, "A", "C5")
    start(b)
    assert "I5" in ends(b, "A", "advance") and "J5" not in ends(b, "A", "advance")
    assert "O5" in ends(b, "A", "at-the-double") and "P5" not in ends(b, "A", "at-the-double")


def test_area_terrain_halves_the_leader() -> None:
    """004:L31 "...while performing an 'Advance' ... will only be able to move 3" instead of the normal 6"."""
    b = field()
    paint(b, "woods", "D1", "Z20")
    unit(b, "A", "C5")
    start(b)
    assert "F5" in ends(b, "A", "advance") and "G5" not in ends(b, "A", "advance")
    assert "I5" in ends(b, "A", "fall-back") and "J5" not in ends(b, "A", "fall-back")


def test_crossing_a_linear_obstacle_halves() -> None:
    """004:L58 "Unit leaders that cross a Linear Obstacle ... will move at half the speed"."""
    b = field()
    for row in range(1, 21):
        wall(b, f"D{row}|E{row}", "hedge", height=1.0)
    unit(b, "A", "C5")
    start(b)
    got = ends(b, "A", "advance")
    assert "F5" in got and "G5" not in got
    assert "C11" in got  # along its own side of the hedge the move is whole


@pytest.mark.constant("halve_once")
def test_several_causes_halve_once_and_the_override_stacks_them() -> None:
    """A90: "halve once. The causes do not stack." Off, each cause halves again."""
    b = field()
    paint(b, "woods", "E1", "Z20")
    for row in range(1, 21):
        wall(b, f"D{row}|E{row}", "fence", height=1.0)
    unit(b, "A", "C5")
    start(b)
    assert "F5" in ends(b, "A", "advance")  # 3 inches: hedge and woods halve once
    rule(b, "halve_once", "false")
    got = ends(b, "A", "advance")
    assert "E5" not in got and "D5" in got  # 6 / 2 / 2 = 1.5 inches: two squares across is too far


@pytest.mark.constant("road_before_halving")
def test_road_bonus_before_halving() -> None:
    """004:L72 "may add 2" to it's normal movement distance"; A91 "distance = (base + 2 if road) / (2 if halved)"."""
    b = field()
    b.apply(SetRoad(frm=Cell.parse("A5"), to=Cell.parse("Z5")), DICE)
    unit(b, "A", "C5")
    start(b)
    assert "K5" in ends(b, "A", "advance") and "L5" not in ends(b, "A", "advance")
    assert "J6" not in ends(b, "A", "advance")  # off the road: no bonus
    paint(b, "woods", "D5", "Z5")
    assert "G5" in ends(b, "A", "advance") and "H5" not in ends(b, "A", "advance")  # (6 + 2) / 2 = 4
    rule(b, "road_before_halving", "false")
    assert "H5" in ends(b, "A", "advance") and "I5" not in ends(b, "A", "advance")  # 6 / 2 + 2 = 5


@pytest.mark.constant("tall_wall")
@pytest.mark.parametrize(("height", "crossable"), [(3.0, True), (3.5, False)])
def test_three_inch_wall_is_crossable_and_taller_is_not(height: float, crossable: bool) -> None:
    """004:L59 "A Linear Obstacle, such as a wall, that is taller than 3" may not be crossed"; A99 "Exactly 3" tall → crossable"."""
    b = field(10, 3)
    for row in (1, 2, 3):
        wall(b, f"C{row}|D{row}", height=height, thickness=0.5)
    unit(b, "A", "B2")
    start(b)
    assert ("D2" in ends(b, "A", "advance")) is crossable
    if not crossable:
        with pytest.raises(IllegalOrderError, match="taller than 3"):
            b.apply(Move(unit="A", to=Cell.parse("D2"), mode="advance"), DICE)
        rule(b, "tall_wall", "4")
        assert "D2" in ends(b, "A", "advance")


@pytest.mark.parametrize(("thickness", "crossable"), [(1.0, False), (1.5, True)])
def test_one_inch_wide_obstacle_is_linear_and_wider_is_area(thickness: float, crossable: bool) -> None:
    """004:L54 "only 1" or less in width. Any terrain features which are wider than 1" are considered Area Terrain"; A99."""
    b = field(10, 3)
    for row in (1, 2, 3):
        wall(b, f"C{row}|D{row}", height=4.0, thickness=thickness)
    unit(b, "A", "B2")
    start(b)
    got = ends(b, "A", "advance")
    assert ("D2" in got) is crossable
    if crossable:
        assert "E2" in got and "F2" not in got  # halved as area terrain: 3 inches


def test_impassable_terrain_is_refused_and_nothing_changes() -> None:
    """004:L129 "Infantry Units may not enter Impassable terrain at all for any reason."."""
    b = field(10, 3)
    paint(b, "lava", "D1", "D3")
    unit(b, "A", "B2")
    start(b)
    before = b.to_dict()
    with pytest.raises(IllegalOrderError, match="004:L129"):
        b.apply(Move(unit="A", to=Cell.parse("D2"), mode="advance"), DICE)
    assert b.to_dict() == before
    assert "E2" not in ends(b, "A", "advance")


def test_vehicles_are_not_stopped_by_impassable_terrain() -> None:
    """A98: "The engine blocks only infantry."."""
    b = field(10, 3)
    paint(b, "lava", "D1", "D3")
    unit(b, "A", "B2", traits=("vehicle",))
    start(b)
    assert "D2" in ends(b, "A", "advance")


@pytest.mark.constant("standoff")
def test_standoff_from_enemies_except_assault() -> None:
    """A93: "no model may move or be placed within 2" of an enemy model unless it is performing an assault"."""
    b = field(20, 3)
    unit(b, "A", "B2")
    unit(b, "E", "J2", side="Blue")
    start(b)
    got = ends(b, "A", "advance")
    assert "G2" in got and "H2" not in got  # G2-J2: 2" between bases; H2: 1"
    assert "H2" in ends(b, "A", "assault")
    rule(b, "standoff", "0")
    assert "H2" in ends(b, "A", "advance")


def test_outer_wall_without_opening_halves_and_a_door_does_not() -> None:
    """004:L88 "if a leader's movement crosses an outer wall ... where there is no opening, ... half"."""
    b = field(12, 3)
    paint(b, "building", "E1", "L3")
    unit(b, "A", "B2")
    start(b)
    got = ends(b, "A", "advance")
    assert "E2" in got and "F2" not in got  # 3" through the wall: B2 to E2
    before = b.to_dict()
    with pytest.raises(IllegalOrderError, match=r"goes through an outer wall or ceiling without an opening "
                                                r"\(004:L88\), which halves the move to 3\" \(A90\)"):
        b.apply(Move(unit="A", to=Cell.parse("G2"), mode="advance"), DICE)
    assert b.to_dict() == before
    wall(b, "D2|E2", height=3.0, opening=1.0)
    got = ends(b, "A", "advance")
    assert "H2" in got and "I2" not in got  # 6" through the door


def test_stairs_cost_the_floor_height() -> None:
    """004:L90 "measure the leader's movement straight up or down from one floor to another"."""
    from rules.systems.m42.orders import SetFloors

    b = field(12, 3)
    paint(b, "building", "B1", "L3")
    b.apply(SetFloors(frm=Cell.parse("B1"), to=Cell.parse("L3"), floors=2), DICE)
    unit(b, "A", "B2")
    start(b)
    got = ends(b, "A", "advance")
    assert "B2^1" in got and "E2^1" in got and "F2^1" not in got  # 3" up, 3" across
    assert "B2^2" not in got  # the roof: through the ceiling halves, 6" of climbing is over 3"


@pytest.mark.constant("advance_inches")
def test_action_distances_are_constants_the_gm_sets() -> None:
    """A89: "Action distances: Advance 6", Shooting Advance 6", Fall Back 12", At-The-Double 12". Other actions are configurable"."""
    b = field()
    unit(b, "A", "C5")
    start(b)
    assert "I5" in ends(b, "A", "advance") and "J5" not in ends(b, "A", "advance")
    rule(b, "advance_inches", "8")
    assert "K5" in ends(b, "A", "advance") and "L5" not in ends(b, "A", "advance")
    assert "O5" in ends(b, "A", "fall-back") and "P5" not in ends(b, "A", "fall-back")
