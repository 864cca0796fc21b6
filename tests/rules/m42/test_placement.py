"""Where M42 models may stand: every row of RULES.md 5.2 and rulings A92 to A97, at their boundaries."""

from __future__ import annotations

import pytest

from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.systems.m42.orders import Place, SetFloors, SetRoad
from rules.systems.m42.placement import verdict
from tests.rules.m42.helpers import DICE, field, ok, paint, rule, spot, unit, wall


def why(b, name: str, where: str) -> str:  # type: ignore[no-untyped-def]
    u = b.unit(name)
    return verdict(b, u, u.leader, spot(where)).rule


@pytest.mark.constant("cr_per_ld")
def test_default_command_radius_is_two_ld_fully_within() -> None:
    """004:L40 "within the leader's normal Command Radius (2 x Ld)"; A89 measured to the furthest base edge."""
    b = field()
    unit(b, "A", "J10", ld=3)
    assert ok(b, "A", "P10") and not ok(b, "A", "Q10")  # 6" and 7"
    assert ok(b, "A", "N14") and not ok(b, "A", "O14")  # sqrt(32) = 5.66" and sqrt(41) = 6.40"
    assert "2 x Ld" in why(b, "A", "Q10")
    rule(b, "cr_per_ld", "3")
    assert ok(b, "A", "Q10")


@pytest.mark.constant("inches_per_square")
def test_inches_per_square_scales_every_distance() -> None:
    """A89: "`CR = 2×Ld` inches"; a square stands for the inches the GM sets, so Ld 3 reaches 6" whatever the scale."""
    for scale, inside, beyond in (("1", "P10", "Q10"), ("2", "M10", "N10"), ("3", "L10", "M10"),
                                  ("0.5", "V10", "W10")):
        b = field()
        rule(b, "inches_per_square", scale)  # the scale is set before any unit stands on the map
        unit(b, "A", "J10", ld=3)
        # 6 squares of 1" and 7; 3 squares of 2" and 4; 2 squares of 3" and 3; 12 squares of 0.5" and 13.
        assert ok(b, "A", inside) and not ok(b, "A", beyond), scale


def test_into_area_terrain_from_outside_is_one_ld() -> None:
    """004:L38 "models may only be placed inside the terrain if their bases are fully within half ... (or 1 x Ld)"."""
    b = field()
    paint(b, "woods", "K1", "Z20")
    unit(b, "A", "J10", ld=3)
    assert ok(b, "A", "M10") and not ok(b, "A", "N10")
    assert "004:L38" in why(b, "A", "N10")
    assert ok(b, "A", "D10")  # outside, away from the woods: 6"


def test_leader_inside_area_terrain_keeps_the_full_radius() -> None:
    """004:L44 "If the unit's leader is standing completely within a piece of Area Terrain, then the Area Terrain will not affect the leader's CR"."""
    b = field()
    paint(b, "woods", "A1", "Z20")
    unit(b, "A", "J10", ld=3)
    assert ok(b, "A", "P10") and not ok(b, "A", "Q10")


@pytest.mark.constant("blocked_line_half_cr")
def test_line_across_area_terrain_limits_to_one_ld_and_the_override_refuses() -> None:
    """004:L40 "so long as a straight line can traced back ... that does not intersect a piece of area terrain"; A92."""
    b = field()
    paint(b, "woods", "L1", "L20")
    unit(b, "A", "J10", ld=3)
    assert ok(b, "A", "M10") and not ok(b, "A", "N10")
    assert "A92" in why(b, "A", "N10")
    rule(b, "blocked_line_half_cr", "false")
    assert not ok(b, "A", "M10") and "A92" in why(b, "A", "M10")


def test_beyond_a_linear_obstacle_is_one_ld() -> None:
    """004:L58 "models ... placed on the far side of a Linear Obstacle from their leader must be placed fully within ... (1 x Ld)"."""
    b = field()
    for row in range(1, 21):
        wall(b, f"K{row}|L{row}", "hedge", height=1.0)
    unit(b, "A", "J10", ld=3)
    assert ok(b, "A", "M10") and not ok(b, "A", "N10")
    assert "004:L58" in why(b, "A", "N10")
    assert ok(b, "A", "D10")


