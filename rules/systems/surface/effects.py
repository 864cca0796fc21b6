"""The effects the Surface Combat rules record, one class per kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.effects import Effect, effect, table


@effect("unit_added")
@dataclass(frozen=True, slots=True)
class UnitAdded(Effect):
    """The GM added a unit to a side (no map)."""

    unit: str
    id: str
    side: str
    unit_type: str


@effect("unit_edited")
@dataclass(frozen=True, slots=True)
class UnitEdited(Effect):
    """The GM changed a unit; `fields` lists them in words."""

    unit: str
    id: str
    fields: str


@effect("unit_removed")
@dataclass(frozen=True, slots=True)
class UnitRemoved(Effect):
    """The GM removed a unit."""

    unit: str
    id: str


@effect("battle_started")
@dataclass(frozen=True, slots=True)
class BattleStarted(Effect):
    """The battle started in a game turn."""

    turn: int


@effect("battle_ended")
@dataclass(frozen=True, slots=True)
class BattleEnded(Effect):
    """The battle ended in a game turn."""

    turn: int


@effect("side_set")
@dataclass(frozen=True, slots=True)
class SideSet(Effect):
    """A side's leader, Ability and strategic situation were recorded."""

    side: str
    leader: str
    ability: int
    blockaded: bool
    last_ground: bool


@effect("plan_submitted")
@dataclass(frozen=True, slots=True)
class PlanSubmitted(Effect):
    """A side committed its secret plan."""

    side: str


@effect("next_turn")
@dataclass(frozen=True, slots=True)
class GameTurnBegan(Effect):
    """A new game turn began; the units gone were removed."""

    turn: int
    removed: Sequence[str]


@effect("resolved")
@dataclass(frozen=True, slots=True)
class Resolved(Effect):
    """An engagement was fought over some rounds; each side's result."""

    levels: Mapping[str, str]
    rounds: int


@effect("routed")
@dataclass(frozen=True, slots=True)
class Routed(Effect):
    """A unit routed."""

    unit: str


@effect("damage")
@dataclass(frozen=True, slots=True)
class Damage(Effect):
    """A unit took damage from another."""

    unit: str
    by: str
    points: int
    total: int
    state: str


@effect("rallied")
@dataclass(frozen=True, slots=True)
class Rallied(Effect):
    """A unit rallied after the battle."""

    unit: str


@effect("disintegrated")
@dataclass(frozen=True, slots=True)
class Disintegrated(Effect):
    """A unit disintegrated after the battle."""

    unit: str


@effect("disappeared")
@dataclass(frozen=True, slots=True)
class Disappeared(Effect):
    """A unit disappeared."""

    unit: str


@effect("escaped")
@dataclass(frozen=True, slots=True)
class Escaped(Effect):
    """A unit escaped."""

    unit: str


@effect("lost")
@dataclass(frozen=True, slots=True)
class Lost(Effect):
    """A unit failed to escape and was lost."""

    unit: str


EFFECTS = table(
    UnitAdded, UnitEdited, UnitRemoved, BattleStarted, BattleEnded, SideSet, PlanSubmitted, GameTurnBegan, Resolved,
    Routed, Damage, Rallied, Disintegrated, Disappeared, Escaped, Lost
)
