"""A fighter of the pit: a unit with hit points."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.units import Unit


@dataclass(slots=True)
class Fighter(Unit):
    """A fighter: down and out of the fight at 0 hit points."""

    hp: int = 3
    max_hp: int = 3

    @property
    def alive(self) -> bool:
        """Return whether the fighter is still on its feet."""
        return self.hp > 0

    def health(self) -> float:
        """Return the hit points left as a fraction of the fighter's starting ones."""
        return self.hp / self.max_hp if self.max_hp else 0.0

    def health_text(self) -> str:
        """Return the hit points left, like `HP 2/3`."""
        return f"HP {self.hp}/{self.max_hp}"

    def stat_lines(self) -> list[tuple[str, str]]:
        """Return the fighter's one stat for its card."""
        return [("Hit points", f"{self.hp} of {self.max_hp}")]

    def to_dict(self) -> dict[str, Any]:
        """Return the fighter as a JSON-able dict."""
        return {**Unit.to_dict(self), "hp": self.hp, "max_hp": self.max_hp}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Fighter:
        """Rebuild a fighter from its dict."""
        base = Unit.from_dict(data)
        return cls(name=base.name, side=base.side, x=base.x, y=base.y, owner=base.owner, id=base.id,
                   statuses=base.statuses, hp=int(data.get("hp", 3)), max_hp=int(data.get("max_hp", 3)))
