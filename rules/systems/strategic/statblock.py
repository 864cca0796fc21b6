"""Stat blocks: validate the fields a GM gives a unit and write them onto it."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from rules.dice import parse_dice
from rules.errors import InvalidOrderError
from rules.statfile import FieldPath, check_distinct_names, field_label
from rules.statfile import StatError as StatError
from rules.systems.strategic.units import (
    CHARACTERISTIC_NAMES,
    CHARACTERISTICS,
    DAMAGE_TYPES,
    KIND_ALIASES,
    LOCATIONS,
    RANGE_UNITS,
    UNIT_CLASSES,
    Unit,
    Weapon,
)

MAX_CHAR = 200
MAX_WOUNDS = 10_000
MAX_WEAPONS = 20
MAX_SKILLS = 60
MAX_QUALITIES = 20
MAX_UNNATURAL = 10
STATUSES = (
    "pinned", "stunned", "prone", "on_fire", "immobilised", "hidden", "sunk", "routing", "aiming", "defending",
    "bakelite",  # caught by a Bakelite Trap: WS and Agility penalty until a Strength test (000:L107)
)

STAT_FIELDS = (
    *CHARACTERISTICS, "kind", "class", "wounds", "max_wounds", "magnitude", "max_magnitude", "squads", "ap",
    "armour", "unnatural", "flyer", "hoverer", "aquatic", "amphibious", "altitude", "mp", "skills", "weapons",
    "statuses", "supreme_commander", "anti_fog", "notes",
)
WEAPON_FIELDS = (
    "name", "damage", "pen", "type", "dtype", "range", "range_unit", "melee", "reach", "blast", "cone", "line",
    "ats", "tearing", "indirect", "qualities",
)
DEFAULT_HORDE_MAGNITUDE = 30
# Possessive quantifiers: the spaces after a name belong to the name (stripped later), never shared with the
# whitespace after it, so a long run of spaces is read once instead of in every split.
_QUALITY_RE = re.compile(r"^\s*+([A-Za-z][A-Za-z' -]*+)\s*+(?:\(\s*+(\d++)\s*+\))?+\s*+$")


def _int(value: Any, path: FieldPath, lo: int, hi: int) -> int:
    label = field_label(path)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise StatError(path, f"`{label}` must be a whole number from {lo} to {hi}.")
    try:
        number = int(value)
    except ValueError:
        raise StatError(path, f"`{label}` must be a whole number from {lo} to {hi}, not `{value}`.") from None
    if not lo <= number <= hi:
        raise StatError(path, f"`{label}` must be from {lo} to {hi}; {number} is impossible.")
    return number


def _bool(value: Any, path: FieldPath) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "yes", "false", "no"):
        return value.lower() in ("true", "yes")
    raise StatError(path, f"`{field_label(path)}` must be true or false, not `{value}`.")


def _choice(value: Any, path: FieldPath, options: Iterable[str], aliases: dict[str, str] | None = None) -> str:
    opts = tuple(options)
    text = " ".join(str(value).strip().lower().replace("_", " ").split())
    text = (aliases or {}).get(text, text).replace(" ", "_")
    if text not in opts:
        raise StatError(path, f"`{field_label(path)}` must be one of {', '.join(opts)}; `{value}` is not.")
    return text


def _table(value: Any, path: FieldPath, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise StatError(path, f"`{field_label(path)}` must be a table of {what}.")
    return value


def _qualities(raw: Any, path: FieldPath, fields: dict[str, Any]) -> tuple[str, ...]:
    """Read quality words; Blast(N), Cone, Line(N), ATS(N), Tearing and Indirect fill their own fields."""
    if not isinstance(raw, list) or not all(isinstance(q, str) for q in raw):
        raise StatError(path, f"`{field_label(path)}` must be a list of words, like [\"Blast(4)\", \"Tearing\"].")
    if len(raw) > MAX_QUALITIES:
        raise StatError(path, f"`{field_label(path)}` lists {len(raw)} qualities; keep it to {MAX_QUALITIES}.")
    others: list[str] = []
    for word in raw:
        m = _QUALITY_RE.match(word) if len(word) <= 40 else None
        if not m:
            raise StatError(path, f"`{word}` is not a quality; write a word with an optional number, like `Blast(4)`.")
        name, number = m.group(1).strip().lower(), m.group(2)
        if name in ("blast", "ats") and number is None:
            raise StatError(path, f"`{word}` needs its size, like `{m.group(1).strip()}(3)`.")
        if name in ("blast", "line", "ats"):
            fields[name] = int(number) if number is not None else -1  # Line alone: as long as the range
        elif name in ("cone", "tearing", "indirect"):
            fields[name] = True
        else:
            others.append(word.strip())
    return tuple(others)


def parse_weapon(data: Any, index: int = 0) -> Weapon:
    """Validate one weapon profile (index counts from 0 and names the weapon in errors)."""
    path: FieldPath = ("weapons", index)
    if not isinstance(data, dict):
        raise StatError(path, f"`{field_label(path)}` must be a table of fields (name, damage, pen, range...).")
    unknown = sorted(set(data) - set(WEAPON_FIELDS))
    if unknown:
        raise StatError((*path, unknown[0]), f"`{unknown[0]}` is not a weapon field. Fields: {', '.join(WEAPON_FIELDS)}.")
    name = str(data.get("name", "")).strip()
    if not name or len(name) > 64:
        raise StatError((*path, "name"), f"`{field_label(path)}` needs a `name` of 1 to 64 characters.")
    damage = str(data.get("damage", "1d10")).strip()
    dtype_given = data.get("type", data.get("dtype"))
    dice_part = damage[:-1].rstrip()
    if damage[-1:].upper() in ("E", "I", "R", "X") and dice_part and "\n" not in dice_part:
        # "1d10+6X" writes the damage type after the dice, as the seeds do.
        damage, suffix = dice_part, damage[-1].upper()
        if dtype_given is not None and str(dtype_given).upper() != suffix:
            raise StatError((*path, "type"), f"{name}: `damage` says type {suffix} but `type` says {dtype_given}.")
        dtype_given = suffix
    try:
        parse_dice(damage)
    except InvalidOrderError as exc:
        raise StatError((*path, "damage"), f"{name}: `damage` {exc.message}") from None
    dtype = str(dtype_given if dtype_given is not None else "I").upper()
    if dtype not in DAMAGE_TYPES:
        key = "type" if "type" in data else "dtype"
        raise StatError((*path, key), f"{name}: `type` must be E, I, R or X (Energy, Impact, Rending, Explosive).")
    melee = _bool(data.get("melee", False), (*path, "melee"))
    rng = _int(data.get("range", 0), (*path, "range"), 0, 100_000)
    if not melee and rng == 0:
        raise StatError((*path, "range"), f"{name}: a ranged weapon needs a `range` above 0 (or `melee = true`).")
    from_words: dict[str, Any] = {}
    others = _qualities(data.get("qualities", []), (*path, "qualities"), from_words)
    fields: dict[str, Any] = {}
    for key, lo, hi in (("blast", 0, 50), ("line", 0, 200), ("ats", 0, 200)):
        value = _int(data.get(key, 0), (*path, key), lo, hi)
        if key in from_words and value and from_words[key] != value:
            raise StatError((*path, key), f"{name}: `{key} = {value}` disagrees with the quality list.")
        fields[key] = value or from_words.get(key, 0)
    if fields["line"] == -1:
        fields["line"] = rng
    for key in ("cone", "tearing", "indirect"):
        fields[key] = _bool(data.get(key, False), (*path, key)) or bool(from_words.get(key, False))
    shapes = [k for k in ("blast", "cone", "line") if fields[k]]
    if len(shapes) > 1:
        raise StatError((*path, shapes[1]), f"{name}: a weapon is Blast, Cone or Line, not {' and '.join(shapes)}.")
    return Weapon(
        name=name, damage=damage, pen=_int(data.get("pen", 0), (*path, "pen"), 0, 100), dtype=dtype,
        range=rng, range_unit=_choice(data.get("range_unit", "dm"), (*path, "range_unit"), RANGE_UNITS),
        melee=melee, reach=_int(data.get("reach", 1), (*path, "reach"), 0, 20),
        blast=fields["blast"], cone=fields["cone"], line=fields["line"], ats=fields["ats"],
        tearing=fields["tearing"], indirect=fields["indirect"], qualities=others,
    )


def _kind_fields(trial: Unit, s: dict[str, Any]) -> None:
    """Refuse fields that belong to the other kind: Hordes have Magnitude, characters have wounds."""
    if trial.is_horde:
        for key in ("wounds", "max_wounds"):
            if key in s:
                raise StatError((key,), f"A Horde has `magnitude`, not `{key}`; write `magnitude = {s[key]}`.")
        return
    for key in ("magnitude", "max_magnitude", "squads", "mp"):
        if key in s:
            raise StatError((key,), f"`{key}` is a Horde stat; set `kind = \"horde\"` or leave it out.")


def _pools(trial: Unit, s: dict[str, Any], partial: bool) -> None:
    if "wounds" in s:
        trial.wounds = _int(s["wounds"], ("wounds",), 0, MAX_WOUNDS)
        if "max_wounds" not in s and (not partial or trial.wounds > trial.max_wounds):
            trial.max_wounds = max(trial.wounds, 1)
    if "max_wounds" in s:
        trial.max_wounds = _int(s["max_wounds"], ("max_wounds",), 1, MAX_WOUNDS)
    if trial.wounds > trial.max_wounds:
        raise StatError(("wounds",), f"`wounds` ({trial.wounds}) cannot be above `max_wounds` ({trial.max_wounds}).")
    if "magnitude" in s:
        trial.magnitude = _int(s["magnitude"], ("magnitude",), 0, MAX_WOUNDS)
        if "max_magnitude" not in s and (not partial or trial.magnitude > trial.max_magnitude):
            trial.max_magnitude = max(trial.magnitude, 1)
    if "max_magnitude" in s:
        trial.max_magnitude = _int(s["max_magnitude"], ("max_magnitude",), 1, MAX_WOUNDS)
    if trial.is_horde and trial.max_magnitude == 0:
        trial.magnitude = trial.max_magnitude = DEFAULT_HORDE_MAGNITUDE
    if trial.is_horde and trial.magnitude > trial.max_magnitude:
        raise StatError(
            ("magnitude",), f"`magnitude` ({trial.magnitude}) cannot be above `max_magnitude` ({trial.max_magnitude})."
        )
    if "squads" in s:
        trial.squads = _int(s["squads"], ("squads",), 1, 100)
    if "mp" in s:
        trial.movement_points = _int(s["mp"], ("mp",), 0, 100)


def _armour(trial: Unit, s: dict[str, Any]) -> None:
    if "ap" in s:
        trial.armour = dict.fromkeys(LOCATIONS, _int(s["ap"], ("ap",), 0, 100))
    if "armour" in s:
        armour = _table(s["armour"], ("armour",), "locations (head, body, r_arm, l_arm, r_leg, l_leg) and their AP")
        for loc, value in armour.items():
            if loc not in LOCATIONS:
                raise StatError(("armour", loc), f"`armour.{loc}` is not a location; use {', '.join(LOCATIONS)}.")
            trial.armour[loc] = _int(value, ("armour", loc), 0, 100)


def _traits(trial: Unit, s: dict[str, Any]) -> None:
    for c in CHARACTERISTICS:
        if c in s:
            trial.chars[c] = _int(s[c], (c,), 0, MAX_CHAR)
    if "unnatural" in s:
        table = _table(s["unnatural"], ("unnatural",), "characteristics and their bonus multipliers, like `s = 2`")
        unnatural: dict[str, int] = {}
        for char, value in table.items():
            if char not in CHARACTERISTICS:
                raise StatError(("unnatural", char), f"`unnatural.{char}` is not a characteristic; use {', '.join(CHARACTERISTICS)}.")
            factor = _int(value, ("unnatural", char), 1, MAX_UNNATURAL)
            if factor > 1:
                unnatural[char] = factor
        trial.unnatural = unnatural
    if "flyer" in s:
        trial.flyer = _int(s["flyer"], ("flyer",), 0, 100)
    if "hoverer" in s:
        trial.hoverer = _int(s["hoverer"], ("hoverer",), 0, 100)
    if "altitude" in s:
        trial.altitude = _int(s["altitude"], ("altitude",), -1, 100)
    if trial.altitude > 0 and not trial.flyer:
        raise StatError(("altitude",), "Only a unit with the Flyer trait can fly above the ground; set `flyer` first.")
    for flag, attr in (("aquatic", "aquatic"), ("amphibious", "amphibious"),
                       ("supreme_commander", "supreme_commander"), ("anti_fog", "anti_fog")):
        if flag in s:
            setattr(trial, attr, _bool(s[flag], (flag,)))


def _skills(trial: Unit, s: dict[str, Any]) -> None:
    skills = _table(s["skills"], ("skills",), "skill names and their test values, like `dodge = 45`")
    if len(skills) > MAX_SKILLS:
        raise StatError(("skills",), f"A unit has at most {MAX_SKILLS} skills.")
    out: dict[str, int] = {}
    for key, value in skills.items():
        name = "_".join(str(key).strip().lower().split())
        if not name or len(name) > 40:
            raise StatError(("skills", str(key)), "A skill name has 1 to 40 characters.")
        if name in CHARACTERISTICS:
            raise StatError(("skills", str(key)), f"`{key}` is a characteristic ({CHARACTERISTIC_NAMES[name]}), not a skill.")
        out[name] = _int(value, ("skills", str(key)), 0, MAX_CHAR)
    trial.skills = out


def _weapons(trial: Unit, s: dict[str, Any]) -> None:
    weapons = s["weapons"]
    if not isinstance(weapons, list) or len(weapons) > MAX_WEAPONS:
        raise StatError(("weapons",), f"`weapons` must be a list of at most {MAX_WEAPONS} weapon tables.")
    parsed = [parse_weapon(w, i) for i, w in enumerate(weapons)]
    check_distinct_names([w.name for w in parsed], "weapons")
    trial.weapons = parsed


def _statuses(trial: Unit, s: dict[str, Any]) -> None:
    statuses = s["statuses"]
    if not isinstance(statuses, list):
        raise StatError(("statuses",), f"`statuses` must be a list of words from: {', '.join(STATUSES)}.")
    out: list[str] = []
    for i, x in enumerate(statuses):
        status = _choice(x, ("statuses", i), STATUSES)
        if status not in out:
            out.append(status)
    trial.statuses = out


def apply_stats(unit: Unit, stats: dict[str, Any], kinds: Iterable[str], partial: bool = False) -> None:
    """Validate stat fields and write them onto the unit; nothing is written if any field is wrong."""
    unknown = sorted(k for k in stats if k not in STAT_FIELDS)
    if unknown:
        raise StatError((unknown[0],), f"`{unknown[0]}` is not a stat. Stats are: {', '.join(STAT_FIELDS)}.")
    trial = Unit.from_dict(unit.to_dict())
    s = stats
    if "kind" in s:
        try:
            trial.kind = _choice(s["kind"], ("kind",), tuple(kinds), KIND_ALIASES)
        except StatError as exc:
            raise StatError(exc.path, f"{exc.message} An Independent Character or E-Scale unit is `ic`.") from None
    if "class" in s:
        trial.unit_class = _choice(s["class"], ("class",), UNIT_CLASSES)
    _kind_fields(trial, s)
    _traits(trial, s)
    _pools(trial, s, partial)
    _armour(trial, s)
    if "skills" in s:
        _skills(trial, s)
    if "weapons" in s:
        _weapons(trial, s)
    if "statuses" in s:
        _statuses(trial, s)
    if "notes" in s:
        trial.notes = str(s["notes"])[:500]
    for f in ("name", "side", "x", "y", "owner"):
        setattr(trial, f, getattr(unit, f))
    for key, value in trial.to_dict().items():
        if key == "weapons":
            unit.weapons = list(trial.weapons)
        else:
            setattr(unit, key, value)
