"""Every order kind of every registered system round-trips through its text form, read by its own system.

The kinds are enumerated from the systems' tables, so a kind a system adds is covered without a new test.
"""

from __future__ import annotations

import types
import typing
from dataclasses import MISSING, fields
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.coords import Cell
from rules.orders import Order
from rules.system import System, registered
from rules.systems import install

install()

CASES = [(system, kind) for system in registered() for kind in sorted(system.orders)]

text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=40)
# A tuple's text form joins its parts with commas, so a part has no comma and is not empty.
part = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zs"), exclude_characters=","),
               min_size=1, max_size=12)
cells = st.builds(Cell, st.integers(0, 200), st.integers(0, 200))
json_values = st.one_of(st.integers(-10**6, 10**6), st.booleans(), text)
dicts = st.dictionaries(text, json_values, max_size=4)


def _strategy(hint: Any, default: Any) -> st.SearchStrategy[Any]:
    """Return values of a field's type; None only where None is the field's default."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        base = _strategy(inner[0], MISSING)
        return st.one_of(st.none(), base) if default is None else base
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(-10**9, 10**9)
    if hint is str:
        return text
    if hint is Cell:
        return cells
    if origin is tuple:
        inner_hint = typing.get_args(hint)[0]
        return st.lists(cells if inner_hint is Cell else part, max_size=5).map(tuple)
    if origin is dict or hint is dict:
        return dicts
    raise AssertionError(f"no strategy for a field of type {hint!r}: add one so the new kind is covered")


def _orders(cls: type[Order]) -> st.SearchStrategy[Order]:
    hints = typing.get_type_hints(cls)
    return st.fixed_dictionaries({f.name: _strategy(hints[f.name], f.default) for f in fields(cls)}).map(
        lambda kwargs: cls(**kwargs))


def test_every_registered_system_is_covered() -> None:
    """The enumeration reaches every system and every order it declares (its own and the shared ones)."""
    assert {s.id for s, _ in CASES} == {s.id for s in registered()}
    for system in registered():
        assert set(system.handlers.own_orders) <= {k for s, k in CASES if s is system}


@pytest.mark.parametrize(("system", "kind"), CASES, ids=[f"{s.id}:{k}" for s, k in CASES])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_order_text_round_trips(system: System, kind: str, data: st.DataObject) -> None:
    """DESIGN 3: "an Order is a move (a frozen dataclass with a text form that round-trips:
    `Order.parse(str(order)) == order`)", read by the system whose battle holds it."""
    cls = system.orders[kind]
    assert cls.kind == kind
    order = data.draw(_orders(cls))
    assert str(order).split(" ", 1)[0] == kind
    assert system.parse_order(str(order)) == order
