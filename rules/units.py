"""The unit every rule system builds on: a stable id, a name players see, a side, an owner and a square."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.coords import Cell
from rules.errors import InvalidOrderError

NAME_MAX = 64


def check_name(name: str, what: str = "name") -> str:
    """Validate a display name: 1 to 64 printable characters."""
    clean = " ".join(name.split())
    if not clean:
        raise InvalidOrderError(f"The {what} is empty; give it 1 to {NAME_MAX} characters.")
    if len(clean) > NAME_MAX:
        raise InvalidOrderError(f"The {what} is {len(clean)} characters long; keep it to {NAME_MAX} or fewer.")
    return clean


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

    # The one-letter marks a system draws on a unit's map token, by status (a system lists its own).
    BADGES: ClassVar[Mapping[str, str]] = {}
    # Whether the unit's map token carries a health bar (a system whose units take no damage says no).
    HEALTH_BAR: ClassVar[bool] = True

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

    @property
    def massed(self) -> bool:
        """Return whether the unit is a mass of troops drawn as a square token, not a disc."""
        return False

    def health_text(self) -> str:
        """Return what is left of the unit in its system's own terms, like `W 30/40` (empty: nothing to say)."""
        return ""

    def summary_line(self) -> str:
        """Return the unit's kind and health in a few words, for unit lists, menus and the status board."""
        return self.health_text()

    def badges(self) -> tuple[str, ...]:
        """Return the marks drawn on the unit's map token for its statuses."""
        return tuple(self.BADGES[s] for s in self.statuses if s in self.BADGES)

    def key_words(self) -> tuple[str, ...]:
        """Return what the map's unit key says of the unit after its name and side (nothing by default)."""
        return ()

    def heading(self) -> int | None:
        """Return the way the unit faces, degrees clockwise from north, when its system tracks facing."""
        return None

    @property
    def on_map(self) -> bool:
        """Return whether the unit stands on a square of the map (not carried inside another unit)."""
        return True

    def stat_lines(self) -> list[tuple[str, str]]:
        """Return the unit's stat block as (heading, value) pairs, for a stat-block card."""
        return []

    @property
    def token_level(self) -> int:
        """Return the storey above the ground the unit's token stands on (0: the ground)."""
        return 0

    def other_models(self) -> tuple[tuple[int, int, int], ...]:
        """Return where the unit's models stand besides the one its token shows, as (x, y, storey above the ground)."""
        return ()

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
