"""Outcomes: the structured result of an order, which explains itself line by line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from rules.core_effects import CORE_EFFECTS
from rules.dice import Roll
from rules.effects import Effect, load_effects

E = TypeVar("E", bound=Effect)


@dataclass
class Outcome:
    """What an order did: its rolls, its breakdowns, its effects and what the map should mark."""

    order: str
    kind: str
    actor: str | None = None
    rolls: list[Roll] = field(default_factory=list)
    tests: list[dict[str, Any]] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    highlight: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    hidden: bool = False

    def add(self, effect: Effect) -> None:
        """Record one effect of the order (a unit moved, a square burned, wounds lost...)."""
        self.effects.append(effect)

    def of(self, kind: type[E]) -> list[E]:
        """Return the effects of one class, in order."""
        return [e for e in self.effects if isinstance(e, kind)]

    def to_dict(self) -> dict[str, Any]:
        """Return the outcome as a JSON-able dict, as stored in the event log."""
        return {
            "order": self.order, "kind": self.kind, "actor": self.actor,
            "rolls": [r.to_dict() for r in self.rolls], "tests": self.tests,
            "effects": [e.to_dict() for e in self.effects], "highlight": self.highlight, "data": self.data, "hidden": self.hidden,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], kinds: Mapping[str, type[Effect]] = CORE_EFFECTS) -> Outcome:
        """Rebuild an outcome from its stored dict, its effects typed by the battle system's `effect_kinds`."""
        return cls(
            order=str(data["order"]), kind=str(data["kind"]), actor=data.get("actor"),
            rolls=[Roll.from_dict(r) for r in data.get("rolls", [])], tests=list(data.get("tests", [])),
            effects=load_effects(data.get("effects", []), kinds), highlight=dict(data.get("highlight", {})),
            data=dict(data.get("data", {})), hidden=bool(data.get("hidden", False)),
        )
