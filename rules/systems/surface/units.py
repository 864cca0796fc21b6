"""A Surface Combat unit: a ground force with the A64 ratings, its damage and its combat state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.systems.surface.unittypes import FLAGS, RATINGS, REGULAR
from rules.units import Unit as BaseUnit

ACTIVE, DISRUPTED, ROUTED, DESTROYED, ESCAPED = "active", "disrupted", "routed", "destroyed", "escaped"
STATES = (ACTIVE, DISRUPTED, ROUTED, DESTROYED, ESCAPED)


@dataclass(slots=True)
class Unit(BaseUnit):
    """A ground force: type, category, ratings, flags, damage taken and state (A64)."""

    utype: str = "grunts"
    category: str = "grunt"
    iv: int = 0
    accuracy: int = 0
    evade: int = 0
    attack_strength: int = 0
    armor: int = 0
    capacity: int = 1
    morale: int = 0
    rally: int = 0
    tpv: int = 1
    flags: tuple[str, ...] = ()
    damage: int = 0
    state: str = ACTIVE

    @property
    def alive(self) -> bool:
        """Return whether the unit still exists (not destroyed)."""
        return self.state != DESTROYED

    @property
    def eligible(self) -> bool:
        """Return whether the unit still fights and may be fired on: neither Routed nor Destroyed."""
        return self.state in (ACTIVE, DISRUPTED)

    @property
    def regular(self) -> bool:
        """Return whether the unit is a regular force (Grunt or Special Forces)."""
        return self.category in REGULAR

    def has(self, flag: str) -> bool:
        """Return whether the unit has a flag (Space Marine, Powered Armor...)."""
        return flag in self.flags

    def health(self) -> float:
        """Return the fraction of Damage Capacity left."""
        if self.state == DESTROYED:
            return 0.0
        return max(0.0, 1.0 - self.damage / self.capacity)

    def health_text(self) -> str:
        """Return the damage taken against the Damage Capacity, and the state."""
        return f"damage {self.damage}/{self.capacity}, {self.state}"

    def summary_line(self) -> str:
        """Return the unit type and its damage, like `armor, damage 1/4, active`."""
        return f"{self.utype}, {self.health_text()}"

    def stat_lines(self) -> list[tuple[str, str]]:
        """Return the type, ratings and flags as headings and values."""
        ratings = " \u00b7 ".join(f"{k.replace('_', ' ')} {v}" for k, v in self.ratings().items())
        return [("Type", f"{self.utype} ({self.category})"), ("State", self.health_text()),
                ("Ratings", ratings), ("Flags", ", ".join(f.replace("_", " ") for f in self.flags) or "none")]

    def ratings(self) -> dict[str, int]:
        """Return the A64 ratings by name."""
        return {k: int(getattr(self, k)) for k in RATINGS}

    def initiative_tiebreak(self) -> int:
        """Return the base Initiative Value, which breaks AIV ties (A59)."""
        return self.iv

    def to_dict(self) -> dict[str, Any]:
        """Return the unit as a JSON-able dict."""
        out = BaseUnit.to_dict(self)
        out.update(self.ratings())
        out.update({"type": self.utype, "category": self.category, "flags": list(self.flags),
                    "damage": self.damage, "state": self.state})
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Unit:
        """Rebuild a unit from its dict."""
        return cls(
            name=str(data["name"]), side=str(data["side"]), x=int(data.get("x", 0)), y=int(data.get("y", 0)),
            owner=data.get("owner"), id=str(data.get("id", "")), statuses=list(data.get("statuses", [])),
            utype=str(data.get("type", "grunts")), category=str(data.get("category", "grunt")),
            flags=tuple(f for f in data.get("flags", ()) if f in FLAGS),
            damage=int(data.get("damage", 0)), state=str(data.get("state", ACTIVE)),
            **{k: int(data[k]) for k in RATINGS if k in data},
        )
