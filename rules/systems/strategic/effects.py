"""The effects the strategic rules record, one class per kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.effects import Effect, effect, optional, table
from rules.stored import JSON


@effect("moved")
@dataclass(frozen=True, slots=True)
class Moved(Effect):
    """A unit moved along a path; `cost` is the path's cost in its move budget."""

    unit: str
    frm: str
    to: str
    cost: int


@effect("disengaged")
@dataclass(frozen=True, slots=True)
class Disengaged(Effect):
    """A unit broke away from the units it was locked in melee with (A58)."""

    unit: str
    from_units: Sequence[str]


@effect("map_imported")
@dataclass(frozen=True, slots=True)
class MapImported(Effect):
    """The GM imported a map; `storm`, `rain` and `deep` count the squares of those layers."""

    width: int
    height: int
    storm: int = 0
    deep: int = 0
    rain: int = 0


@effect("homebrew_imported")
@dataclass(frozen=True, slots=True)
class HomebrewImported(Effect):
    """The GM imported homebrew terrain and features for this battle."""

    terrain: Sequence[str]
    features: Sequence[str]


@effect("unit_added")
@dataclass(frozen=True, slots=True)
class UnitAdded(Effect):
    """The GM put a unit on the map."""

    unit: str
    side: str
    at: str
    owner: int | None


@effect("unit_set")
@dataclass(frozen=True, slots=True)
class UnitSet(Effect):
    """The GM set a unit's state (wounds, statuses...)."""

    unit: str
    fields: Sequence[str]


@effect("placed")
@dataclass(frozen=True, slots=True)
class Placed(Effect):
    """The GM placed a unit on another square."""

    unit: str
    frm: str
    to: str


@effect("feature_placed")
@dataclass(frozen=True, slots=True)
class FeaturePlaced(Effect):
    """A side bought and placed a battlefield feature."""

    feature: str
    name: str
    side: str
    cells: Sequence[str]
    cost: int
    purchase: int
    hidden: bool


@effect("feature_removed")
@dataclass(frozen=True, slots=True)
class FeatureRemoved(Effect):
    """A feature was taken off a square, its Feature Points refunded."""

    feature: str
    name: str
    cell: str
    side: str | None
    refund: int


@effect("fp_set")
@dataclass(frozen=True, slots=True)
class FpSet(Effect):
    """The GM set a side's Feature Point pool."""

    side: str
    override: int | None
    adjust: int
    pool: int
    spent: int


@effect("engaged")
@dataclass(frozen=True, slots=True)
class Engaged(Effect):
    """Units were locked in melee."""

    units: Sequence[str]


@effect("aiming")
@dataclass(frozen=True, slots=True)
class Aiming(Effect):
    """A unit took aim for its next attack."""

    unit: str
    mode: str
    bonus: int


@effect("hidden")
@dataclass(frozen=True, slots=True)
class Hidden(Effect):
    """A unit hid on its square until it attacks."""

    unit: str
    cell: str


@effect("pushed")
@dataclass(frozen=True, slots=True)
class Pushed(Effect):
    """A unit was pushed to another square, ending its melee with some units."""

    unit: str
    frm: str
    to: str
    engagement_ended: Sequence[str]


@effect("defending")
@dataclass(frozen=True, slots=True)
class Defending(Effect):
    """A unit stood on guard: melee attacks against it take a penalty."""

    unit: str
    penalty: int


@effect("fire_out")
@dataclass(frozen=True, slots=True)
class FireOut(Effect):
    """A fire went out: a unit's flames (`unit`) or a burning square's (`cell`)."""

    unit: str | None = optional()
    cell: str | None = optional()
    cause: str = ""


@effect("trap_sprung")
@dataclass(frozen=True, slots=True)
class TrapSprung(Effect):
    """A trap went off on a square."""

    feature: str
    cell: str
    cause: str


@effect("bakelite")
@dataclass(frozen=True, slots=True)
class Bakelite(Effect):
    """A unit was caught in Bakelite: a WS and Agility penalty until it breaks free."""

    unit: str
    penalty: int
    total: int


@effect("status_ended")
@dataclass(frozen=True, slots=True)
class StatusEnded(Effect):
    """A unit's status ran out or was broken."""

    unit: str
    status: str


@effect("storms_moved")
@dataclass(frozen=True, slots=True)
class StormsMoved(Effect):
    """The storms moved; `dropped` storm squares blew off the map."""

    direction: str
    distance: int
    before: Sequence[str]
    after: Sequence[str]
    dropped: int = 0


@effect("burnt_out")
@dataclass(frozen=True, slots=True)
class BurntOut(Effect):
    """A square's fire burned out."""

    cell: str


@effect("smoke_cleared")
@dataclass(frozen=True, slots=True)
class SmokeCleared(Effect):
    """A square's smoke cleared."""

    cell: str


@effect("ignited")
@dataclass(frozen=True, slots=True)
class Ignited(Effect):
    """A square caught fire for some rounds."""

    cell: str
    rounds: int
    cause: str


@effect("caught_fire")
@dataclass(frozen=True, slots=True)
class CaughtFire(Effect):
    """A unit caught fire."""

    unit: str
    cell: str


