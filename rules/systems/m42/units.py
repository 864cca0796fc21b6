"""An M42 unit: a leader and the models placed around it, with Leadership (Ld) and special rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.coords import Cell
from rules.errors import InvalidOrderError
from rules.units import Unit as BaseUnit

TRAITS = ("interlinked", "vehicle")
STATS = ("ld", "models", "traits")
MAX_MODELS = 30
MAX_LD = 12


@dataclass(frozen=True, order=True, slots=True)
class Spot:
    """Where one model stands: a square and the floor it is on (0 is the ground)."""

    x: int
    y: int
    level: int = 0

    @property
    def cell(self) -> Cell:
        """Return the square of this spot."""
        return Cell(self.x, self.y)

    @classmethod
    def parse(cls, text: str) -> Spot:
        """Parse `C4` (ground) or `C4^2` (second floor up)."""
        cell, sep, level = text.strip().partition("^")
        c = Cell.parse(cell)
        if not sep:
            return cls(c.x, c.y)
        if not level.isdigit():
            raise InvalidOrderError(f"`{text}`: the floor after `^` is a whole number, like `C4^1`.")
        return cls(c.x, c.y, int(level))

    def __str__(self) -> str:
        return f"{self.cell}^{self.level}" if self.level else str(self.cell)


@dataclass(slots=True)
class Unit(BaseUnit):
    """A unit of a leader (at x, y, level) and its other models, each on a spot of its own."""

    ld: int = 3
    size: int = 1  # models in the unit, the leader included
    traits: list[str] = field(default_factory=list)
    level: int = 0
    models: list[Spot] = field(default_factory=list)  # the models other than the leader

    HEALTH_BAR: ClassVar[bool] = False  # this seed has no casualties: a unit is its models, whole

    @property
    def leader(self) -> Spot:
        """Return where the leader stands."""
        return Spot(self.x, self.y, self.level)

    @property
    def token_level(self) -> int:
        """Return the floor the leader stands on."""
        return self.level

    def other_models(self) -> tuple[tuple[int, int, int], ...]:
        """Return where the models other than the leader stand, as (x, y, floor)."""
        return tuple((s.x, s.y, s.level) for s in self.models)

    def health_text(self) -> str:
        """Return the unit's size and Leadership, like `5 models, Ld 3`."""
        return f"{self.size} model{'s' if self.size != 1 else ''}, Ld {self.ld}"

    def stat_lines(self) -> list[tuple[str, str]]:
        """Return the M42 stat block: leader and models, Ld and Command Radius, special rules."""
        others = ", ".join(str(s) for s in self.models) or "none"
        return [("Leader", str(self.leader)), (f"Models ({len(self.models)} besides the leader)", others),
                ("Ld", f"{self.ld} (Command Radius 2 x Ld = {2 * self.ld}\")"),
                ("Special rules", ", ".join(t.title() for t in self.traits) or "none"),
                ("Moves as", "infantry" if self.infantry else "a vehicle")]

    @property
    def interlinked(self) -> bool:
        """Return whether the unit has the Interlinked special rule."""
        return "interlinked" in self.traits

    @property
    def infantry(self) -> bool:
        """Return whether the unit moves as infantry (impassable terrain and tall walls stop it, A98)."""
        return "vehicle" not in self.traits

    def spots(self) -> list[Spot]:
        """Return every model's spot, the leader first."""
        return [self.leader, *self.models]

    def to_dict(self) -> dict[str, Any]:
        """Return the unit as a JSON-able dict."""
        out = BaseUnit.to_dict(self)
        out.update(ld=self.ld, size=self.size, traits=list(self.traits), level=self.level,
                   models=[str(s) for s in self.models])
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Unit:
        """Rebuild a unit from its dict."""
        return cls(name=str(data["name"]), side=str(data["side"]), x=int(data["x"]), y=int(data["y"]),
                   owner=data.get("owner"), id=str(data.get("id", "")), statuses=list(data.get("statuses", [])),
                   ld=int(data.get("ld", 3)), size=int(data.get("size", 1)), traits=list(data.get("traits", [])),
                   level=int(data.get("level", 0)), models=[Spot.parse(s) for s in data.get("models", [])])


def read_stats(stats: dict[str, Any]) -> tuple[int, int, list[str]]:
    """Validate a stat block (`ld`, `models`, `traits`) and return Ld, unit size and traits."""
    unknown = set(stats) - set(STATS)
    if unknown:
        raise InvalidOrderError(f"`{sorted(unknown)[0]}` is not an M42 stat; give `ld`, `models` and `traits`.")
    ld, size = stats.get("ld", 3), stats.get("models", 5)
    for key, value, top in (("ld", ld, MAX_LD), ("models", size, MAX_MODELS)):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= top:
            raise InvalidOrderError(f"`{key}` is a whole number from 1 to {top}, not `{value}`.")
    raw = stats.get("traits", [])
    traits = [t.strip().lower() for t in (raw.split(",") if isinstance(raw, str) else raw) if str(t).strip()]
    for t in traits:
        if t not in TRAITS:
            raise InvalidOrderError(f"`{t}` is not an M42 special rule here; known: {', '.join(TRAITS)}.")
    return ld, size, sorted(set(traits))
