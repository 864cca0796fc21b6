"""What the strategic orders report besides their effects: one class per order kind's details (`rules.details`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.details import Details
from rules.effects import OMIT, Effect, optional
from rules.stored import JSON
from rules.systems.strategic.effects import BridgeDamaged, Damage


@dataclass(frozen=True, slots=True)
class Part(Details):
    """A part of some details, stored as its fields alone."""

    NOUN: ClassVar[str] = "part of the details"


def _parts(cls: type[Details], items: Any) -> tuple[Any, ...]:
    return tuple(cls.build(i) for i in items)


@dataclass(frozen=True, slots=True)
class BandNote(Part):
    """The range band a shot fell in: its modifier and the whole distances it covers (`from`..`to`)."""

    STORED_AS: ClassVar[Mapping[str, str]] = {"low": "from", "high": "to"}

    key: str
    name: str
    mod: int
    limit: int | float
    low: int | None
    high: int | None


@dataclass(frozen=True, slots=True)
class PenalisedSquare(Part):
    """A square on the line of fire that costs something: its terrain's Hit Penalty and its smoke."""

    cell: str
    terrain: int
    smoke: int


@dataclass(frozen=True, slots=True)
class LineOfFire(Part):
    """The squares a shot crosses, those that cost, those altitude saw over, and the sums (A20, A37)."""

    cells: Sequence[str]
    penalised: Sequence[PenalisedSquare]
    ignored: Sequence[str]
    altitude: int
    terrain: int
    smoke: int
    smoke_squares: int
    indirect: bool

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Read the squares that cost."""
        return {**Details.read(data), "penalised": _parts(PenalisedSquare, data["penalised"])}


@dataclass(frozen=True, slots=True)
class FireNotes(Part):
    """What a ranged shot's line of fire costs, and whether a storm lay on it (and anti-fog negated it)."""

    line_of_fire: LineOfFire
    storm: bool
    storm_negated: bool

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Read the line of fire."""
        return {**Details.read(data), "line_of_fire": LineOfFire.build(data["line_of_fire"])}


@dataclass(frozen=True, slots=True)
class AreaHitNote(Part):
    """One unit an attack struck, why (aimed, random, horde_extra, melee_partner, line) and where."""

    unit: str
    why: str
    cell: str


@dataclass(frozen=True, slots=True)
class DamageRoll(Part):
    """A damage roll: its dice, the die Tearing dropped, and the total."""

    notation: str
    faces: Sequence[int]
    dropped: int | None
    total: int
    tearing: bool


def _flat(effect: Effect, roll: DamageRoll, after: str, **more: JSON) -> dict[str, Any]:
    """Return a hit as stored: its effect's fields (not its kind), the roll after the field `after`, then `more`."""
    out: dict[str, Any] = {}
    for key, value in effect.to_dict().items():
        if key != effect.TAG:
            out[key] = value
        if key == after:
            out["roll"] = roll.to_dict()
    return {**out, **more}


@dataclass(frozen=True, slots=True)
class HitDamage(Part):
    """One hit's damage to a unit (its Damage effect, every step of it), its roll, and whether it destroyed the unit.

    Stored flat, as it always was: the effect's fields with `roll` after `location`, then `destroyed`.
    """

    hit: Damage
    roll: DamageRoll
    destroyed: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return the hit as stored."""
        return _flat(self.hit, self.roll, "location", destroyed=self.destroyed)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> HitDamage:
        """Rebuild a stored hit."""
        steps = {k: v for k, v in data.items() if k not in ("roll", "destroyed")}
        return cls(hit=Damage.build(steps), roll=DamageRoll.build(data["roll"]), destroyed=bool(data["destroyed"]))


@dataclass(frozen=True, slots=True)
class BridgeHit(Part):
    """A hit on a bridge as an object (A32): its BridgeDamaged effect (the damage, what it has lost, whether it
    fell) and its roll, stored flat with `roll` after `bridge`."""

    hit: BridgeDamaged
    roll: DamageRoll

    def to_dict(self) -> dict[str, Any]:
        """Return the hit as stored."""
        return _flat(self.hit, self.roll, "bridge")

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> BridgeHit:
        """Rebuild a stored hit."""
        return cls(hit=BridgeDamaged.build({k: v for k, v in data.items() if k != "roll"}),
                   roll=DamageRoll.build(data["roll"]))


@dataclass(frozen=True, slots=True)
class AttackDetails(Details):
    """An attack: who fired what at whom, its geometry, and for a hit the units struck and their damage.

    `form` (stored as `kind`) is melee, ranged, bridge or an area (blast, cone, line, at_field); a melee
    attack has `reach`, a ranged one `R`, its band, its line of fire and the storm on it.
    """

    STORED_AS: ClassVar[Mapping[str, str]] = {"form": "kind"}

    unit: str
    weapon: str
    target: str | None
    at: str
    distance: int
    form: str | None = optional()
    reach: int | None = optional()
    R: int | None = optional()
    band: BandNote | None = field(default=None, metadata={OMIT: True})
    line_of_fire: LineOfFire | None = field(default=None, metadata={OMIT: True})
    storm: bool | None = optional()
    storm_negated: bool | None = optional()
    bridge: BridgeHit | None = field(default=None, metadata={OMIT: True})
    hits: Sequence[AreaHitNote] | None = optional()
    damage: Sequence[HitDamage] | None = optional()

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Read the band, the line of fire, the hits and the damage."""
        out = Details.read(data)
        readers: dict[str, Any] = {
            "band": BandNote.build, "line_of_fire": LineOfFire.build, "bridge": BridgeHit.build,
            "hits": lambda v: _parts(AreaHitNote, v), "damage": lambda v: _parts(HitDamage, v),
        }
        for key, read in readers.items():
            if data.get(key) is not None:
                out[key] = read(data[key])
        return out