@pytest.mark.parametrize(("height", "allowed"), [(3.0, True), (3.01, False)])
def test_nothing_placed_beyond_a_wall_taller_than_three_inches(height: float, allowed: bool) -> None:
    """004:L59 "Not may any models from the unit be placed on the far side of such an obstacle"; A99."""
    b = field()
    for row in range(1, 21):
        wall(b, f"K{row}|L{row}", height=height)
    unit(b, "A", "J10", ld=3, traits=("interlinked",))
    assert ok(b, "A", "L10") is allowed
    if not allowed:
        assert "004:L59" in why(b, "A", "L10")


@pytest.mark.constant("enemy_line_gap")
def test_line_of_enemy_troops_limits_to_one_ld() -> None:
    """004:L64 "any models placed on the far side of them must be placed completely within half"; A94 (4" gap)."""
    b = field()
    unit(b, "A", "A10", ld=5)
    unit(b, "E1", "F8", side="Blue")
    unit(b, "E2", "F12", side="Blue")
    # F8 and F12 are separate units: not a line of one unit.
    assert ok(b, "A", "I10")
    b2 = field()
    unit(b2, "A", "A10", ld=5)
    enemy = unit(b2, "E", "F8", side="Blue", models=2)
    enemy.models = [spot("F12")]  # 3" between bases: a line (A94)
    assert not ok(b2, "A", "I10") and "A94" in why(b2, "A", "I10")
    assert ok(b2, "A", "F10") is False  # and the standoff keeps it off the line itself
    rule(b2, "enemy_line_gap", "2")
    assert ok(b2, "A", "I10")


@pytest.mark.constant("road_cr_per_ld")
def test_along_the_leaders_road_three_ld() -> None:
    """004:L74 "...placed on the same road may be placed so that the furthest edge of their bases are up to three times the unit's Ld"."""
    b = field()
    b.apply(SetRoad(frm=Cell.parse("A10"), to=Cell.parse("Z10")), DICE)
    unit(b, "A", "J10", ld=3)
    assert ok(b, "A", "S10") and not ok(b, "A", "T10")  # 9" and 10"
    assert not ok(b, "A", "Q11")  # off the road: 2 x Ld
    rule(b, "road_cr_per_ld", "4")
    assert ok(b, "A", "T10")


def _house(b) -> None:  # type: ignore[no-untyped-def]
    paint(b, "building", "K8", "N12")


def test_after_you_sir_no_model_inside_while_the_leader_is_outside() -> None:
    """004:L83 "If a unit's leader is outside of a building, then no troops from the unit may be placed inside."."""
    b = field()
    _house(b)
    unit(b, "A", "I10", ld=3)
    assert not ok(b, "A", "K10") and "After You Sir" in why(b, "A", "K10")


def test_leader_inside_a_building_keeps_models_inside_or_on_the_roof() -> None:
    """004:L94, L98 "no models from that unit may be placed outside around it. They may, however, be placed on the building's roof"."""
    b = field()
    _house(b)
    unit(b, "A", "L10", ld=3)
    assert ok(b, "A", "N12")
    assert not ok(b, "A", "J10") and "004:L98" in why(b, "A", "J10")
    assert ok(b, "A", "L9^1")  # the roof of a one-floor house, 3" up, within 6"


@pytest.mark.constant("opening_tenths_per_model")
def test_openings_hold_one_model_per_half_inch() -> None:
    """004:L104 "For each full half-inch of width ... you may place 1 infantry model behind the opening"; A95
    floor(width / 0.5): an unopenable building's 0.4" window takes no model outside at it, a 0.5" one takes one."""
    b = field()
    _house(b)
    wall(b, "J10|K10", height=3.0, opening=0.4, openable=False)
    unit(b, "A", "L10", ld=3)
    assert not ok(b, "A", "J10") and "A95" in why(b, "A", "J10")
    rule(b, "opening_tenths_per_model", "4")
    assert ok(b, "A", "J10")


def test_a_model_just_inside_a_narrow_window_only_stands_inside() -> None:
    """004:L94 "any other models from the unit may then be placed within the unit leader's normal Command Radius
    anywhere inside the structure": the square behind a 0.4" window is inside, so a model stands there; the
    window's width (004:L104, A95) counts only models placed at the window."""
    b = field()
    _house(b)
    wall(b, "J10|K10", height=3.0, opening=0.4)
    unit(b, "A", "L10", ld=3)
    assert ok(b, "A", "K10") and ok(b, "A", "K9")


def test_unopenable_building_takes_models_outside_at_its_openings() -> None:
    """004:L106 "simply place the models outside of the building at the openings so that their bases touch the building's wall"."""
    b = field()
    _house(b)
    wall(b, "J10|K10", height=3.0, opening=1.0, openable=False)
    unit(b, "A", "L10", ld=3)
    assert ok(b, "A", "J10")
    assert not ok(b, "A", "J9")


