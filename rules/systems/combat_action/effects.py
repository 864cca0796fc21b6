"""The effects the Combat Action rules record, one class per kind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.effects import Effect, effect, optional, table


@effect("moved")
@dataclass(frozen=True, slots=True)
class Moved(Effect):
    """A model moved; `cm` is the distance on the table."""

    unit: str
    frm: str
    to: str
    cm: int
    mode: str


@effect("unit_added")
@dataclass(frozen=True, slots=True)
class UnitAdded(Effect):
    """The GM put a model on the table."""

    unit: str
    side: str
    at: str
    owner: int | None
    unit_kind: str


@effect("turn_ended")
@dataclass(frozen=True, slots=True)
class TurnEnded(Effect):
    """A model ended its turn."""

    unit: str


@effect("model_hit")
@dataclass(frozen=True, slots=True)
class ModelHit(Effect):
    """A model was hit."""

    unit: str
    result: str
    at: str


@effect("location_damaged")
@dataclass(frozen=True, slots=True)
class LocationDamaged(Effect):
    """A hit damaged a location of a model."""

    unit: str
    location: str
    effect: str
    at: str


@effect("weapon_faulty")
@dataclass(frozen=True, slots=True)
class WeaponFaulty(Effect):
    """A hit made a weapon faulty."""

    unit: str
    weapon: str


@effect("crew_hit")
@dataclass(frozen=True, slots=True)
class CrewHit(Effect):
    """A hit struck a vehicle's crew."""

    unit: str
    crew: int
    pen: int


@effect("shut_down")
@dataclass(frozen=True, slots=True)
class ShutDown(Effect):
    """A hit shut a model down."""

    unit: str
    crashed: bool


@effect("crashed")
@dataclass(frozen=True, slots=True)
class Crashed(Effect):
    """A flying model crashed."""

    unit: str
    at: str
    pen: int | None = optional()
    models: Sequence[str] | None = optional()


@effect("transported_hit")
@dataclass(frozen=True, slots=True)
class TransportedHit(Effect):
    """The models a vehicle carried were hit."""

    unit: str
    models: Sequence[str]
    pen: int


@effect("weapon_malfunctioned")
@dataclass(frozen=True, slots=True)
class WeaponMalfunctioned(Effect):
    """A weapon malfunctioned."""

    unit: str
    weapon: str


@effect("missed")
@dataclass(frozen=True, slots=True)
class Missed(Effect):
    """A shot missed."""

    unit: str
    target: str


@effect("deviated")
@dataclass(frozen=True, slots=True)
class Deviated(Effect):
    """A template deviated."""

    weapon: str
    frm: str
    to: str
    cm: int
    face: int
    on_map: bool


@effect("left_the_table")
@dataclass(frozen=True, slots=True)
class LeftTheTable(Effect):
    """A model left the table (4.11.4)."""

    unit: str


@effect("flat_down")
@dataclass(frozen=True, slots=True)
class WentFlatDown(Effect):
    """A model went flat down."""

    unit: str


@effect("got_up")
@dataclass(frozen=True, slots=True)
class GotUp(Effect):
    """A model got up."""

    unit: str


@effect("aimed")
@dataclass(frozen=True, slots=True)
class Aimed(Effect):
    """A model aimed."""

    unit: str


@effect("unpinned")
@dataclass(frozen=True, slots=True)
class Unpinned(Effect):
    """A model is no longer pinned."""

    unit: str


@effect("out_of_control")
@dataclass(frozen=True, slots=True)
class OutOfControl(Effect):
    """A model out of control rolled what it does."""

    unit: str
    face: int
    action: str


@effect("drifted")
@dataclass(frozen=True, slots=True)
class Drifted(Effect):
    """A model out of control drifted."""

    unit: str
    to: str
    cm: int


@effect("altitude")
@dataclass(frozen=True, slots=True)
class Altitude(Effect):
    """A flying model changed altitude."""

    unit: str
    altitude: str


EFFECTS = table(
    Moved, UnitAdded, TurnEnded, ModelHit, LocationDamaged, WeaponFaulty, CrewHit, ShutDown,
    Crashed, TransportedHit, WeaponMalfunctioned, Missed, Deviated, LeftTheTable, WentFlatDown, GotUp, Aimed,
    Unpinned, OutOfControl, Drifted, Altitude
)
