"""Combat Action units: infantry models in squads, characters, vehicles and robots, with their state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from rules.units import Unit as BaseUnit

KINDS = ("infantry", "character", "vehicle", "robot")
MACHINES = ("vehicle", "robot")
SIZES = ("small", "medium", "large", "very_large")
CONTROLS = ("slave", "autonomous")
ALTITUDES = ("low", "high")
AREAS = ("", "grenade", "other")
FALLEN = ("ooa", "killed", "destroyed")


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

    def to_dict(self) -> dict[str, Any]:
        """Return the weapon as a JSON-able dict."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Weapon:
        """Rebuild a weapon from its dict."""
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})


@dataclass(slots=True)
class Unit(BaseUnit):
    """A Combat Action model or machine: SS, PF, MV in cm, size, weapons, locations, crew and passengers."""

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
    transported: list[str] = field(default_factory=list)
    state: str = "ok"  # ok, wounded, ooa, killed, destroyed
    moved_cm: int = 0
    moved_last_cm: int = 0
    fired: bool = False
    activated: int = 0
    ooc_turns: int = 0  # -1: for the rest of the battle (A85)
    facing: int = 0  # degrees clockwise from north, for machines
    last_action: str = ""

    BADGES: ClassVar[Mapping[str, str]] = {
        "pinned": "P", "routing": "R", "flat_down": "p", "halted": "H", "aimed": "A",
    }

    def health_text(self) -> str:
        """Return the model's state, and a machine's damaged locations."""
        if self.machine and self.damaged:
            return f"{self.state}, damaged: {', '.join(d.replace('_', ' ') for d in self.damaged)}"
        return self.state

    def summary_line(self) -> str:
        """Return the kind, SS, PF, MV and state, like `infantry SS 4 PF 0 MV 10 cm, ok`."""
        return f"{self.kind} SS {self.ss} PF {self.pf} MV {self.mv_now()} cm, {self.health_text()}"

    def stat_lines(self) -> list[tuple[str, str]]:
        """Return the stat block as headings and values."""
        weapons = ", ".join(f"{w.name} ({w.wclass}, Pen {w.pen})" for w in self.weapons) or "none"
        lines = [("Kind", f"{self.kind}, {self.size.replace('_', ' ')}" + (f", squad {self.squad}" if self.squad else "")),
                 ("State", self.health_text()),
                 ("Ratings", f"SS {self.ss} \u00b7 PF {self.pf} \u00b7 MV {self.mv_now()} cm \u00b7 "
                             f"Discipline {self.discipline}"),
                 ("Weapons", weapons)]
        if self.flying:
            lines.append(("Flying", f"altitude {self.altitude or 'low'}"))
        if self.transported:
            lines.append(("Carrying", ", ".join(self.transported)))
        return lines

    @property
    def machine(self) -> bool:
        """Return whether this is a vehicle or robot (damaged by location)."""
        return self.kind in MACHINES

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
        return 0.5 if self.state == "wounded" else 1.0

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
