"""A strategic side: the core's name and colour, with its feature point pool (000:L78, A28)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.battle import Battle
from rules.errors import RulesetError
from rules.sides import Side as _Side


@dataclass
class Side(_Side):
    """A side and its feature point pool: the GM's adjustment or fixed pool, and what it has spent."""

    fp_adjust: int = 0
    fp_override: int | None = None
    fp_spent: int = 0

    def own_dict(self) -> dict[str, Any]:
        """Return the feature point fields, saved as they always were."""
        return {"fp_adjust": self.fp_adjust, "fp_override": self.fp_override, "fp_spent": self.fp_spent}


def strategic_side(battle: Battle[Any], name: str) -> Side | None:
    """Return the side with this name (case-insensitive) with its feature points, if there is one."""
    found = battle.side(name)
    if found is None:
        return None
    if not isinstance(found, Side):
        raise RulesetError(f"A strategic side was asked of a battle whose sides are {type(found).__name__}.")
    return found


def strategic_sides(battle: Battle[Any]) -> list[Side]:
    """Return the battle's sides with their feature points, in the order they were made."""
    return [s for s in battle.sides if isinstance(s, Side)]


__all__ = ["Side", "strategic_side", "strategic_sides"]
