"""Judging one move: the walk toward one square finds what the whole reach finds, and a refusal explains itself."""

from __future__ import annotations

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import IllegalOrderError
from rules.orders import Move
from rules.systems.m42.actions import Unreachable, check_move
from rules.systems.m42.kinds import actions_of
from rules.systems.m42.movement import reach_to, reachable_all
from rules.systems.m42.orders import SetFloors, SetRoad
from rules.systems.m42.units import Spot, Unit
from tests.rules.m42.helpers import DICE, field, paint, start, unit, wall


def rough_field() -> Battle[Unit]:
    """Return a started battle with woods, a road, a ruin with floors, walls and an enemy standing close."""
    b = field(16, 12)
    paint(b, "woods", "E2", "G5")
    paint(b, "ruins", "J7", "K8")
    b.apply(SetFloors(frm=Cell.parse("J7"), to=Cell.parse("K8"), floors=3), DICE)
    b.apply(SetRoad(frm=Cell.parse("A9"), to=Cell.parse("L9")), DICE)
    wall(b, "C6|C7", height=2, thickness=0.5)
    wall(b, "D6|D7", height=5, thickness=0.5)
    wall(b, "H3|I3", kind="hedge", height=1, thickness=2)
    unit(b, "A", "C9", models=4)
    unit(b, "V", "H9", models=2, traits=("vehicle",))
    unit(b, "E", "F8", side="Blue", models=3)
    start(b)
    return b


def test_the_walk_toward_one_square_finds_what_the_whole_reach_finds() -> None:
    """A90 "halve once", A91 "distance = (base + 2 if road) / (2 if halved)", A93 "no model may move ... within 2"
    of an enemy model unless it is performing an assault": judged alone, every square and floor of the map is
    reached (or not) by exactly the walk, halving and allowance the whole reach gives it."""
    b = rough_field()
    checked = reached = 0
    for name in ("A", "V", "E"):
        unit_ = b.unit(name)
        assert isinstance(unit_, Unit)
        whole = reachable_all(b, unit_)
        for action in actions_of(b).values():
            for y in range(b.height):
                for x in range(b.width):
                    for level in (0, 1, 2):
                        goal = Spot(x, y, level)
                        b.__dict__.pop("_m42_kept", None)  # judged as a fresh battle would be, reach not worked out
                        alone = reach_to(b, unit_, action, goal)
                        want = whole[action.key].get(goal)
                        assert (alone is None) == (want is None), (name, action.key, str(goal))
                        if alone is not None and want is not None:
                            assert (alone.walked, alone.causes, alone.allowance) == \
                                (want.walked, want.causes, want.allowance), (name, action.key, str(goal))
                            reached += 1
                        checked += 1
    assert reached > 100 and checked - reached > 100  # both kinds of square were judged


def test_a_refusal_read_after_the_check_says_what_applying_says() -> None:
    """A93: an advance may not end within 2" of an enemy model; the refusal names the rule whether it comes from
    asking the check alone or from applying the order."""
    b = rough_field()
    order = Move(unit="A", to=Cell.parse("F9"), mode="advance")
    assert not b.is_legal(order)
    try:
        check_move(b, order)
    except Unreachable as refusal:
        alone = (str(refusal), refusal.cells)
    else:
        raise AssertionError("the check let the advance end next to an enemy")
    try:
        b.apply(order, DICE)
    except IllegalOrderError as refused:
        applied = (str(refused), refused.cells)
    else:
        raise AssertionError("the advance next to an enemy was applied")
    assert alone == applied
    assert "within 2\" of an enemy model" in alone[0] and "A93" in alone[0]
    assert "A9" in alone[1] and "F9" not in alone[1]
