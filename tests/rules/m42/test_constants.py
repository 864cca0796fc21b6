"""M42 constants a GM overrides with /battle rules set: each one changed, and the move or placement changes with it."""

from __future__ import annotations

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.orders import Move
from rules.systems.m42.orders import SetFloors
from rules.systems.m42.units import Unit
from tests.rules.m42.helpers import DICE, ends, field, ok, paint, rule, start, unit, wall


@pytest.mark.constant("shooting_advance_inches", "fall_back_inches", "at_the_double_inches")
@pytest.mark.parametrize(("action", "key", "seed_end", "seed_beyond"), [
    ("shooting-advance", "shooting_advance_inches", "I5", "J5"),  # 6"
    ("fall-back", "fall_back_inches", "O5", "P5"),  # 12"
    ("at-the-double", "at_the_double_inches", "O5", "P5"),  # 12"
])
def test_each_action_distance_is_the_gms(action: str, key: str, seed_end: str, seed_beyond: str) -> None:
    """A89: "Action distances: Advance 6", Shooting Advance 6", Fall Back 12", At-The-Double 12". Other actions
    are configurable." A leader on open ground at C5 walks one square per inch; set to 9", the action ends at L5."""
    b = field()
    unit(b, "A", "C5")
    start(b)
    got = ends(b, "A", action)
    assert seed_end in got and seed_beyond not in got
    rule(b, key, "9")
    got = ends(b, "A", action)
    assert "L5" in got and "M5" not in got
    assert "I5" in ends(b, "A", "advance") and "J5" not in ends(b, "A", "advance")  # another action keeps its 6"


@pytest.mark.constant("assault_inches")
def test_assault_distance_is_the_gms() -> None:
    """A89: "Other actions are configurable"; A93: only an assault comes within the standoff of an enemy.
    Set to 3", the assault from B2 stops short of the enemy; set to 6", it closes in to H2, beside it."""
    b = field(20, 3)
    unit(b, "A", "B2")
    unit(b, "E", "I2", side="Blue")
    start(b)
    rule(b, "assault_inches", "3")
    got = ends(b, "A", "assault")
    assert "E2" in got and "F2" not in got
    before = b.to_dict()
    with pytest.raises(IllegalOrderError, match="cannot assault to H2"):
        b.apply(Move(unit="A", to=Cell.parse("H2"), mode="assault"), DICE)
    assert b.to_dict() == before
    rule(b, "assault_inches", "6")
    assert "H2" in ends(b, "A", "assault") and "H2" not in ends(b, "A", "advance")
    b.apply(Move(unit="A", to=Cell.parse("H2"), mode="assault"), DICE)
    assert b.unit("A").cell == Cell.parse("H2")


def _two_floors() -> Battle[Unit]:
    """Return a field whose squares B1 to L3 are one building of two floors."""
    b = field(12, 3)
    paint(b, "building", "B1", "L3")
    b.apply(SetFloors(frm=Cell.parse("B1"), to=Cell.parse("L3"), floors=2), DICE)
    return b


@pytest.mark.constant("floor_height")
def test_floor_height_is_what_the_stairs_cost() -> None:
    """004:L90 "measure the leader's movement straight up or down from one floor to another. Any remaining movement
    may then be used ... to travel horizontally within a floor": an Advance of 6" (004:L31) from B2."""
    b = _two_floors()
    unit(b, "A", "B2")
    start(b)
    rule(b, "floor_height", "1")
    got = ends(b, "A", "advance")
    assert "G2^1" in got and "H2^1" not in got  # 1" up, 5" across
    rule(b, "floor_height", "4")
    got = ends(b, "A", "advance")
    assert "D2^1" in got and "E2^1" not in got  # 4" up, 2" across
    rule(b, "floor_height", "7")
    assert not any(s.endswith("^1") for s in ends(b, "A", "advance"))  # 7" up is beyond a 6" Advance


@pytest.mark.constant("floor_height")
def test_floor_height_against_the_command_radius() -> None:
    """004:L96 "If the distance between those floors is equal to or less than the unit's CR, then models may be
    placed anywhere on those floors": Ld 2 is a CR of 4" (004:L40)."""
    b = _two_floors()
    unit(b, "A", "C2", ld=2)
    rule(b, "floor_height", "4")
    assert ok(b, "A", "C2^1") and ok(b, "A", "F2^1")  # floors 4" apart: in reach, then 3" across top-down
    rule(b, "floor_height", "5")
    assert not ok(b, "A", "C2^1")  # floors 5" apart: beyond the 4" CR


@pytest.mark.constant("half_cr_per_ld")
def test_half_command_radius_per_ld() -> None:
    """004:L38 "models may only be placed inside the terrain if their bases are fully within half of the leader's
    normal Command Radius (or 1 x Ld)": Ld 3 reaches 3" into woods; at 0 x Ld none goes in, at 3 x Ld 9"."""
    b = field()
    paint(b, "woods", "K1", "Z20")
    unit(b, "A", "J10", ld=3)
    assert ok(b, "A", "M10") and not ok(b, "A", "N10")  # 3" and 4" into the woods
    rule(b, "half_cr_per_ld", "0")
    assert not ok(b, "A", "K10")
    assert ok(b, "A", "D10")  # outside the woods the full CR (2 x Ld = 6") still holds
    rule(b, "cr_per_ld", "4")  # so that a half of 3 x Ld is still less than the whole
    rule(b, "half_cr_per_ld", "3")
    assert ok(b, "A", "S10") and not ok(b, "A", "T10")  # 9" and 10"


@pytest.mark.constant("linear_max_width")
@pytest.mark.parametrize(("thickness", "width", "crossable"), [(1.0, 0, True), (1.5, 2, False)])
def test_linear_obstacle_width_is_the_gms(thickness: float, width: int, crossable: bool) -> None:
    """004:L54 "A Linear Obstacle is considered to be any terrain feature that is linear in nature and only 1" or
    less in width. Any terrain features which are wider than 1" are considered Area Terrain"; 004:L59 a Linear
    Obstacle "taller than 3" may not be crossed by an infantry unit's leader". A 4" tall feature: as area terrain
    it is crossed at half speed, as a Linear Obstacle not at all."""
    b = field(10, 3)
    for row in (1, 2, 3):
        wall(b, f"C{row}|D{row}", height=4.0, thickness=thickness)
    unit(b, "A", "B2")
    start(b)
    assert ("D2" in ends(b, "A", "advance")) is not crossable
    rule(b, "linear_max_width", str(width))
    got = ends(b, "A", "advance")
    assert ("D2" in got) is crossable
    if crossable:
        assert "E2" in got and "F2" not in got  # area terrain halves the Advance to 3" (004:L31)
