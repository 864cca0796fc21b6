"""A unit's options as a player sees them: how far each action goes from here, and its Command Radius now."""

from __future__ import annotations

import pytest

from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.orders import Move
from rules.systems.m42.reach import action_reach, command_radius
from rules.systems.m42.units import Spot
from tests.rules.m42.helpers import DICE, field, paint, rule, start, unit


def test_each_action_reports_its_full_and_halved_distance() -> None:
    """004:L31: Advance and Shooting Advance 6" (3" halved), Fall Back and At-The-Double 12" (6" halved)."""
    b = field()
    unit(b, "A", "C5")
    start(b)
    found = {r.action: (r.inches, r.halved) for r in action_reach(b, b.unit("A"))}
    assert found["advance"] == (6, 3) and found["shooting-advance"] == (6, 3)
    assert found["fall-back"] == (12, 6) and found["at-the-double"] == (12, 6)


@pytest.mark.constant("road_bonus")
def test_a_leader_on_a_road_adds_the_road_bonus_before_halving() -> None:
    """004:L72 "may add 2" to it's normal movement distance"; A91: halving comes after the bonus."""
    b = field()
    b.square(Cell(2, 4))["road"] = True
    unit(b, "A", "C5")
    start(b)
    found = {r.action: (r.inches, r.halved) for r in action_reach(b, b.unit("A"))}
    assert found["advance"] == (8, 4)
    rule(b, "road_bonus", "4")
    assert {r.action: r.inches for r in action_reach(b, b.unit("A"))}["advance"] == 10


def test_reach_lists_the_squares_the_action_takes_the_leader_to() -> None:
    b = field()
    paint(b, "woods", "F1", "Z20")
    unit(b, "A", "C5")
    start(b)
    advance = next(r for r in action_reach(b, b.unit("A")) if r.action == "advance")
    assert Cell.parse("E5") in advance.squares and Cell.parse("F5") in advance.squares
    assert Cell.parse("G5") not in advance.squares  # into the woods halves the whole move to 3"
    assert Spot(2, 4) not in advance.spots  # where it stands is no move


def test_command_radius_is_where_a_model_could_stand_now() -> None:
    """004:L38: into area terrain from outside only 1 x Ld; open ground 2 x Ld (004:L40)."""
    b = field()
    paint(b, "woods", "K1", "Z20")
    unit(b, "A", "J10", ld=2, models=3)
    radius = command_radius(b, b.unit("A"))
    assert Cell.parse("L10") in radius and Cell.parse("M10") not in radius  # 2" and 3" into the woods
    assert Cell.parse("F10") in radius and Cell.parse("E10") not in radius  # 4" and 5" over open ground
    assert Cell.parse("J10") not in radius  # the leader's own square


def test_an_unreachable_goal_is_refused_with_the_reachable_squares() -> None:
    b = field()
    paint(b, "woods", "F1", "Z20")
    unit(b, "A", "C5")
    start(b)
    before = b.to_dict()
    with pytest.raises(IllegalOrderError, match=r"the way there \(5\"\) goes through area terrain \(004:L29\), "
                                                r"which halves the move to 3\" \(A90\)") as err:
        b.apply(Move(unit="A", to=Cell.parse("H5"), mode="advance"), DICE)
    assert "F5" in err.value.cells and "H5" not in err.value.cells
    assert b.to_dict() == before
