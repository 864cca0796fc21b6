"""The sides of a battle: a name and a colour, and whatever the battle's rule system keeps for each.

A rule system with state of its own on a side declares a dataclass subclass of `Side` as its
`System.side_type`, with `to_dict`/`from_dict` writing and reading its fields beside the core's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from rules.errors import RulesetError

SideT = TypeVar("SideT", bound="Side")

_CORE_KEYS = ("name", "color", "paint")


@dataclass
class Side:
    """A side of the battle: its name, its palette slot and the colour its GM gave it."""

    name: str
    color: int  # its slot in the palette, in the order the sides were made
    paint: str | None = None  # the colour its GM gave it, `#rrggbb` (None: its name's colour, else the palette's)

    def to_dict(self) -> dict[str, Any]:
        """Return the side as a JSON-able dict (a colour only when its GM gave one)."""
        out: dict[str, Any] = {"name": self.name, "color": self.color}
        out.update(self.own_dict())
        if self.paint is not None:
            out["paint"] = self.paint
        return out

    def own_dict(self) -> dict[str, Any]:
        """Return the fields a rule system's side type adds, as saved between the colour and the paint."""
        return {}

    @classmethod
    def from_dict(cls: type[SideT], data: Mapping[str, Any]) -> SideT:
        """Rebuild a side from its saved dict; a field this side type does not keep is dropped when empty."""
        if not isinstance(data, Mapping) or "name" not in data:
            raise RulesetError("A saved side must be a table with at least its `name`.")
        known = {f.name for f in fields(cls)}
        kept: dict[str, Any] = {}
        for key, value in data.items():
            if key in known:
                kept[key] = value
            elif value not in (None, 0, False, "", [], {}):
                # Older battles saved every system's side fields on every side, at their empty values.
                raise RulesetError(f"The saved side {data['name']!r} holds `{key}`, which this rule system does "
                                   f"not keep on a side.")
        try:
            return cls(**{"color": 0, **kept})
        except TypeError as exc:
            raise RulesetError(f"The saved side {data['name']!r} does not fit: {exc}.") from None


__all__ = ["Side"]
