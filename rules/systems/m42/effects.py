"""The effects the M42 rules record, one class per kind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.effects import Effect, effect, optional, table


@effect("map_imported")
@dataclass(frozen=True, slots=True)
class MapImported(Effect):
    """The GM imported a map; `road` and `floors` count the squares of those layers."""

    width: int
    height: int
    edges: int
    road: int = 0
    floors: int = 0


@effect("road")
@dataclass(frozen=True, slots=True)
class Road(Effect):
    """The GM laid or lifted a road."""

    on: bool
    cells: int


@effect("floors")
@dataclass(frozen=True, slots=True)
class Floors(Effect):
    """The GM set squares' floors."""

    floors: int
    cells: int


@effect("unit_added")
@dataclass(frozen=True, slots=True)
class UnitAdded(Effect):
    """The GM put a unit on the map, its models around its leader."""

    unit: str
    side: str
    at: str
    owner: int | None
    models: Sequence[str]


@effect("action_taken")
@dataclass(frozen=True, slots=True)
class ActionTaken(Effect):
    """A leader took an action: how far it went of its allowance, what halved it (A90)."""

    unit: str
    action: str
    frm: str
    to: str
    walked: float
    allowance: float
    halved: Sequence[str]
    models: Sequence[str]
    name: str | None = optional()  # the action's title (a homebrew action's own); older outcomes lack it


@effect("homebrew_imported")
@dataclass(frozen=True, slots=True)
class HomebrewImported(Effect):
    """The GM imported homebrew actions for this battle (M42 has no homebrew terrain or features)."""

    terrain: Sequence[str]
    features: Sequence[str]
    actions: Sequence[str]


@effect("placed")
@dataclass(frozen=True, slots=True)
class Placed(Effect):
    """A unit's models were placed again."""

    unit: str
    models: Sequence[str]


EFFECTS = table(
    MapImported, Road, Floors, UnitAdded, ActionTaken, HomebrewImported, Placed
)