@dataclass(frozen=True, slots=True)
class MoveDetails(Details):
    """A move: its mode, allowance and cost (in `spent_unit`: MP or squares), the base it came from, the path."""

    mode: str
    allowance: int
    cost: int
    base: int
    base_label: str
    spent_unit: str
    path: Sequence[str]
    stopped_at: str | None  # the square a hazard stopped the unit on


@dataclass(frozen=True, slots=True)
class ManeuverDetails(Details):
    """A maneuver: whether the opposed test was won, and the squares the target was pushed along."""

    won: bool
    path: Sequence[str]


@dataclass(frozen=True, slots=True)
class TrapSearch(Details):
    """A search for traps: the squares of the traps it revealed."""

    revealed: Sequence[str]


@dataclass(frozen=True, slots=True)
class RollDetails(Details):
    """Dice rolled in the open (or for the GM): the notation, the total and every face."""

    notation: str
    total: int
    faces: Sequence[int]


@dataclass(frozen=True, slots=True)
class Change(Part):
    """A stat block field's value before and after the GM set it, as the unit stores it."""

    old: JSON
    new: JSON


@dataclass(frozen=True, slots=True)
class UnitSetDetails(Details):
    """The GM set a unit's stat block: every stored field that changed."""

    changed: Mapping[str, Change]

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Read each change."""
        return {"changed": {k: Change(old=v.get("old"), new=v.get("new")) for k, v in data["changed"].items()}}


@dataclass(frozen=True, slots=True)
class FeaturePlacedDetails(Details):
    """A feature placed: its kind, side, squares, cost, purchase and the side's points left."""

    feature: str
    side: str
    cells: Sequence[str]
    cost: int
    purchase: int
    fp_left: int


@dataclass(frozen=True, slots=True)
class FeatureRemovedDetails(Details):
    """A feature removed: its kind, its square and the points given back."""

    feature: str
    cell: str
    refund: int


@dataclass(frozen=True, slots=True)
class FpDetails(Details):
    """A side's feature points set: the pool, what is spent and what is left."""

    side: str
    pool: int
    spent: int
    left: int


@dataclass(frozen=True, slots=True)
class MapDetails(Details):
    """A map imported: its size and how many squares each layer marks."""

    width: int
    height: int
    storm: int
    deep: int
    rain: int = 0


@dataclass(frozen=True, slots=True)
class ChargeDetails(Details):
    """A charge: its move, then (unless something on the way stopped it) its melee attack.

    `strike_test` and `strike_effects` count the outcome's tests and effects the move made before the strike.
    """

    move: MoveDetails
    attack: AttackDetails | None
    struck: bool
    strike_test: int = 0
    strike_effects: int = 0

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Read the move and the attack."""
        out = Details.read(data)
        out["move"] = MoveDetails.build(data["move"])
        out["attack"] = AttackDetails.build(data["attack"]) if data.get("attack") is not None else None
        return out


DETAILS: dict[str, type[Details]] = {
    "attack": AttackDetails, "charge": ChargeDetails, "move": MoveDetails, "maneuver": ManeuverDetails, "detect-traps": TrapSearch,
    "roll": RollDetails, "gm-set": UnitSetDetails, "place-feature": FeaturePlacedDetails,
    "remove-feature": FeatureRemovedDetails, "set-fp": FpDetails, "import-map": MapDetails,
}
