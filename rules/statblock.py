"""Stat blocks: validate the fields a GM gives a unit and write them onto it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.dice import parse_dice
from rules.errors import InvalidOrderError
from rules.units import (
    CHARACTERISTICS,
    DAMAGE_TYPES,
    LOCATIONS,
    RANGE_UNITS,
    UNIT_CLASSES,
    Unit,
    Weapon,
)

MAX_CHAR = 200
MAX_WOUNDS = 10_000
MAX_WEAPONS = 20
STATUSES = ("pinned", "stunned", "prone", "on_fire", "immobilised", "hidden", "sunk", "routing", "aiming", "defending")

STAT_FIELDS = (
    *CHARACTERISTICS, "kind", "class", "wounds", "max_wounds", "magnitude", "max_magnitude", "squads", "ap",
    "armour", "flyer", "hoverer", "aquatic", "amphibious", "altitude", "mp", "skills", "weapons", "statuses",
    "supreme_commander", "anti_fog", "notes",
)


def _int(value: Any, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InvalidOrderError(f"`{field}` must be a whole number from {lo} to {hi}.")
    try:
        number = int(value)
    except ValueError:
        raise InvalidOrderError(f"`{field}` must be a whole number from {lo} to {hi}, not `{value}`.") from None
    if not lo <= number <= hi:
        raise InvalidOrderError(f"`{field}` must be from {lo} to {hi}; {number} is impossible.")
    return number


def _bool(value: Any, field: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "yes", "false", "no"):
        return value.lower() in ("true", "yes")
    raise InvalidOrderError(f"`{field}` must be true or false.")


def _choice(value: Any, field: str, options: Iterable[str]) -> str:
    opts = tuple(options)
    text = str(value).strip().lower()
    if text not in opts:
        raise InvalidOrderError(f"`{field}` must be one of {', '.join(opts)}; `{value}` is not.")
    return text


def parse_weapon(data: Any, where: str = "weapon") -> Weapon:
    """Validate one weapon profile."""
    if not isinstance(data, dict):
        raise InvalidOrderError(f"{where} must be a table of fields (name, damage, pen, range...).")
    allowed = {"name", "damage", "pen", "type", "dtype", "range", "range_unit", "melee", "reach", "blast",
               "cone", "line", "ats", "tearing", "indirect", "qualities"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise InvalidOrderError(f"{where}: unknown field `{unknown[0]}`. Fields: {', '.join(sorted(allowed))}.")
    name = str(data.get("name", "")).strip()
    if not name or len(name) > 64:
        raise InvalidOrderError(f"{where}: `name` is required (1 to 64 characters).")
    where = f"{where} `{name}`"
    damage = str(data.get("damage", "1d10"))
    try:
        parse_dice(damage)
    except InvalidOrderError as exc:
        raise InvalidOrderError(f"{where}: `damage` {exc.message}") from None
    dtype = str(data.get("type", data.get("dtype", "I"))).upper()
    if dtype not in DAMAGE_TYPES:
        raise InvalidOrderError(f"{where}: `type` must be E, I, R or X (Energy, Impact, Rending, Explosive).")
    melee = _bool(data.get("melee", False), f"{where}: melee")
    rng = _int(data.get("range", 0), f"{where}: range", 0, 100_000)
    if not melee and rng == 0:
        raise InvalidOrderError(f"{where}: a ranged weapon needs a `range` above 0 (or set `melee = true`).")
    quals = data.get("qualities", [])
    if not isinstance(quals, list) or not all(isinstance(q, str) for q in quals):
        raise InvalidOrderError(f"{where}: `qualities` must be a list of words.")
    return Weapon(
        name=name, damage=damage, pen=_int(data.get("pen", 0), f"{where}: pen", 0, 100), dtype=dtype,
        range=rng, range_unit=_choice(data.get("range_unit", "dm"), f"{where}: range_unit", RANGE_UNITS),
        melee=melee, reach=_int(data.get("reach", 1), f"{where}: reach", 0, 20),
        blast=_int(data.get("blast", 0), f"{where}: blast", 0, 50),
        cone=_bool(data.get("cone", False), f"{where}: cone"),
        line=_int(data.get("line", 0), f"{where}: line", 0, 200),
        ats=_int(data.get("ats", 0), f"{where}: ats", 0, 200),
        tearing=_bool(data.get("tearing", False), f"{where}: tearing"),
        indirect=_bool(data.get("indirect", False), f"{where}: indirect"),
        qualities=tuple(quals),
    )


def apply_stats(unit: Unit, stats: dict[str, Any], kinds: Iterable[str], partial: bool = False) -> None:
    """Validate stat fields and write them onto the unit; nothing is written if any field is wrong."""
    unknown = sorted(k for k in stats if k not in STAT_FIELDS)
    if unknown:
        raise InvalidOrderError(f"`{unknown[0]}` is not a stat. Stats are: {', '.join(STAT_FIELDS)}.")
    trial = Unit.from_dict(unit.to_dict())
    s = stats
    if "kind" in s:
        trial.kind = _choice(s["kind"], "kind", kinds)
    if "class" in s:
        trial.unit_class = _choice(s["class"], "class", UNIT_CLASSES)
    for c in CHARACTERISTICS:
        if c in s:
            trial.chars[c] = _int(s[c], c, 0, MAX_CHAR)
    if "wounds" in s:
        trial.wounds = _int(s["wounds"], "wounds", 0, MAX_WOUNDS)
        if "max_wounds" not in s and (not partial or trial.wounds > trial.max_wounds):
            trial.max_wounds = max(trial.wounds, 1)
    if "max_wounds" in s:
        trial.max_wounds = _int(s["max_wounds"], "max_wounds", 1, MAX_WOUNDS)
    if trial.wounds > trial.max_wounds:
        raise InvalidOrderError(f"`wounds` ({trial.wounds}) cannot be above `max_wounds` ({trial.max_wounds}).")
    if "magnitude" in s:
        trial.magnitude = _int(s["magnitude"], "magnitude", 0, MAX_WOUNDS)
        if "max_magnitude" not in s and (not partial or trial.magnitude > trial.max_magnitude):
            trial.max_magnitude = max(trial.magnitude, 1)
    if "max_magnitude" in s:
        trial.max_magnitude = _int(s["max_magnitude"], "max_magnitude", 1, MAX_WOUNDS)
    if trial.is_horde and trial.max_magnitude == 0:
        trial.magnitude = trial.max_magnitude = 30
    if trial.is_horde and trial.magnitude > trial.max_magnitude:
        raise InvalidOrderError(f"`magnitude` ({trial.magnitude}) cannot be above `max_magnitude` ({trial.max_magnitude}).")
    if "squads" in s:
        trial.squads = _int(s["squads"], "squads", 1, 100)
    if "ap" in s:
        value = _int(s["ap"], "ap", 0, 100)
        trial.armour = dict.fromkeys(LOCATIONS, value)
    if "armour" in s:
        armour = s["armour"]
        if not isinstance(armour, dict):
            raise InvalidOrderError("`armour` must map locations (head, body, r_arm, l_arm, r_leg, l_leg) to AP.")
        for loc, value in armour.items():
            if loc not in LOCATIONS:
                raise InvalidOrderError(f"`armour.{loc}` is not a location; use {', '.join(LOCATIONS)}.")
            trial.armour[loc] = _int(value, f"armour.{loc}", 0, 100)
    if "flyer" in s:
        trial.flyer = _int(s["flyer"], "flyer", 0, 100)
    if "hoverer" in s:
        trial.hoverer = _int(s["hoverer"], "hoverer", 0, 100)
    if "altitude" in s:
        trial.altitude = _int(s["altitude"], "altitude", -1, 100)
        if trial.altitude > 0 and not trial.flyer:
            raise InvalidOrderError("Only a unit with the Flyer trait can have an altitude above 0; set `flyer` first.")
    for flag, attr in (("aquatic", "aquatic"), ("amphibious", "amphibious"),
                       ("supreme_commander", "supreme_commander"), ("anti_fog", "anti_fog")):
        if flag in s:
            setattr(trial, attr, _bool(s[flag], flag))
    if "mp" in s:
        trial.movement_points = _int(s["mp"], "mp", 0, 100)
    if "skills" in s:
        skills = s["skills"]
        if not isinstance(skills, dict):
            raise InvalidOrderError("`skills` must map skill names to their test values, like `dodge = 45`.")
        trial.skills = {str(k).lower(): _int(v, f"skills.{k}", 0, MAX_CHAR) for k, v in skills.items()}
    if "weapons" in s:
        weapons = s["weapons"]
        if not isinstance(weapons, list) or len(weapons) > MAX_WEAPONS:
            raise InvalidOrderError(f"`weapons` must be a list of at most {MAX_WEAPONS} weapon tables.")
        trial.weapons = [parse_weapon(w, f"weapon #{i + 1}") for i, w in enumerate(weapons)]
        names = [w.name.lower() for w in trial.weapons]
        if len(set(names)) != len(names):
            raise InvalidOrderError("Two weapons have the same name; give each weapon its own name.")
    if "statuses" in s:
        statuses = s["statuses"]
        if not isinstance(statuses, list):
            raise InvalidOrderError("`statuses` must be a list.")
        trial.statuses = [_choice(x, "status", STATUSES) for x in statuses]
    if "notes" in s:
        trial.notes = str(s["notes"])[:500]
    for f in ("name", "side", "x", "y", "owner"):
        setattr(trial, f, getattr(unit, f))
    for key, value in trial.to_dict().items():
        if key == "weapons":
            unit.weapons = list(trial.weapons)
        else:
            setattr(unit, key, value)
