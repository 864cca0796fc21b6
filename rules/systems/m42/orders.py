"""The orders M42 adds to the core: an action to an upper floor, placing models by hand, roads and floors."""

from __future__ import annotations

from dataclasses import dataclass

from rules.coords import Cell
from rules.orders import Order
from rules.systems.m42.table import order


@order("take-action", "owner")
@dataclass(frozen=True)
class Act(Order):
    """Take an action: the leader moves to a square (and floor), then the models are placed around it."""

    unit: str
    action: str
    to: Cell
    level: int = 0
    models: str = ""  # spots like `C4,D4,C5^1`; empty: the bot places them


@order("place", "owner")
@dataclass(frozen=True)
class Place(Order):
    """Place some or all of a unit's models by hand, on spots like `C4,D4,C5^1`; the rest are placed by the bot."""

    unit: str
    models: str


@order("set-road")
@dataclass(frozen=True)
class SetRoad(Order):
    """Lay (or lift) a road over a rectangle of squares."""

    frm: Cell
    to: Cell | None = None
    on: bool = True


@order("set-floors")
@dataclass(frozen=True)
class SetFloors(Order):
    """Give building or ruin squares a number of floors (1: ground floor only)."""

    frm: Cell
    floors: int
    to: Cell | None = None
