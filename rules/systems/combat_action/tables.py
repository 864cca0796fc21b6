"""The Combat Action screen's tables, read from the ruleset's TOML and validated once."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from rules.errors import RulesetError

RULESET_ID = "combat-action"
SOURCE = f"{RULESET_ID}.toml"


@dataclass(frozen=True, slots=True)
class Band:
    """A range category: its key (PB...), its name and its inclusive upper bound in cm (None: no bound)."""

    key: str
    name: str
    max_cm: int | None


@dataclass(frozen=True, slots=True)
class WeaponClass:
    """A weapon class: its to-hit bonus per range band and its default maximum band (A74)."""

    key: str
    name: str
    bonus: dict[str, int]
    max_band: str


@dataclass(frozen=True, slots=True)
class Location:
    """A row of the vehicle and robot damage table."""

    result: int
    key: str
    name: str
    effect: str


@dataclass(frozen=True)
class Tables:
    """Every table of the Combat Action screen."""

    phases: tuple[str, ...]
    ap_costs: dict[str, tuple[str, int]]
    bands: tuple[Band, ...]
    weapon_classes: dict[str, WeaponClass]
    size: dict[str, int]
    cover: dict[str, int]
    living: dict[int, str]
    building: dict[int, str]
    obstacle_pf: dict[str, int | str]
    ooc_slave: dict[int, str]
    ooc_autonomous: dict[int, str]
    vehicle_direction: dict[int, int]
    altitude: dict[int, int]
    locations: tuple[Location, ...]

    def band(self, key: str) -> Band:
        """Return the range band with this key, or explain which exist."""
        for band in self.bands:
            if band.key == key.upper():
                return band
        raise RulesetError(f"There is no range band `{key}`; use one of {', '.join(b.key for b in self.bands)}.")

    def band_index(self, key: str) -> int:
        """Return the position of a band, nearest first."""
        return self.bands.index(self.band(key))

    def location(self, key: str) -> Location:
        """Return the damage table row of a location."""
        for row in self.locations:
            if row.key == key:
                return row
        raise RulesetError(f"There is no machine location `{key}`; use one of {', '.join(r.key for r in self.locations)}.")


def _fail(where: str, what: str) -> RulesetError:
    return RulesetError(f"{SOURCE} {where}: {what}")


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(where, "must be a whole number")
    return value


def _table(data: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise _fail(f"{where}.{key}", "must be a table")
    return value


def _d6(data: dict[str, Any], where: str, kind: type) -> dict[int, Any]:
    faces = {int(k): v for k, v in data.items()}
    if sorted(faces) != [1, 2, 3, 4, 5, 6]:
        raise _fail(where, "must give a result for each face 1 to 6")
    for face, value in faces.items():
        if not isinstance(value, kind) or isinstance(value, bool):
            raise _fail(f"{where}.{face}", f"must be {kind.__name__}")
    return faces


def parse_tables(doc: dict[str, Any]) -> Tables:
    """Validate the `[combat_action]` tables of the ruleset document and build them."""
    root = _table(doc, "combat_action", "")
    where = "combat_action"
    costs: dict[str, tuple[str, int]] = {}
    for key, row in _table(root, "ap_costs", where).items():
        if not (isinstance(row, list) and len(row) == 2 and isinstance(row[0], str)):
            raise _fail(f"{where}.ap_costs.{key}", "must be [name, AP]")
        costs[key] = (row[0], _int(row[1], f"{where}.ap_costs.{key}"))
    bands = []
    for i, row in enumerate(root.get("range", [])):
        cap = _int(row.get("max_cm"), f"{where}.range #{i + 1}.max_cm")
        bands.append(Band(str(row["key"]), str(row["name"]), None if cap < 0 else cap))
    keys = [b.key for b in bands]
    classes: dict[str, WeaponClass] = {}
    for key, row in _table(root, "weapon_class", where).items():
        at = f"{where}.weapon_class.{key}"
        bonus = {str(k): _int(v, f"{at}.bonus.{k}") for k, v in row.get("bonus", {}).items()}
        for band in [*bonus, row.get("max_band", "")]:
            if band not in keys:
                raise _fail(at, f"`{band}` is not a range band ({', '.join(keys)})")
        classes[key] = WeaponClass(key, str(row["name"]), bonus, str(row["max_band"]))
    damage = _table(root, "damage", where)
    ooc = _table(root, "ooc", where)
    locations = tuple(
        Location(_int(r["result"], f"{where}.location #{i + 1}.result"), str(r["key"]), str(r["name"]), str(r["effect"]))
        for i, r in enumerate(root.get("location", []))
    )
    if [r.result for r in locations] != list(range(locations[0].result, locations[0].result + len(locations))):
        raise _fail(f"{where}.location", "results must run one by one from the first row to the last")
    return Tables(
        phases=tuple(root.get("phases", ())), ap_costs=costs, bands=tuple(bands), weapon_classes=classes,
        size={k: _int(v, f"{where}.size.{k}") for k, v in _table(root, "size", where).items()},
        cover={k: _int(v, f"{where}.cover.{k}") for k, v in _table(root, "cover", where).items()},
        living=_d6(_table(damage, "living", f"{where}.damage"), f"{where}.damage.living", str),
        building=_d6(_table(damage, "building", f"{where}.damage"), f"{where}.damage.building", str),
        obstacle_pf=dict(_table(root, "obstacle_pf", where)),
        ooc_slave=_d6(_table(ooc, "slave", f"{where}.ooc"), f"{where}.ooc.slave", str),
        ooc_autonomous=_d6(_table(ooc, "autonomous", f"{where}.ooc"), f"{where}.ooc.autonomous", str),
        vehicle_direction=_d6(_table(ooc, "vehicle_direction", f"{where}.ooc"), f"{where}.ooc.vehicle_direction", int),
        altitude=_d6(_table(ooc, "altitude", f"{where}.ooc"), f"{where}.ooc.altitude", int),
        locations=locations,
    )


_CACHE: list[Tables] = []


def document() -> dict[str, Any]:
    """Return the parsed ruleset document shipped in this package."""
    path = resources.files("rules.systems.combat_action").joinpath("data").joinpath(SOURCE)
    return tomllib.loads(path.read_text(encoding="utf-8"))


def tables() -> Tables:
    """Return the screen's tables, loaded and validated once."""
    if not _CACHE:
        _CACHE.append(parse_tables(document()))
    return _CACHE[0]
