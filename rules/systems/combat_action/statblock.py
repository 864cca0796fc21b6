"""Stat blocks: validate a Combat Action stat block (TOML or /unit add fields) into a unit's fields."""

from __future__ import annotations

from typing import Any

from rules.coords import Cell
from rules.statfile import FieldPath, StatError, UnitSpec, check_distinct_names, field_label
from rules.statfile import parse_unit_file as read_file
from rules.systems.combat_action.tables import tables
from rules.systems.combat_action.units import ALTITUDES, AREAS, CONTROLS, HATCHES, KINDS, SIZES, Unit, Weapon

NUMBERS = {"ss": (1, 12), "pf": (0, 40), "mv": (0, 500), "discipline": (1, 12), "crew": (0, 50),
           "capacity": (0, 50)}
WEAPON_FIELDS = ("name", "class", "pen", "area", "max_band", "ammo", "jammed", "disabled")
STATUSES = ("pinned", "routing", "flat_down", "hidden", "halted", "aimed", "hatch_jammed", "comms_down",
            "emergency_landing")
COMPASS = {"n": 0, "ne": 45, "e": 90, "se": 135, "s": 180, "sw": 225, "w": 270, "nw": 315}
MAX_WEAPONS = 8
FIELDS = ("kind", "squad", "size", "flying", "altitude", "control", "locations", "weapons", "statuses", "facing",
          "material", "inside", "hatch", *NUMBERS)


def _fail(path: FieldPath, what: str) -> StatError:
    return StatError(path, f"`{field_label(path)}` {what}")


def _number(value: Any, path: FieldPath, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise _fail(path, f"must be a whole number from {low} to {high}.")
    try:
        number = int(value)
    except ValueError:
        raise _fail(path, f"must be a whole number from {low} to {high}, not `{value}`.") from None
    if number < 0 and path[-1] == "pf":
        raise _fail(path, f"cannot be negative (`{number}`); PF is 0 or more.")
    if not low <= number <= high:
        raise _fail(path, f"must be from {low} to {high}, not {number}.")
    return number


def _choice(value: Any, path: FieldPath, allowed: tuple[str, ...]) -> str:
    text = str(value).strip().lower().replace(" ", "_").replace("-", "_")
    if text not in allowed:
        raise _fail(path, f"is `{value}`; use one of {', '.join(a or '(none)' for a in allowed)}.")
    return text


def _bool(value: Any, path: FieldPath) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text not in ("true", "false"):
        raise _fail(path, f"is true or false, not `{value}`.")
    return text == "true"


def _list(value: Any, path: FieldPath, what: str) -> list[Any]:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]  # `pinned, flat_down`, as typed
    if not isinstance(value, list):
        raise _fail(path, f"must be a list of {what}.")
    return value


def parse_weapon(data: Any, index: int) -> Weapon:
    """Validate one weapon: name, class (Pistol ... Starcraft), Pen, area kind, maximum band, load and jam."""
    path: FieldPath = ("weapons", index)
    if not isinstance(data, dict) or not str(data.get("name", "")).strip():
        raise _fail(path, "must be a table with at least `name` and `class`.")
    for key in data:
        if key not in WEAPON_FIELDS:
            raise _fail((*path, key), f"is not a weapon field; use {', '.join(WEAPON_FIELDS)}.")
    wclass = _choice(data.get("class", ""), (*path, "class"), tuple(tables().weapon_classes))
    bands = [b.key for b in tables().bands]
    max_band = str(data.get("max_band", "")).upper()
    if max_band and max_band not in bands:
        raise _fail((*path, "max_band"), f"is `{max_band}`; use one of {', '.join(bands)}.")
    area = _choice(data.get("area", ""), (*path, "area"), AREAS)
    if wclass == "grenades" and not area:
        area = "grenade"
    return Weapon(name=str(data["name"]).strip()[:64], wclass=wclass, pen=_number(data.get("pen", 0), (*path, "pen"), 0, 20),
                  area=area, max_band=max_band, ammo=_number(data.get("ammo", 0), (*path, "ammo"), 0, 100),
                  jammed=_bool(data.get("jammed", False), (*path, "jammed")),
                  disabled=_bool(data.get("disabled", False), (*path, "disabled")))


def _facing(value: Any) -> int:
    if isinstance(value, str) and value.strip().lower() in COMPASS:
        return COMPASS[value.strip().lower()]
    if isinstance(value, str) and not value.strip().lstrip("-").isdigit():
        raise _fail(("facing",), f"is `{value}`; use degrees clockwise from north (0-359) or N, NE, E, SE, S, SW, W, NW.")
    return _number(value, ("facing",), 0, 359)