@pytest.mark.constant("vertical_then_horizontal")
def test_upper_floors_within_cr_measure_horizontally() -> None:
    """004:L96 "If the distance between those floors is equal to or less than the unit's CR, then models may be placed anywhere on those floors"; A96."""
    b = field()
    _house(b)
    b.apply(SetFloors(frm=Cell.parse("K8"), to=Cell.parse("N12"), floors=3), DICE)
    unit(b, "A", "K8", ld=2)  # CR 4": the first floor (3") is in reach, the second (6") is not
    assert ok(b, "A", "N8^1")  # 3" across, counted top-down
    assert not ok(b, "A", "K9^2") and "A96" in why(b, "A", "K9^2")
    rule(b, "vertical_then_horizontal", "false")
    assert not ok(b, "A", "N8^1")  # sqrt(3^2 + 3^2) = 4.24" > 4"


def test_leader_in_ruins_may_place_models_outside() -> None:
    """004:L123 "If a unit's leader is inside a ruin, then models from the unit may be placed outside of the ruin as long as they remain within the leader's CR"."""
    b = field()
    paint(b, "ruins", "J10")
    unit(b, "A", "J10", ld=3)
    assert ok(b, "A", "P10")


@pytest.mark.constant("interlinked_ignores_terrain")
def test_interlinked_ignores_terrain_penalties_only() -> None:
    """004:L134 "ignores all Command Radius penalties caused by terrain. Their CR is, however, still affected by enemy troops"; A97."""
    b = field()
    paint(b, "woods", "K1", "Z20")
    unit(b, "A", "J10", ld=3, traits=("interlinked",))
    assert ok(b, "A", "P10")
    rule(b, "interlinked_ignores_terrain", "false")
    assert not ok(b, "A", "P10")


def test_hand_placement_of_several_models_and_a_refusal_that_lists_the_legal_squares() -> None:
    """Models are placed by hand, several at once; an illegal spot names its rule and changes nothing."""
    b = field()
    paint(b, "woods", "K1", "Z20")
    a = unit(b, "A", "J10", ld=2, models=4)
    b.apply(Place(unit="A", models="H10,J8,J12"), DICE)
    assert [str(s) for s in a.models] == ["H10", "J8", "J12"]
    before = b.to_dict()
    with pytest.raises(IllegalOrderError, match=r"cannot stand on M10: .*004:L38.*Legal squares now: .*K10") as err:
        b.apply(Place(unit="A", models="H10,M10"), DICE)
    assert "M10" not in str(err.value).split("Legal squares now:")[1]
    # The refusal carries the legal squares, for the map drawn with it: L10 is 1 x Ld (2") into the woods, M10 is not.
    assert "L10" in err.value.cells and "M10" not in err.value.cells and "F10" in err.value.cells
    assert b.to_dict() == before


@pytest.mark.constant("standoff")
def test_the_largest_unit_placed_among_enemies_keeps_the_standoff_and_the_line() -> None:
    """A93: no model placed closer than the standoff (2") to an enemy model; A94/004:L64: beyond an enemy
    line only within 1 x Ld. The largest unit (Ld 12, 30 models) beside two enemy units, one forming a line."""
    b = field(40, 30)
    line = unit(b, "Line", "P8", side="Blue", models=2)
    line.models = [spot("P12")]  # 3" apart: a line of troops (A94)
    unit(b, "Lone", "H18", side="Blue")
    big = unit(b, "Big", "L10", ld=12, models=30)
    placed = [big.leader, *big.models]
    assert len(set(placed)) == 30
    for model in placed:
        for enemy in (Cell(15, 7), Cell(15, 11), Cell(7, 17)):
            gx, gy = max(abs(model.x - enemy.x) - 1, 0), max(abs(model.y - enemy.y) - 1, 0)
            assert gx * gx + gy * gy >= 4, f"{model} within 2\" of {enemy}"
        # Past the line (x beyond column P, between its two models' rows), only within 12" of the leader.
        if model.x > 15 and 7 <= model.y <= 11:
            assert (model.x - 11) ** 2 + (model.y - 9) ** 2 <= 144
    rule(b, "standoff", "6")
    big.models = []
    with pytest.raises(IllegalOrderError, match="standoff"):
        b.apply(Place(unit="Big", models="I17"), DICE)
