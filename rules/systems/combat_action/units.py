"""Combat Action units: infantry models in squads, characters, vehicles and robots, with their state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from rules.systems.combat_action.tables import tables
from rules.units import Unit as BaseUnit

KINDS = ("infantry", "character", "vehicle", "robot", "building")
MACHINES = ("vehicle", "robot")
SIZES = ("small", "medium", "large", "very_large")
CONTROLS = ("slave", "autonomous")
ALTITUDES = ("low", "high")
AREAS = ("", "grenade", "other")
FALLEN = ("ooa", "killed", "destroyed")
OUT_OF_CONTROL = "OC"
DAMAGED = "DL"
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
STATE_WORDS = {"ok": "", "wounded": "wounded", "ooa": "out of action", "killed": "killed", "destroyed": "destroyed",
               "pierced": "section pierced", "collapsed": "partial collapse"}
HATCHES = ("closed", "open", "broken")


def compass(degrees: int) -> str:
    """Return a heading as the nearest of the eight compass points."""
    return COMPASS[round((degrees % 360) / 45) % 8]


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
    moved_cm: int | float = 0  # whole, or halves of a centimetre at a fine scale
    moved_last_cm: int | float = 0
    fired: bool = False
    activated: int = 0
    ooc_turns: int = 0  # -1: for the rest of the battle (A85)
    facing: int = 0  # degrees clockwise from north, for machines
    last_action: str = ""  # `move dx dy mode` or `fire weapon target-id`: what an out-of-control slave repeats
    previous_action: str = ""  # the last action of the previous activation

    # status -> the badge drawn on the token (the map legend names each badge)
    BADGES: ClassVar[Mapping[str, str]] = {
        "pinned": "P", "routing": "R", "flat_down": "FD", "hidden": "H", "halted": "I", "hatch_jammed": "HJ",
        "aimed": "A",
    }

    def badges(self) -> tuple[str, ...]:
        """Return the token's badges: statuses, out of control, and damaged locations for a machine."""
        marks = [self.BADGES[s] for s in self.statuses if s in self.BADGES]
        if self.machine and self.ooc_turns:
            marks.append(OUT_OF_CONTROL)
        if self.machine and self.damaged:
            marks.append(DAMAGED)
        return tuple(dict.fromkeys(marks))

    def heading(self) -> int | None:
        """Return the heading a machine faces (models show none), degrees clockwise from north."""
        return self.facing if self.machine else None

    @property
    def on_map(self) -> bool:
        """Return whether the unit stands on the table: in play and not riding inside a vehicle."""
        return self.alive and not self.inside

    def health_text(self) -> str:
        """Return the unit's state, a machine's damaged locations by name and its crew."""
        parts = [STATE_WORDS.get(self.state, self.state)]
        if self.machine and self.damaged:
            parts.append("damaged: " + ", ".join(tables().location(key).name for key in self.damaged))
        if self.kind == "vehicle" and self.crew:
            parts.append(f"crew {self.crew}")
        return "; ".join(p for p in parts if p) or "unhurt"

    def status_words(self) -> tuple[str, ...]:
        """Return the words for a unit's situation: squad, facing, altitude, statuses, hatch, out of control."""
        words = [f"{self.squad} squad"] if self.squad else []
        if self.machine:
            words.append(f"facing {compass(self.facing)}")
        if self.flying:
            words.append(f"{self.altitude} altitude")
        words += [s.replace("_", " ") for s in self.statuses]
        if self.machine and self.ooc_turns:
            words.append("out of control")
        if "hold" in self.locations and self.hatch != "closed":
            words.append(f"hatch {self.hatch}")
        if self.inside:
            words.append("carried in a vehicle")
        return tuple(words)

    def key_words(self) -> tuple[str, ...]:
        """Return the map key's words beyond the health and statuses it shows anyway: squad and situation.

        Facing is drawn on the token, so it is left out too.
        """
        statuses = {s.replace("_", " ") for s in self.statuses}
        return tuple(w for w in self.status_words() if not w.startswith("facing ") and w not in statuses)

    def summary_line(self) -> str:
        """Return kind, SS, PF, MV, state and situation, like `infantry SS 4 PF 0 MV 10 cm, Alpha squad`."""
        parts = [f"{self.kind} SS {self.ss} PF {self.pf} MV {self.mv_now()} cm", self.health_text(),
                 *self.status_words()]
        return ", ".join(p for p in parts if p)

    def stat_lines(self) -> list[tuple[str, str]]:
        """Return the stat block as headings and values."""
        weapons = ", ".join(f"{w.name} ({w.wclass.replace('_', ' ')}, Pen {w.pen})" for w in self.weapons) or "none"
        lines = [("Kind", f"{self.kind}, {self.size.replace('_', ' ')}" + (f", squad {self.squad}" if self.squad else "")),
                 ("State", self.health_text() or "ok"),
                 ("Ratings", f"SS {self.ss} \u00b7 PF {self.pf} \u00b7 MV {self.mv_now()} cm \u00b7 "
                             f"Discipline {self.discipline}"),
                 ("Weapons", weapons)]
        words = self.status_words()
        if words:
            lines.append(("Situation", ", ".join(words)))
        return lines

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
