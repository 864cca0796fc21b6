"""The modifier pipeline: every number added to a test, with where it came from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.errors import RulesetError


@dataclass(frozen=True, slots=True)
class Modifier:
    """One line of a breakdown: a label, a signed value and the rule it comes from."""

    label: str
    value: int
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Return the modifier as a JSON-able dict."""
        return {"label": self.label, "value": self.value, "source": self.source}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Modifier:
        """Rebuild a stored modifier line."""
        value = data["value"]
        if not isinstance(value, int | float | str) or isinstance(value, bool):
            raise RulesetError(f"A modifier's value is a number, not {value!r}.")
        return cls(str(data["label"]), int(value), str(data.get("source", "")))


@dataclass
class Breakdown:
    """A characteristic plus situational modifiers, capped as the ruleset says."""

    base_label: str
    base: int
    modifiers: list[Modifier] = field(default_factory=list)
    cap: int | None = None

    def add(self, label: str, value: int, source: str = "") -> None:
        """Add a modifier line (zero values are kept out of the breakdown)."""
        if value:
            self.modifiers.append(Modifier(label, value, source))

    @property
    def raw_total(self) -> int:
        """Return the sum of modifiers before the cap."""
        return sum(m.value for m in self.modifiers)

    @property
    def total_modifier(self) -> int:
        """Return the sum of modifiers after the cap."""
        total = self.raw_total
        if self.cap is not None:
            total = max(-self.cap, min(self.cap, total))
        return total

    @property
    def target(self) -> int:
        """Return the target number for a d100 test."""
        return self.base + self.total_modifier

    def to_dict(self) -> dict[str, Any]:
        """Return the breakdown as a JSON-able dict."""
        return {
            "base_label": self.base_label,
            "base": self.base,
            "modifiers": [m.to_dict() for m in self.modifiers],
            "cap": self.cap,
            "raw_total": self.raw_total,
            "total_modifier": self.total_modifier,
            "target": self.target,
        }
