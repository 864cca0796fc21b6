"""What a fighter may do now, generated from the check phases' own rules (never found by trying)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rules.battle import Battle
from rules.coords import Cell
from rules.orders import Move, Order
from rules.turnorders import EndTurn
from rules.units import Unit

from skirmish.orders import Strike, _free
from skirmish.units import Fighter


def legal_orders(battle: Battle[Any], unit: Unit) -> Iterator[Order]:
    """Yield every step within reach onto open sand, every strike at an enemy next door, and ending the turn."""
    if battle.status != "active" or not isinstance(unit, Fighter) or not unit.alive:
        return
    reach = int(battle.const("step_squares"))
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            cell = Cell(unit.x + dx, unit.y + dy)
            if (dx or dy) and _free(battle, cell):
                yield Move(unit=unit.name, to=cell, mode="step")
    for other in battle.iter_units():
        if other.alive and battle.enemies(unit, other) and unit.cell.distance(other.cell) == 1:
            yield Strike(unit=unit.name, target=other.name)
    yield EndTurn(unit=unit.name)
