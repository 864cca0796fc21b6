"""Outcomes: the structured result of an order, which explains itself line by line."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.dice import Roll


@dataclass
class Outcome:
    """What an order did: its rolls, its breakdowns, its effects and what the map should mark."""

    order: str
    kind: str
    actor: str | None = None
    rolls: list[Roll] = field(default_factory=list)
    tests: list[dict[str, Any]] = field(default_factory=list)
    effects: list[dict[str, Any]] = field(default_factory=list)
    highlight: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    hidden: bool = False

    def effect(self, kind: str, **details: Any) -> None:
        """Record one effect of the order (a unit moved, a square burned, wounds lost...)."""
        self.effects.append({"type": kind, **details})

    def to_dict(self) -> dict[str, Any]:
        """Return the outcome as a JSON-able dict, as stored in the event log."""
        return {
            "order": self.order, "kind": self.kind, "actor": self.actor,
            "rolls": [r.to_dict() for r in self.rolls], "tests": self.tests,
            "effects": self.effects, "highlight": self.highlight, "data": self.data, "hidden": self.hidden,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        """Rebuild an outcome from its stored dict."""
        return cls(
            order=str(data["order"]), kind=str(data["kind"]), actor=data.get("actor"),
            rolls=[Roll.from_dict(r) for r in data.get("rolls", [])], tests=list(data.get("tests", [])),
            effects=list(data.get("effects", [])), highlight=dict(data.get("highlight", {})),
            data=dict(data.get("data", {})), hidden=bool(data.get("hidden", False)),
        )
