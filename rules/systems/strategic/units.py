"""Units and their stat blocks: Independent Characters, E-Scale units and Hordes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.errors import NotFoundError, did_you_mean, shorten
from rules.units import NAME_MAX as NAME_MAX
from rules.units import Unit as BaseUnit

CHARACTERISTICS = ("ws", "bs", "s", "t", "ag", "int", "per", "wp", "fel")
CHARACTERISTIC_NAMES = {
    "ws": "Weapon Skill", "bs": "Ballistic Skill", "s": "Strength", "t": "Toughness", "ag": "Agility",
    "int": "Intelligence", "per": "Perception", "wp": "Willpower", "fel": "Fellowship",
}
UNIT_KINDS = ("ic", "horde")
# Other words a stat block may use for a kind: an E-Scale unit plays as an Independent Character.
KIND_ALIASES = {"independent character": "ic", "character": "ic", "e-scale": "ic", "e-scale unit": "ic",
                "escale": "ic"}
UNIT_CLASSES = ("eva", "superheavy", "infantry", "vehicle", "walker", "other")
# Classes that sink in deep water unless they pass a test (000:L74, 001:L61, A35), and that test's skill.
SINKING_CLASSES = {"eva": "athletics", "superheavy": "pilot"}
DAMAGE_TYPES = ("E", "I", "R", "X")
RANGE_UNITS = ("dm", "m", "km", "sq")
# Characteristic bonus tokens an initiative formula may use, as the parent system names them.
BONUS_TOKENS = {
    "WSB": "ws", "BSB": "bs", "SB": "s", "TB": "t", "AB": "ag", "IB": "int", "PERB": "per", "WPB": "wp",
    "FELB": "fel",
}
LOCATIONS = ("head", "body", "r_arm", "l_arm", "r_leg", "l_leg")


def bonus(value: int, unnatural: int = 1) -> int:
    """Return a characteristic's bonus: its tens digit, times an Unnatural multiplier (A01)."""
    return (max(0, value) // 10) * max(1, unnatural)


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

    @property
    def area(self) -> str | None:
        """Return the weapon's area shape: blast, cone, line, at_field, or None for a single target."""
        if self.blast:
            return "blast"
        if self.cone:
            return "cone"
        if self.line:
            return "line"
        if self.ats and not self.melee:
            return "at_field"
        return None

    def quality_words(self) -> list[str]:
        """Return the weapon's qualities as a player reads them: Blast(4), Tearing, Indirect..."""
        words = [f"Blast({self.blast})"] if self.blast else []
        words += ["Cone"] if self.cone else []
        words += [f"Line({self.line})"] if self.line else []
        words += [f"ATS({self.ats})"] if self.ats else []
        words += ["Tearing"] if self.tearing else []
        words += ["Indirect"] if self.indirect else []
        return words + list(self.qualities)

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
class Unit(BaseUnit):
    """A Strategic Combat unit: an Independent Character or a Horde, with its stat block and state."""

    kind: str = "ic"
    unit_class: str = "other"
    chars: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CHARACTERISTICS, 30))
    unnatural: dict[str, int] = field(default_factory=dict)  # characteristic -> bonus multiplier
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
    movement_points: int = 0  # a Horde's own movement value (MP of a Full Move); 0: use its AB (A39)
    weapons: list[Weapon] = field(default_factory=list)
    status_rounds: dict[str, int] = field(default_factory=dict)
    engaged: list[str] = field(default_factory=list)
    aim: int = 0
    supreme_commander: bool = False
    anti_fog: bool = False
    notes: str = ""

    BADGES: ClassVar[Mapping[str, str]] = {
        "pinned": "P", "stunned": "S", "on_fire": "F", "hidden": "H", "prone": "p", "immobilised": "I",
        "routing": "R", "sunk": "~",
    }

    @property
    def is_horde(self) -> bool:
        """Return whether this unit is a Horde."""
        return self.kind == "horde"

    @property
    def massed(self) -> bool:
        """Return whether the unit is drawn as a Horde's square token."""
        return self.is_horde

    def health_text(self) -> str:
        """Return the unit's wounds or Magnitude as `Wounds 30/40` or `Magnitude 20/30`."""
        if self.is_horde:
            return f"Magnitude {self.magnitude}/{self.max_magnitude}"
        return f"Wounds {self.wounds}/{self.max_wounds}"

    def summary_line(self) -> str:
        """Return the unit's wounds or Magnitude in short, as `W 30/40` or `Mag 20/30`."""
        if self.is_horde:
            return f"Mag {self.magnitude}/{self.max_magnitude}"
        return f"W {self.wounds}/{self.max_wounds}"

    def stat_lines(self) -> list[tuple[str, str]]:
        """Return the characteristics, armour and weapons as headings and values."""
        chars = " \u00b7 ".join(f"{k.upper()} {self.chars.get(k, 0)}" for k in CHARACTERISTIC_NAMES)
        armour = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in self.armour.items()) or "none"
        weapons = ", ".join(w.name for w in self.weapons) or "none"
        return [("Kind", "Horde" if self.is_horde else "Independent Character"), ("Health", self.health_text()),
                ("Characteristics", chars), ("Armour (AP)", armour), ("Weapons", weapons)]

    @property
    def flying(self) -> bool:
        """Return whether the unit is airborne (altitude above zero)."""
        return self.altitude > 0

    @property
    def hovering(self) -> bool:
        """Return whether the unit hovers (it has the Hoverer trait)."""
        return self.hoverer > 0

    @property
    def sinks_in_deep_water(self) -> bool:
        """Return whether deep water can sink this unit (an Eva or a Superheavy, A35)."""
        return self.unit_class in SINKING_CLASSES

    def bonus(self, char: str) -> int:
        """Return the bonus of a characteristic, with its Unnatural multiplier."""
        return bonus(self.chars.get(char, 0), self.unnatural.get(char, 1))

    def stat_bonus(self, token: str) -> int | None:
        """Return a characteristic bonus named as initiative formulas name it (`AB`, `PerB`...)."""
        char = BONUS_TOKENS.get(token.upper())
        return None if char is None else self.bonus(char)

    def initiative_tiebreak(self) -> int:
        """Return the Agility that breaks initiative ties before a roll-off."""
        return self.chars.get("ag", 0)

    def armour_at(self, location: str) -> int:
        """Return the unit's own AP on a hit location (body when the location is unknown)."""
        return self.armour.get(location, self.armour.get("body", 0))

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

    def require_weapon(self, name: str) -> Weapon:
        """Return the weapon with this name, or refuse, listing the weapons the unit carries."""
        weapon = self.weapon(name)
        if weapon is None:
            names = ", ".join(w.name for w in self.weapons) or "none"
            close = did_you_mean(name, [w.name for w in self.weapons])
            raise NotFoundError(f"{self.name} has no weapon `{shorten(name)}`.{close} Its weapons: {names}.")
        return weapon

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
            "id": self.id, "name": self.name, "side": self.side, "x": self.x, "y": self.y, "owner": self.owner,
            "kind": self.kind, "unit_class": self.unit_class, "chars": dict(self.chars),
            "unnatural": dict(self.unnatural),
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
        d["unnatural"] = dict(d.get("unnatural", {}))
        d["skills"] = dict(d.get("skills", {}))
        d["armour"] = dict(d.get("armour", {}))
        d["statuses"] = list(d.get("statuses", []))
        d["status_rounds"] = dict(d.get("status_rounds", {}))
        d["engaged"] = list(d.get("engaged", []))
        return cls(**d)
