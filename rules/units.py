"""The unit every rule system builds on: a stable id, a name players see, a side, an owner and a square."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.coords import Cell

NAME_MAX = 64


@dataclass(slots=True)
class Unit:
    """A unit on the board; systems subclass it with their stat blocks.

    `id` is stable for the unit's whole life (`u1`, `u2`...): state that points at another unit (melee
    engagements, turn records) holds ids, so renaming a unit changes its name and nothing else.
    """

    name: str
    side: str
    x: int
    y: int
    owner: int | None = None
    id: str = ""
    statuses: list[str] = field(default_factory=list)

    @property
    def cell(self) -> Cell:
        """Return the square the unit stands on."""
        return Cell(self.x, self.y)

    @property
    def alive(self) -> bool:
        """Return whether the unit is still in the fight."""
        return True

    @property
    def takes_turns(self) -> bool:
        """Return whether the unit acts in the rounds (scenery such as a building only stands there)."""
        return True

    def health(self) -> float:
        """Return what is left of the unit as a fraction (1.0 whole)."""
        return 1.0

    def stat_bonus(self, token: str) -> int | None:
        """Return the value an initiative formula's token (`AB`...) stands for, or None if unknown."""
        return None

    def initiative_tiebreak(self) -> int:
        """Return the number that breaks an initiative tie before a roll-off (higher goes first)."""
        return 0

    def to_dict(self) -> dict[str, Any]:
        """Return the unit as a JSON-able dict."""
        return {"id": self.id, "name": self.name, "side": self.side, "x": self.x, "y": self.y,
                "owner": self.owner, "statuses": list(self.statuses)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Unit:
        """Rebuild a unit from its dict."""
        return cls(name=str(data["name"]), side=str(data["side"]), x=int(data["x"]), y=int(data["y"]),
                   owner=data.get("owner"), id=str(data.get("id", "")), statuses=list(data.get("statuses", [])))
