"""What lies on a strategic square: the feature bought for it, its wear, and smoke, fire and weather over it.

Saved as the same small dict it always was: `{"feature": "trench", "feature_side": "Blue",
"feature_purchase": 1}`, `{"storm": true}`, `{"smoke": 2}`.
"""

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
    """One strategic square's feature, its wear, and the effects lying on it."""

    feature: str | None = None  # a FeatureType key of the ruleset
    feature_side: str | None = None  # the side that bought it (it never triggers on its own side)
    feature_purchase: int | None = None  # one purchase may lay several squares (A27)
    feature_ap: int | None = None  # cover AP left after decay (A22); None: the feature's own
    mine_triggers: int | None = None  # a minefield's detonations left (A30)
    revealed: list[str] | None = None  # the enemy sides that found this hidden trap (A29); None: not hidden
    bridge_wounds: int | None = None  # wounds a bridge on this square has lost (A32)
    underlying: str | None = None  # the water terrain under Ice, which it melts back into (A33)
    smoke: int = 0  # rounds of smoke left
    fire: int = 0  # rounds of fire left
    burnt: bool = False  # burnt-out Forest never burns again (A36)
    storm: bool = False
    rain: bool = False
    deep: bool = False  # deep water (A35)



def square_at(battle: Battle[Any], cell: Cell) -> Square:
    """Return the mutable strategic state of a square, created empty when needed."""
    return narrowed(battle.square(cell), Square)


def state_at(battle: Battle[Any], cell: Cell) -> Square:
    """Return the strategic state of a square without creating it (an empty, unattached square if none)."""
    return narrowed(battle.square_state(cell), Square)


def all_squares(battle: Battle[Any]) -> Iterator[tuple[str, Square]]:
    """Iterate over the squares holding something, by square text, with their strategic state."""
    for key, found in battle.cells.items():
        yield key, narrowed(found, Square)


__all__ = ["Square", "all_squares", "square_at", "state_at"]
