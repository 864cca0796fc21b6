"""The effects the Combat Action rules record, one class per kind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.effects import Effect, effect, optional, table


@effect("moved")
@dataclass(frozen=True, slots=True)
class Moved(Effect):
    """A model moved; `cm` is the distance on the table, `mode` how it went."""

    unit: str
    frm: str
    to: str
    cm: int | float
    mode: str


@effect("left_the_table")
@dataclass(frozen=True, slots=True)
class LeftTheTable(Effect):
    """A model left the table (4.11.4)."""

    unit: str


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


@effect("activation")
@dataclass(frozen=True, slots=True)
class Activation(Effect):
    """A model's activation began."""

    unit: str
    round: int


@effect("order_not_obeyed")
@dataclass(frozen=True, slots=True)
class OrderNotObeyed(Effect):
    """A model did not obey its order."""

    unit: str


@effect("model_hit")
@dataclass(frozen=True, slots=True)
class ModelHit(Effect):
    """A model was hit; `result` is what the damage die did."""

    unit: str
    result: str
    at: str


@effect("building_hit")
@dataclass(frozen=True, slots=True)
class BuildingHit(Effect):
    """A building section was hit and is now in `state`."""

    unit: str
    result: str
    state: str
    at: str


@effect("location_damaged")
@dataclass(frozen=True, slots=True)
class LocationDamaged(Effect):
    """A hit damaged a location of a vehicle or robot."""

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
    """A hit struck a vehicle's crew; `lost` of them fell, `crew` are left."""

    unit: str
    pen: int
    lost: int
    crew: int


@effect("shut_down")
@dataclass(frozen=True, slots=True)
class ShutDown(Effect):
    """A hit shut a model down (and it crashed, if it flew)."""

    unit: str
    crashed: bool


@effect("crashed")
@dataclass(frozen=True, slots=True)
class Crashed(Effect):
    """A flying model crashed."""

    unit: str
    at: str
    pen: int


@effect("transported_hit")
@dataclass(frozen=True, slots=True)
class TransportedHit(Effect):
    """The models a vehicle carried were hit."""

    unit: str
    models: Sequence[str]
    pen: int


@effect("hatch")
@dataclass(frozen=True, slots=True)
class HatchChanged(Effect):
    """A model opened or closed a vehicle's hatch."""

    unit: str
    by: str
    hatch: str


@effect("hatch_broken")
@dataclass(frozen=True, slots=True)
class HatchBroken(Effect):
    """A model broke a vehicle's hatch open."""

    unit: str
    by: str


@effect("embarked")
@dataclass(frozen=True, slots=True)
class Embarked(Effect):
    """A model got into a vehicle."""

    unit: str
    vehicle: str
    at: str


@effect("disembarked")
@dataclass(frozen=True, slots=True)
class Disembarked(Effect):
    """A model got out of a vehicle."""

    unit: str
    vehicle: str
    to: str


@effect("action")
@dataclass(frozen=True, slots=True)
class GeneralAction(Effect):
    """A model took a general action; `target` and `at` when it had them."""

    unit: str
    action: str
    name: str
    target: str | None = optional()
    at: str | None = optional()


@effect("reloaded")
@dataclass(frozen=True, slots=True)
class Reloaded(Effect):
    """A model reloaded a weapon."""

    unit: str
    weapon: str
    shots: int


@effect("unjammed")
@dataclass(frozen=True, slots=True)
class Unjammed(Effect):
    """A model cleared a jammed weapon."""

    unit: str
    weapon: str
    shots: int


@effect("primed")
@dataclass(frozen=True, slots=True)
class Primed(Effect):
    """A model primed a grenade."""

    unit: str
    weapon: str
    shots: int


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


@effect("ready_lost")
@dataclass(frozen=True, slots=True)
class ReadyLost(Effect):
    """A model was pinned and lost its ready-to-fire status: the aim it paid for is gone (A100)."""

    unit: str


@effect("unpinned")
@dataclass(frozen=True, slots=True)
class Unpinned(Effect):
    """A model is no longer pinned."""

    unit: str


@effect("emergency_landing")
@dataclass(frozen=True, slots=True)
class EmergencyLanding(Effect):
    """A flying model came down in an emergency landing."""

    unit: str
    altitude: str
    landed: bool


@effect("out_of_control")
@dataclass(frozen=True, slots=True)
class OutOfControl(Effect):
    """A model out of control rolled what it does."""

    unit: str
    face: int | None  # None: a machine that does not roll (it drifts on)
    action: str


@effect("altitude")
@dataclass(frozen=True, slots=True)
class Altitude(Effect):
    """A flying model changed altitude."""

    unit: str
    altitude: str


@effect("halted")
@dataclass(frozen=True, slots=True)
class Halted(Effect):
    """A model halted."""

    unit: str


@effect("drifted")
@dataclass(frozen=True, slots=True)
class Drifted(Effect):
    """A model out of control drifted."""

    unit: str
    to: str
    cm: int | float
    face: int


@effect("no_target")
@dataclass(frozen=True, slots=True)
class NoTarget(Effect):
    """A model had no target for its standing fire."""

    unit: str


@effect("nothing_to_repeat")
@dataclass(frozen=True, slots=True)
class NothingToRepeat(Effect):
    """A model had no last action to repeat."""

    unit: str


@effect("weapon_malfunctioned")
@dataclass(frozen=True, slots=True)
class WeaponMalfunctioned(Effect):
    """A weapon malfunctioned."""

    unit: str
    weapon: str


@effect("weapon_jammed")
@dataclass(frozen=True, slots=True)
class WeaponJammed(Effect):
    """A weapon jammed on the die shown."""

    unit: str
    weapon: str
    die: int


@effect("missed")
@dataclass(frozen=True, slots=True)
class Missed(Effect):
    """A shot or blow missed."""

    unit: str
    target: str


@effect("deviated")
@dataclass(frozen=True, slots=True)
class Deviated(Effect):
    """An area weapon deviated by `miss`; `to` is where it landed (the edge, if off the table)."""

    weapon: str
    frm: str
    to: str
    cm: int
    face: int
    miss: int
    on_map: bool


EFFECTS = table(
    Moved, LeftTheTable, UnitAdded, TurnEnded, Activation, OrderNotObeyed, ModelHit, BuildingHit,
    LocationDamaged, WeaponFaulty, CrewHit, ShutDown, Crashed, TransportedHit, HatchChanged, HatchBroken,
    Embarked, Disembarked, GeneralAction, Reloaded, Unjammed, Primed, WentFlatDown, GotUp, Aimed, ReadyLost, Unpinned,
    EmergencyLanding, OutOfControl, Altitude, Halted, Drifted, NoTarget, NothingToRepeat,
    WeaponMalfunctioned, WeaponJammed, Missed, Deviated
)