@effect("chance")
@dataclass(frozen=True, slots=True)
class Chance(Effect):
    """A d100 chance was rolled (a forest catching fire, say)."""

    what: str
    cell: str
    chance: int
    roll: int
    happened: bool


@effect("frozen")
@dataclass(frozen=True, slots=True)
class Frozen(Effect):
    """A square of water froze into ice."""

    cell: str
    cause: str


@effect("frozen_in")
@dataclass(frozen=True, slots=True)
class FrozenIn(Effect):
    """A unit was frozen in on the ice."""

    unit: str
    cell: str


@effect("smoke")
@dataclass(frozen=True, slots=True)
class Smoke(Effect):
    """Smoke rose on a square for some rounds."""

    cell: str
    rounds: int


@effect("ice_melted")
@dataclass(frozen=True, slots=True)
class IceMelted(Effect):
    """A square's ice melted back into its terrain."""

    cell: str
    terrain: str


@effect("plunged")
@dataclass(frozen=True, slots=True)
class Plunged(Effect):
    """A unit plunged into the water."""

    unit: str
    cell: str


@effect("stunned")
@dataclass(frozen=True, slots=True)
class Stunned(Effect):
    """A unit was stunned for some rounds."""

    unit: str
    rounds: int


@effect("sunk")
@dataclass(frozen=True, slots=True)
class Sunk(Effect):
    """A unit sank below the surface."""

    unit: str
    cell: str
    altitude: int


@effect("bridge_damaged")
@dataclass(frozen=True, slots=True)
class BridgeDamaged(Effect):
    """A bridge took damage as an object (A32)."""

    cell: str
    bridge: str
    damage: int
    armour: int
    tb: int
    wounds_lost: int
    total_lost: int
    wounds: int
    destroyed: bool


@effect("bridge_destroyed")
@dataclass(frozen=True, slots=True)
class BridgeDestroyed(Effect):
    """A bridge fell; its square is its terrain again."""

    cell: str
    bridge: str
    terrain: str


@effect("trap_revealed")
@dataclass(frozen=True, slots=True)
class TrapRevealed(Effect):
    """A side discovered a hidden trap."""

    cell: str
    feature: str
    side: str


@effect("fell")
@dataclass(frozen=True, slots=True)
class Fell(Effect):
    """A unit fell on hazardous terrain."""

    unit: str
    cell: str
    terrain: str
    degrees: int
    prone: bool


@effect("surfaced")
@dataclass(frozen=True, slots=True)
class Surfaced(Effect):
    """A sunk unit came back up."""

    unit: str
    cell: str


@effect("mine_triggered")
@dataclass(frozen=True, slots=True)
class MineTriggered(Effect):
    """A unit set off a minefield."""

    unit: str
    cell: str
    feature: str
    triggers_left: int


@effect("feature_expended")
@dataclass(frozen=True, slots=True)
class FeatureExpended(Effect):
    """A feature was spent."""

    cell: str
    feature: str


@effect("damage")
@dataclass(frozen=True, slots=True)
class Damage(Effect):
    """A hit's damage to a unit, every step of it; wounds for a character, Magnitude for a Horde."""

    unit: str
    location: str
    damage: int
    dtype: str
    personal_ap: int
    cover_ap: int
    cover_used: int
    cover_note: str
    pen: int
    armour: int
    tb: int
    wounds_lost: int
    area: bool
    melee: bool
    source: str
    wounds_left: int | None = optional()
    magnitude_lost: int | None = optional()
    magnitude_left: int | None = optional()
    feature_ap_left: int | None = optional()


@effect("cover_decayed")
@dataclass(frozen=True, slots=True)
class CoverDecayed(Effect):
    """A feature's Cover AP wore down."""

    cell: str
    feature: str | None
    before: int
    after: int


@effect("magnitude_damage")
@dataclass(frozen=True, slots=True)
class MagnitudeDamage(Effect):
    """A Horde lost Magnitude outside a hit (flames, a minefield)."""

    unit: str
    magnitude_lost: int
    magnitude_left: int
    source: str = ""


@effect("destroyed")
@dataclass(frozen=True, slots=True)
class Destroyed(Effect):
    """A unit was destroyed and left the map; `last` is its saved form, for the log."""

    unit: str
    side: str
    at: str
    engaged_with: Sequence[str]
    last: Mapping[str, JSON] = field(default_factory=dict)


EFFECTS = table(
    Moved, Disengaged, MapImported, HomebrewImported, UnitAdded, UnitSet, Placed, FeaturePlaced,
    FeatureRemoved, FpSet, Engaged, Aiming, Hidden, Pushed, Defending, FireOut, TrapSprung, Bakelite,
    StatusEnded, StormsMoved, BurntOut, SmokeCleared, Ignited, CaughtFire, Chance, Frozen, FrozenIn, Smoke,
    IceMelted, Plunged, Stunned, Sunk, BridgeDamaged, BridgeDestroyed, TrapRevealed, Fell, Surfaced,
    MineTriggered, FeatureExpended, Damage, CoverDecayed, MagnitudeDamage, Destroyed
)
