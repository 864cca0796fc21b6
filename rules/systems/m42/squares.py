"""What lies on an M42 square besides its terrain: a road through it, the floors of its building."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rules.battle import Battle
from rules.coords import Cell
from rules.squares import Square as _Square
from rules.squares import narrowed


@dataclass(slots=True, eq=False)
class Square(_Square):
    """One M42 square's road and floors, saved as `{"road": true}`, `{"floors": 3}`."""

    road: bool = False  # a road runs through the square
    floors: int | None = None  # floors of a building or ruin square; None: the ground floor alone



def square_at(battle: Battle[Any], cell: Cell) -> Square:
    """Return the mutable M42 state of a square, created empty when needed."""
    return narrowed(battle.square(cell), Square)


def state_at(battle: Battle[Any], cell: Cell) -> Square:
    """Return the M42 state of a square without creating it (an empty, unattached square if none)."""
    return narrowed(battle.square_state(cell), Square)


def all_squares(battle: Battle[Any]) -> Iterator[tuple[str, Square]]:
    """Iterate over the squares holding something, by square text, with their M42 state."""
    for key, found in battle.cells.items():
        yield key, narrowed(found, Square)


__all__ = ["Square", "all_squares", "square_at", "state_at"]
