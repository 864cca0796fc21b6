"""Combat Action units: infantry models in squads, characters, vehicles and robots, with their state."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from rules.units import Unit as BaseUnit

KINDS = ("infantry", "character", "vehicle", "robot", "building")
MACHINES = ("vehicle", "robot")
SIZES = ("small", "medium", "large", "very_large")
CONTROLS = ("slave", "autonomous")
ALTITUDES = ("low", "high")
AREAS = ("", "grenade", "other")
FALLEN = ("ooa", "killed", "destroyed")
HATCHES = ("closed", "open", "broken")


@dataclass(slots=True)
class Weapon:
    """A weapon: class (Pistol ... Starcraft), Pen, area kind, its own maximum band and its damage state."""

    name: str
    wclass: str
    pen: int = 0
    area: str = ""
    max_band: str = ""
    faulty: bool = False
    disabled: bool = False
    shots_left: int = -1  # -1: unlimited; an Ammunition Feed hit leaves one shot
    ammo: int = 0  # shots per load; 0: the weapon never needs reloading
    spent: int = 0  # shots fired since the last reload
    jammed: bool = False
    primed: bool = False  # a grenade is primed (1 AP) before it is thrown (1 AP)

    @property
    def empty(self) -> bool:
        """Return whether the weapon has fired its whole load and needs reloading."""
        return self.ammo > 0 and self.spent >= self.ammo

    def to_dict(self) -> dict[str, Any]:
        """Return the weapon as a JSON-able dict."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Weapon:
        """Rebuild a weapon from its dict."""
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})


@dataclass(slots=True)
class Unit(BaseUnit):
    """A Combat Action model, machine or building: SS, PF, MV in cm, size, weapons, locations, crew, passengers."""

    kind: str = "infantry"
    squad: str = ""
    ss: int = 4
    pf: int = 0
    mv: int = 10
    size: str = "medium"
    discipline: int = 4
    weapons: list[Weapon] = field(default_factory=list)
    flying: bool = False
    altitude: str = ""
    control: str = ""
    locations: list[str] = field(default_factory=list)
    damaged: list[str] = field(default_factory=list)
    crew: int = 0
    capacity: int = 0  # models the hold carries
    material: str = ""  # a building's obstacle material: its PF is at least the material's (003:L118-126)
    inside: str = ""  # the id of the vehicle carrying this model
    hatch: str = "closed"  # closed, open, or broken open by close combat
    state: str = "ok"  # ok, wounded, ooa, killed, destroyed; buildings: pierced, collapsed, destroyed
    moved_cm: int = 0
    moved_last_cm: int = 0
    fired: bool = False
    activated: int = 0
    ooc_turns: int = 0  # -1: for the rest of the battle (A85)
    facing: int = 0  # degrees clockwise from north, for machines
    last_action: str = ""  # `move dx dy mode` or `fire weapon target-id`: what an out-of-control slave repeats
    previous_action: str = ""  # the last action of the previous activation

    @property
    def machine(self) -> bool:
        """Return whether this is a vehicle or robot (damaged by location)."""
        return self.kind in MACHINES

    @property
    def building(self) -> bool:
        """Return whether this is a building section (damaged by the building table, never acting)."""
        return self.kind == "building"

    @property
    def takes_turns(self) -> bool:
        """Return whether the unit activates in the rounds: buildings never do."""
        return not self.building

    @property
    def alive(self) -> bool:
        """Return whether the model or machine is still in play."""
        return self.state not in FALLEN

    def health(self) -> float:
        """Return what is left: whole, wounded or damaged locations, or nothing."""
        if not self.alive:
            return 0.0
        if self.machine and self.locations:
            return 1.0 - len(self.damaged) / (len(self.locations) + 1)
        return {"wounded": 0.5, "pierced": 2 / 3, "collapsed": 1 / 3}.get(self.state, 1.0)

    def mv_now(self) -> int:
        """Return the MV in cm, halved for the battle by a Locomotive System hit."""
        return self.mv // 2 if "locomotion" in self.damaged else self.mv

    def weapon(self, name: str) -> Weapon | None:
        """Return the weapon with this name (case-insensitive)."""
        wanted = name.strip().lower()
        return next((w for w in self.weapons if w.name.lower() == wanted), None)

    def to_dict(self) -> dict[str, Any]:
        """Return the unit as a JSON-able dict."""
        data = BaseUnit.to_dict(self)
        for f in fields(self):
            if f.name in data:
                continue
            value = getattr(self, f.name)
            data[f.name] = [w.to_dict() for w in value] if f.name == "weapons" else (
                list(value) if isinstance(value, list) else value)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Unit:
        """Rebuild a unit from its dict."""
        base = BaseUnit.from_dict(data)
        extra = {f.name: data[f.name] for f in fields(cls) if f.name in data and not hasattr(BaseUnit, f.name)}
        extra.pop("name", None)
        weapons = [Weapon.from_dict(w) for w in extra.pop("weapons", [])]
        unit = cls(name=base.name, side=base.side, x=base.x, y=base.y, owner=base.owner, id=base.id,
                   statuses=base.statuses, weapons=weapons)
        for key, value in extra.items():
            if key in ("name", "side", "x", "y", "owner", "id", "statuses"):
                continue
            setattr(unit, key, list(value) if isinstance(value, list) else value)
        return unit
