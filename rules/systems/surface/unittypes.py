"""Surface Combat unit types (A64 ratings), read from the system's own data file and validated."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from rules.errors import InvalidOrderError, RulesetError, shorten

RATINGS = ("iv", "accuracy", "evade", "attack_strength", "armor", "capacity", "morale", "rally", "tpv")
FLAGS = ("space_marine", "mobile_infantry", "powered_armor", "armor", "battleoid")
CATEGORIES = ("grunt", "special-forces", "rebel", "partisan")
REGULAR = ("grunt", "special-forces")  # 002 step 5B: "Each fleeing regular unit (Grunt or Special Forces)"
SOURCE = "surface.toml"
# The designer's numbers are relative and single digits; 99 leaves room and bounds the hits of one shot.
RATING_MAX = 99


@dataclass(frozen=True, slots=True)
class UnitType:
    """A kind of ground force with its default ratings and flags."""

    key: str
    name: str
    category: str
    ratings: dict[str, int]
    flags: tuple[str, ...]


def parse_unit_type(row: dict[str, Any], where: str) -> UnitType:
    """Validate one `[[unit_type]]` table."""
    key = row.get("key")
    if not isinstance(key, str) or not key:
        raise RulesetError(f"{where}: `key` must be a name")
    where = f"{where} `{key}`"
    category = row.get("category")
    if category not in CATEGORIES:
        raise RulesetError(f"{where}: `category` must be one of {', '.join(CATEGORIES)}")
    raw = row.get("ratings")
    if not isinstance(raw, dict) or set(raw) != set(RATINGS):
        raise RulesetError(f"{where}: `ratings` must give exactly {', '.join(RATINGS)}")
    ratings = {k: int(raw[k]) for k in RATINGS}
    flags = tuple(row.get("flags", ()))
    bad = [f for f in flags if f not in FLAGS]
    if bad:
        raise RulesetError(f"{where}: unknown flag {bad[0]}; flags are {', '.join(FLAGS)}")
    try:
        check_ratings(ratings, where)
    except InvalidOrderError as exc:
        raise RulesetError(str(exc)) from None
    return UnitType(key, str(row.get("name", key)), str(category), ratings, flags)


def check_ratings(ratings: dict[str, int], where: str) -> None:
    """Refuse ratings the round sequence cannot use: negative, no capacity, or nothing to weigh a hit by."""
    for k, v in ratings.items():
        if not 0 <= v <= RATING_MAX:
            raise InvalidOrderError(f"{where}: `{k}` is {v}; ratings are 0 to {RATING_MAX}.")
    if ratings["capacity"] < 1:
        raise InvalidOrderError(f"{where}: `capacity` is {ratings['capacity']}; a unit needs at least 1 Damage Capacity.")
    if ratings["tpv"] < 1:
        raise InvalidOrderError(f"{where}: `tpv` is {ratings['tpv']}; every unit needs at least 1 ball in the target lottery.")
    if ratings["attack_strength"] + ratings["armor"] < 1:
        raise InvalidOrderError(
            f"{where}: `attack_strength` and `armor` are both 0, and A63 divides by their sum; make one at least 1."
        )


@cache
def unit_types() -> dict[str, UnitType]:
    """Return every unit type of the data file, by key."""
    text = resources.files("rules.systems.surface").joinpath("data", SOURCE).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    out: dict[str, UnitType] = {}
    for i, row in enumerate(data.get("unit_type", [])):
        t = parse_unit_type(row, f"{SOURCE} unit_type #{i + 1}")
        if t.key in out:
            raise RulesetError(f"{SOURCE}: unit type `{t.key}` defined twice")
        out[t.key] = t
    return out


def unit_type(key: str) -> UnitType:
    """Return a unit type by key, or say which exist."""
    found = unit_types().get(key.strip().lower())
    if found is None:
        raise RulesetError(f"There is no unit type `{shorten(key)}`. Use one of: {', '.join(unit_types())}.")
    return found
