"""Stat blocks: validate a Combat Action stat block (TOML or /unit add fields) into a unit's fields."""

from __future__ import annotations

from typing import Any

from rules.errors import InvalidOrderError
from rules.systems.combat_action.tables import tables
from rules.systems.combat_action.units import ALTITUDES, AREAS, CONTROLS, KINDS, SIZES, Unit, Weapon

NUMBERS = {"ss": (1, 12), "pf": (0, 40), "mv": (0, 500), "discipline": (1, 12), "crew": (0, 50)}
MAX_WEAPONS = 8


def _fail(where: str, what: str) -> InvalidOrderError:
    return InvalidOrderError(f"Stat block field `{where}` {what}")


def _number(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise _fail(where, f"must be a whole number from {low} to {high}.")
    try:
        number = int(value)
    except ValueError:
        raise _fail(where, f"must be a whole number from {low} to {high}, not `{value}`.") from None
    if number < 0 and where.endswith("pf"):
        raise _fail(where, f"cannot be negative (`{number}`); PF is 0 or more.")
    if not low <= number <= high:
        raise _fail(where, f"must be from {low} to {high}, not {number}.")
    return number


def _choice(value: Any, where: str, allowed: tuple[str, ...]) -> str:
    text = str(value).strip().lower().replace(" ", "_").replace("-", "_")
    if text not in allowed:
        raise _fail(where, f"is `{value}`; use one of {', '.join(a or '(none)' for a in allowed)}.")
    return text


def parse_weapon(data: Any, where: str) -> Weapon:
    """Validate one weapon: name, class (Pistol ... Starcraft), Pen, area kind and maximum band."""
    if not isinstance(data, dict) or not str(data.get("name", "")).strip():
        raise _fail(where, "must be a table with at least `name` and `class`.")
    classes = tables().weapon_classes
    wclass = _choice(data.get("class", ""), f"{where}.class", tuple(classes))
    max_band = str(data.get("max_band", "")).upper()
    if max_band and max_band not in [b.key for b in tables().bands]:
        raise _fail(f"{where}.max_band", f"is `{max_band}`; use one of {', '.join(b.key for b in tables().bands)}.")
    area = _choice(data.get("area", ""), f"{where}.area", AREAS)
    if wclass == "grenades" and not area:
        area = "grenade"
    return Weapon(name=str(data["name"]).strip(), wclass=wclass, pen=_number(data.get("pen", 0), f"{where}.pen", 0, 20),
                  area=area, max_band=max_band)


def apply_stats(unit: Unit, stats: dict[str, Any], partial: bool = False) -> None:
    """Set a unit's stat block from validated fields; unknown fields and bad values are refused by name."""
    known = {"kind", "squad", "size", "flying", "altitude", "control", "locations", "transported", "weapons",
             "statuses", *NUMBERS}
    for key in stats:
        if key not in known:
            raise _fail(key, f"is not a Combat Action stat; use {', '.join(sorted(known))}.")
    if "kind" in stats:
        unit.kind = _choice(stats["kind"], "kind", KINDS)
    elif not partial and unit.kind not in KINDS:
        raise _fail("kind", f"is missing; use one of {', '.join(KINDS)}.")
    for key, (low, high) in NUMBERS.items():
        if key in stats:
            setattr(unit, key, _number(stats[key], key, low, high))
    if "squad" in stats:
        unit.squad = str(stats["squad"]).strip()[:64]
    if "size" in stats:
        unit.size = _choice(stats["size"], "size", SIZES)
    elif not partial and unit.machine:
        unit.size = "large"
    if "flying" in stats:
        unit.flying = bool(stats["flying"])
    if "altitude" in stats:
        unit.altitude = _choice(stats["altitude"], "altitude", ALTITUDES)
    if unit.flying and not unit.altitude:
        unit.altitude = "low"
    if "control" in stats:
        unit.control = _choice(stats["control"], "control", CONTROLS)
    if unit.kind == "robot" and not unit.control:
        unit.control = "autonomous"
    if "locations" in stats:
        rows = [r.key for r in tables().locations]
        raw = stats["locations"]
        if not isinstance(raw, list):
            raise _fail("locations", f"must be a list of {', '.join(rows)}.")
        unit.locations = [_choice(x, "locations", tuple(rows)) for x in raw]
    elif not partial and unit.machine:
        unit.locations = [r.key for r in tables().locations if r.key != "hold" or unit.kind == "vehicle"]
    if "transported" in stats:
        raw = stats["transported"]
        if not isinstance(raw, list):
            raise _fail("transported", "must be a list of model names.")
        unit.transported = [str(x) for x in raw]
    if "weapons" in stats:
        raw = stats["weapons"]
        if not isinstance(raw, list) or len(raw) > MAX_WEAPONS:
            raise _fail("weapons", f"must be a list of at most {MAX_WEAPONS} weapon tables.")
        unit.weapons = [parse_weapon(w, f"weapons[{i + 1}]") for i, w in enumerate(raw)]
    if unit.machine and not unit.locations and not partial:
        raise _fail("locations", "is empty; a machine needs at least one location.")
