"""A side's secret Pre-Battle Plan and its standing (leader, Ability, strategic situation), as the battle keeps them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Plan:
    """A side's Pre-Battle Plan: intensity, daring, units dropped from transports, besieged."""

    intensity: int
    daring: int
    dropped: tuple[str, ...] = ()  # unit ids
    besieged: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return the plan as a JSON-able dict."""
        return {"intensity": self.intensity, "daring": self.daring, "dropped": list(self.dropped),
                "besieged": self.besieged}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Plan:
        """Rebuild a plan from its dict."""
        return cls(int(data["intensity"]), int(data["daring"]), tuple(str(u) for u in data.get("dropped", ())),
                   bool(data.get("besieged", False)))


@dataclass(frozen=True, slots=True)
class Standing:
    """What the GM set for a side: its leader and ability, and its strategic situation."""

    leader: str = ""
    ability: int = 0
    blockaded: bool = False
    last_ground: bool = False  # the side holds no more territory to cede (5B)

    def to_dict(self) -> dict[str, Any]:
        """Return the standing as a JSON-able dict."""
        return {"leader": self.leader, "ability": self.ability, "blockaded": self.blockaded,
                "last_ground": self.last_ground}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Standing:
        """Rebuild a standing from its dict (a field left out takes its default)."""
        return cls(str(data.get("leader", "")), int(data.get("ability", 0)), bool(data.get("blockaded", False)),
                   bool(data.get("last_ground", False)))


__all__ = ["Plan", "Standing"]
