"""M42 units of a leader and models: adding, actions with placement, legal orders, text forms, undo."""

from __future__ import annotations

import pytest

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.orders import AddUnit, ClearEdge, Move, Order, SetEdge
from rules.systems.m42.orders import Act, Place, SetFloors, SetRoad
from rules.systems.m42.placement import verdict
from tests.rules.m42.helpers import DICE, field, paint, spot, start, unit


@pytest.mark.parametrize("order", [
    Act(unit="Alpha", action="at-the-double", to=Cell.parse("C4"), level=1, models="C5,D4^1"),
    Place(unit="Alpha", models="C5,D4,E4^2"),
    SetEdge(edges="C3|C4,D3:e", obstacle="hedge", height="3.5", thickness="1", opening="0.5", openable=False),
    ClearEdge(edges="C3|C4"),
    SetRoad(frm=Cell.parse("A1"), to=Cell.parse("Z1"), on=False),
    SetFloors(frm=Cell.parse("B2"), floors=3, to=Cell.parse("C3")),
])
def test_orders_text_round_trips(order: Order) -> None:
    assert Order.parse(str(order)) == order


def test_add_unit_places_every_model_legally_around_the_leader() -> None:
    """A89: "The leader moves first, and the other models are then placed." /unit add places the leader, the bot the rest."""
    b = field()
    paint(b, "woods", "L1", "Z20")
    a = unit(b, "A", "J10", ld=2, models=10)
    assert len(a.models) == 9 and len(set(a.models)) == 9
    for model in a.models:
        assert verdict(b, a, a.leader, model, set(a.models) - {model}).ok
    assert all(m.x < 11 or (m.x - 9) ** 2 + (m.y - 9) ** 2 <= 4 for m in a.models)


@pytest.mark.parametrize(("stats", "words"), [
    ({"ld": 0}, "`ld` is a whole number from 1"),
    ({"models": 31}, "`models` is a whole number from 1 to 30"),
    ({"traits": ["flying"]}, "not an M42 special rule"),
    ({"ws": 30}, "not an M42 stat"),
])
def test_bad_stat_blocks_are_explained(stats: dict[str, object], words: str) -> None:
    b = field()
    with pytest.raises(InvalidOrderError, match=words):
        b.apply(AddUnit(name="A", side="Red", at=Cell.parse("C3"), stats=stats), DICE)
    assert not b.units


def test_a_unit_that_cannot_fit_is_refused() -> None:
    b = field(3, 3)
    with pytest.raises(IllegalOrderError, match="Only 8 of the 11 other models"):
        unit(b, "A", "B2", ld=3, models=12)


def test_an_action_moves_the_leader_and_places_the_models() -> None:
    """004:L31 At-The-Double 12"; the models follow within the Command Radius of where the leader ends."""
    b = field()
    a = unit(b, "A", "C10", ld=2, models=5)
    start(b)
    out = b.apply(Move(unit="A", to=Cell.parse("O10"), mode="at-the-double"), DICE)
    assert a.cell == Cell.parse("O10")
    assert out.details.walked == 12 and out.details.allowance == 12 and out.details.halved == ()
    assert all((m.x - 14) ** 2 + (m.y - 9) ** 2 <= 16 for m in a.models)
    b.undo()
    assert a.cell == Cell.parse("C10") or b.unit("A").cell == Cell.parse("C10")


def test_act_with_models_placed_by_hand() -> None:
    b = field()
    unit(b, "A", "C10", ld=2, models=3)
    start(b)
    b.apply(Act(unit="A", action="advance", to=Cell.parse("H10"), models="H11,H9"), DICE)
    assert [str(m) for m in b.unit("A").models] == ["H11", "H9"]


def test_legal_orders_are_exactly_the_reachable_squares_and_each_applies() -> None:
    b = field(12, 5)
    paint(b, "woods", "G1", "L5")
    unit(b, "A", "B3", ld=1, models=1)
    start(b)
    orders = list(b.system.legal_orders(b, b.unit("A")))
    advances = {str(o.to) for o in orders if isinstance(o, Move) and o.mode == "advance"}
    assert "H3" not in advances and "G3" not in advances and "F3" in advances  # entering the woods halves the whole move
    assert {"advance", "shooting-advance", "fall-back", "at-the-double", "assault"} == {
        o.mode for o in orders if isinstance(o, Move)}
    for order in orders[::25]:
        assert b.is_legal(order)


def test_saved_battle_round_trips_with_units_edges_roads_and_floors() -> None:
    b = field()
    paint(b, "building", "K8", "N12")
    b.apply(SetFloors(frm=Cell.parse("K8"), to=Cell.parse("N12"), floors=2), DICE)
    b.apply(SetEdge(edges="J10:e", opening="1"), DICE)
    b.apply(SetRoad(frm=Cell.parse("A10"), to=Cell.parse("J10")), DICE)
    unit(b, "A", "L10", ld=2, models=4, traits=("interlinked",))
    again = Battle.from_dict(b.to_dict())
    assert again.to_dict() == b.to_dict()
    assert again.unit("A").models == b.unit("A").models and again.unit("A").interlinked


def test_set_edge_on_a_square_that_does_not_exist_is_refused() -> None:
    b = field(5, 5)
    with pytest.raises(IllegalOrderError, match="F3, which is off the map"):
        b.apply(SetEdge(edges="E3|F3"), DICE)
    with pytest.raises(InvalidOrderError, match="not an obstacle kind"):
        b.apply(SetEdge(edges="C3|D3", obstacle="moat"), DICE)
    assert b.edges == {}


def test_spot_text() -> None:
    assert str(spot("c4^2")) == "C4^2" and str(spot("C4")) == "C4"
    with pytest.raises(InvalidOrderError, match="whole number"):
        spot("C4^x")
