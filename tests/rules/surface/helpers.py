"""Build surface battles for the tests through the same orders a GM gives."""

from __future__ import annotations

import json
import random
from typing import Any

from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import AddUnit, Order


def battle() -> Battle[Any]:
    """Return an empty surface battle."""
    return Battle.new("surface", 1, 1, "Test")


def add(b: Battle[Any], name: str, side: str, kind: str = "grunts", owner: int | None = None,
        **stats: Any) -> Any:
    """Add a unit of a type with rating overrides and return it."""
    b.apply(AddUnit(name, side, Cell(0, 0), owner, {"type": kind, **stats}), Dice.seeded(0))
    return b.unit(name)


def give(b: Battle[Any], text: str, faces: list[int] | None = None, seed: int = 0) -> Any:
    """Apply an order from its text form, with scripted dice faces first."""
    return b.apply(Order.parse(text), Dice(random.Random(seed), scripted=list(faces or [])))


def stats(**values: Any) -> str:
    """Return a stats option in the text form."""
    return json.dumps(values)