def _weapons(unit: Unit, raw: Any) -> None:
    weapons = _list(raw, ("weapons",), "weapon tables")
    if len(weapons) > MAX_WEAPONS:
        raise _fail(("weapons",), f"holds {len(weapons)} weapons; a unit carries at most {MAX_WEAPONS}.")
    parsed = [parse_weapon(w, i) for i, w in enumerate(weapons)]
    check_distinct_names([w.name for w in parsed], "weapons")
    unit.weapons = parsed


def _machine_fields(unit: Unit, stats: dict[str, Any], partial: bool) -> None:
    if "control" in stats:
        unit.control = _choice(stats["control"], ("control",), CONTROLS)
    if unit.kind == "robot" and not unit.control:
        unit.control = "autonomous"
    if "locations" in stats:
        rows = tuple(r.key for r in tables().locations)
        unit.locations = [_choice(x, ("locations", i), rows)
                          for i, x in enumerate(_list(stats["locations"], ("locations",), ", ".join(rows)))]
    elif not partial and unit.machine:
        unit.locations = [r.key for r in tables().locations if r.key != "hold" or unit.kind == "vehicle"]
    if unit.machine and not unit.locations and not partial:
        raise _fail(("locations",), "is empty; a machine needs at least one location.")
    if "hatch" in stats:
        unit.hatch = _choice(stats["hatch"], ("hatch",), HATCHES[:2])
    if unit.capacity and "hold" not in unit.locations:
        raise _fail(("capacity",), f"is {unit.capacity}, but {unit.name} has no hold to carry models in; "
                                   "add `hold` to its locations or leave capacity out.")
    if "material" in stats:
        materials = tuple(tables().obstacle_pf)
        unit.material = _choice(stats["material"], ("material",), ("", *materials))


def apply_stats(unit: Unit, stats: dict[str, Any], partial: bool = False) -> None:
    """Set a unit's stat block from validated fields; unknown fields and bad values are refused by name.

    `inside` (the vehicle a model starts in) names another unit, so the battle resolves it; here it is
    only checked to be text.
    """
    for key in stats:
        if key not in FIELDS:
            raise _fail((key,), f"is not a Combat Action stat; use {', '.join(sorted(FIELDS))}.")
    if "kind" in stats:
        unit.kind = _choice(stats["kind"], ("kind",), KINDS)
    elif not partial and unit.kind not in KINDS:
        raise _fail(("kind",), f"is missing; use one of {', '.join(KINDS)}.")
    for key, (low, high) in NUMBERS.items():
        if key in stats:
            setattr(unit, key, _number(stats[key], (key,), low, high))
    if "squad" in stats:
        unit.squad = str(stats["squad"]).strip()[:64]
    if "size" in stats:
        unit.size = _choice(stats["size"], ("size",), SIZES)
    elif not partial and (unit.machine or unit.building):
        unit.size = "very_large" if unit.building else "large"
    if "flying" in stats:
        unit.flying = _bool(stats["flying"], ("flying",))
    if "altitude" in stats:
        unit.altitude = _choice(stats["altitude"], ("altitude",), ALTITUDES)
    if unit.flying and not unit.altitude:
        unit.altitude = "low"
    if unit.flying and not unit.machine:
        raise _fail(("flying",), "is for vehicles and robots; models and buildings stay on the ground.")
    if "facing" in stats:
        unit.facing = _facing(stats["facing"])
    if "weapons" in stats:
        _weapons(unit, stats["weapons"])
    if "statuses" in stats:
        unit.statuses = [_choice(s, ("statuses", i), STATUSES)
                         for i, s in enumerate(_list(stats["statuses"], ("statuses",), ", ".join(STATUSES)))]
    if "inside" in stats and not isinstance(stats["inside"], str):
        raise _fail(("inside",), "is the name of the vehicle the model starts in, in quotes.")
    _machine_fields(unit, stats, partial)


def check_spec(name: str, side: str, at: Cell, stats: dict[str, Any]) -> None:
    """Check one unit of a stat-block file on a scratch unit."""
    apply_stats(Unit(name=name, side=side, x=at.x, y=at.y), dict(stats))


def parse_statblock_file(text: str) -> list[UnitSpec]:
    """Read a Combat Action stat-block file; any error names its line and field, and nothing is returned unless all are valid."""
    return read_file(text, check_spec)
