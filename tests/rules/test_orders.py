"""Orders have a text form that round-trips: Order.parse(str(order)) == order."""

import typing

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.coords import Cell
from rules.errors import InvalidOrderError
from rules.orders import AddUnit, Move, Order, Paint, Roll, SetRule, SkillTest, Start

names = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=64)
cells = st.builds(Cell, st.integers(0, 99), st.integers(0, 99))


@given(names, cells, st.sampled_from(["half", "full", "charge", "run"]))
def test_move_round_trips(unit: str, to: Cell, mode: str) -> None:
    order = Move(unit=unit, to=to, mode=mode)
    assert Order.parse(str(order)) == order


@given(names, names, cells, st.one_of(st.none(), st.integers(1, 2**62)),
       st.dictionaries(st.sampled_from(["ag", "bs", "wounds"]), st.integers(0, 99)))
def test_add_unit_round_trips(name: str, side: str, at: Cell, owner: int | None, stats: dict[str, int]) -> None:
    order = AddUnit(name=name, side=side, at=at, owner=owner, stats=stats or None)
    assert Order.parse(str(order)) == order


@given(st.lists(cells, min_size=1, max_size=5))
def test_paint_cells_round_trips(cs: list[Cell]) -> None:
    order = Paint(terrain="forest", cells=tuple(cs))
    assert Order.parse(str(order)) == order


@pytest.mark.parametrize(
    "order",
    [Paint(terrain="forest", frm=Cell(0, 0), to=Cell(3, 4)), Start(), Roll(dice="2d6+1", purpose="a b", hidden=True),
     SkillTest(unit="Eva 01", stat="ag", modifier=-20, reason="it's slippery"), SetRule(key="modifier_cap", value="40")],
)
def test_examples_round_trip(order: Order) -> None:
    assert Order.parse(str(order)) == order


def test_text_form_reads_like_discord() -> None:
    assert str(Move(unit="Eva-01", to=Cell(4, 4))) == "move unit:Eva-01 to:E5"
    assert str(Paint(terrain="forest", frm=Cell(0, 0), to=Cell(2, 2))) == "paint terrain:forest from:A1 to:C3"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("", "needs a kind"), ("fly unit:x", "not an order"), ("move unit:x to:Z0", "rows start at 1"),
     ("move unit:x", "needs to"), ("move unit:x to:A1 speed:3", "not an option"), ("move 'unit:x", "Cannot read")],
)
def test_bad_order_text_is_refused(text: str, fragment: str) -> None:
    with pytest.raises(InvalidOrderError, match=fragment):
        Order.parse(text)


def test_an_order_kinds_field_types_are_resolved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading many orders of one kind resolves the kind's field types once, not once per order."""
    resolve = typing.get_type_hints
    resolved: list[object] = []

    def counted(obj: object, *args: object, **kwargs: object) -> dict[str, object]:
        resolved.append(obj)
        return resolve(obj, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(typing, "get_type_hints", counted)
    orders = [Move(unit=f"Eva-0{n}", to=Cell(n, n), mode="half") for n in range(1, 6)]
    assert [Order.parse(str(order)) for order in orders] == orders
    assert resolved.count(Move) <= 1
