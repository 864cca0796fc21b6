"""Units and their stat blocks: Independent Characters, E-Scale units and Hordes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.coords import Cell

CHARACTERISTICS = ("ws", "bs", "s", "t", "ag", "int", "per", "wp", "fel")
CHARACTERISTIC_NAMES = {
    "ws": "Weapon Skill", "bs": "Ballistic Skill", "s": "Strength", "t": "Toughness", "ag": "Agility",
    "int": "Intelligence", "per": "Perception", "wp": "Willpower", "fel": "Fellowship",
}
UNIT_KINDS = ("ic", "horde")
UNIT_CLASSES = ("eva", "superheavy", "infantry", "vehicle", "walker", "other")
DAMAGE_TYPES = ("E", "I", "R", "X")
RANGE_UNITS = ("dm", "m", "km", "sq")
LOCATIONS = ("head", "body", "r_arm", "l_arm", "r_leg", "l_leg")
NAME_MAX = 64


def bonus(value: int) -> int:
    """Return a characteristic's bonus: its tens digit (A01)."""
    return max(0, value) // 10


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon profile: range with its unit, damage, penetration, type and qualities."""

    name: str
    damage: str = "1d10"
    pen: int = 0
    dtype: str = "I"
    range: int = 0
    range_unit: str = "dm"
    melee: bool = False
    reach: int = 1
    blast: int = 0
    cone: bool = False
    line: int = 0
    ats: int = 0
    tearing: bool = False
    indirect: bool = False
    qualities: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Return the weapon as a JSON-able dict, leaving defaults out."""
        out: dict[str, Any] = {"name": self.name}
        for key, default in _WEAPON_DEFAULTS.items():
            value = getattr(self, key)
            if value != default:
                out[key] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Weapon:
        """Rebuild a weapon from its dict."""
        kwargs = {k: data[k] for k in _WEAPON_DEFAULTS if k in data}
        if "qualities" in kwargs:
            kwargs["qualities"] = tuple(kwargs["qualities"])
        return cls(name=str(data["name"]), **kwargs)


_WEAPON_DEFAULTS: dict[str, Any] = {
    "damage": "1d10", "pen": 0, "dtype": "I", "range": 0, "range_unit": "dm", "melee": False, "reach": 1,
    "blast": 0, "cone": False, "line": 0, "ats": 0, "tearing": False, "indirect": False, "qualities": (),
}


@dataclass(slots=True)
class Unit:
    """A unit on the map with its stat block, owner, side and state."""

    name: str
    side: str
    x: int
    y: int
    owner: int | None = None
    kind: str = "ic"
    unit_class: str = "other"
    chars: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CHARACTERISTICS, 30))
    skills: dict[str, int] = field(default_factory=dict)
    wounds: int = 10
    max_wounds: int = 10
    magnitude: int = 0
    max_magnitude: int = 0
    squads: int = 1
    armour: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LOCATIONS, 0))
    flyer: int = 0
    hoverer: int = 0
    aquatic: bool = False
    amphibious: bool = False
    altitude: int = 0
    movement_points: int = 0
    weapons: list[Weapon] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    status_rounds: dict[str, int] = field(default_factory=dict)
    engaged: list[str] = field(default_factory=list)
    aim: int = 0
    supreme_commander: bool = False
    anti_fog: bool = False
    notes: str = ""

    @property
    def cell(self) -> Cell:
        """Return the square the unit stands on."""
        return Cell(self.x, self.y)

    @property
    def is_horde(self) -> bool:
        """Return whether this unit is a Horde."""
        return self.kind == "horde"

    @property
    def flying(self) -> bool:
        """Return whether the unit is airborne (altitude above zero)."""
        return self.altitude > 0

    def bonus(self, char: str) -> int:
        """Return the bonus of a characteristic."""
        return bonus(self.chars.get(char, 0))

    @property
    def ab(self) -> int:
        """Return the Agility Bonus, the base of movement."""
        return self.bonus("ag")

    def weapon(self, name: str) -> Weapon | None:
        """Return the weapon with this name (case-insensitive), if the unit carries it."""
        wanted = name.strip().lower()
        for w in self.weapons:
            if w.name.lower() == wanted:
                return w
        return None

    @property
    def alive(self) -> bool:
        """Return whether the unit is still in the fight."""
        return (self.magnitude > 0) if self.is_horde else (self.wounds > 0)

    def health(self) -> float:
        """Return remaining wounds or magnitude as a fraction of the maximum."""
        if self.is_horde:
            return self.magnitude / self.max_magnitude if self.max_magnitude else 0.0
        return self.wounds / self.max_wounds if self.max_wounds else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Return the unit as a JSON-able dict."""
        return {
            "name": self.name, "side": self.side, "x": self.x, "y": self.y, "owner": self.owner,
            "kind": self.kind, "unit_class": self.unit_class, "chars": dict(self.chars),
            "skills": dict(self.skills), "wounds": self.wounds, "max_wounds": self.max_wounds,
            "magnitude": self.magnitude, "max_magnitude": self.max_magnitude, "squads": self.squads,
            "armour": dict(self.armour), "flyer": self.flyer, "hoverer": self.hoverer,
            "aquatic": self.aquatic, "amphibious": self.amphibious, "altitude": self.altitude,
            "movement_points": self.movement_points,
            "weapons": [w.to_dict() for w in self.weapons], "statuses": list(self.statuses),
            "status_rounds": dict(self.status_rounds), "engaged": list(self.engaged), "aim": self.aim,
            "supreme_commander": self.supreme_commander, "anti_fog": self.anti_fog, "notes": self.notes,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Unit:
        """Rebuild a unit from its dict."""
        d = dict(data)
        d["weapons"] = [Weapon.from_dict(w) for w in d.get("weapons", [])]
        d["chars"] = dict(d.get("chars", {}))
        d["skills"] = dict(d.get("skills", {}))
        d["armour"] = dict(d.get("armour", {}))
        d["statuses"] = list(d.get("statuses", []))
        d["status_rounds"] = dict(d.get("status_rounds", {}))
        d["engaged"] = list(d.get("engaged", []))
        return cls(**d)
