"""Stat-block files: TOML with one [[unit]] table per unit, checked whole before any unit is imported.

The file's shape (placement fields, tables, where each field was written) is the same for every rule
system; each system passes the check that validates one unit's stats and raises `StatError` with the
field's path, so an error names the file line it came from.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from rules.coords import Cell
from rules.errors import IllegalOrderError, InvalidOrderError, shorten
from rules.filelimits import Limits, load_toml
from rules.units import check_name

MAX_TEXT = 200_000
# A stat block nests at most a list of weapon tables with a list of qualities in each.
STATBLOCK_LIMITS = Limits("a stat-block file", max_bytes=256 * 1024, max_depth=6, max_containers=10_000,
                          max_values=50_000)
MAX_FILE_UNITS = 400
PLACEMENT_FIELDS = ("name", "side", "at", "owner")
_TOML_WHERE_RE = re.compile(r"\(at line (\d+), column (\d+)\)")
# Possessive: the spaces before `]` stay in the name (removed when it is read) rather than being shared with
# the whitespace after it, so a long header line is read once.
_HEADER_RE = re.compile(r"^\s*+\[\[?+\s*+([A-Za-z0-9_.\"' -]*+)\s*+\]\]?+\s*+(#.*)?$")

FieldPath = tuple[str | int, ...]


class StatError(InvalidOrderError):
    """A stat block field is wrong; `path` names it, like ("weapons", 1, "pen") for the second weapon's pen."""

    def __init__(self, path: FieldPath, message: str) -> None:
        super().__init__(message)
        self.path = path


class PlacementError(IllegalOrderError):
    """A unit may not stand where it is placed; `path` names the field that put it there (`at`).

    A rule system's add-unit handler raises it, so a stat-block import points at the file's line.
    """

    def __init__(self, message: str, path: FieldPath = ("at",), *, cells: Iterable[str] = ()) -> None:
        super().__init__(message, cells=cells)
        self.path = path


def field_label(path: FieldPath) -> str:
    """Return a field path as a player writes it: `weapons[2].pen` (weapons counted from 1)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part + 1}]"
        else:
            out += f".{part}" if out else part
    return out


@dataclass(frozen=True)
class UnitSpec:
    """One unit read from a stat-block file: where it goes, who commands it, and its system's stats."""

    name: str
    side: str
    at: Cell
    owner: str | None
    stats: dict[str, Any]
    line: int


class _Lines:
    """Find the line a field was written on, so an error can point at it."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.units: list[int] = []  # index of each [[unit]] header line
        self.blocks: list[dict[str, Any]] = []
        for i, line in enumerate(self.lines):
            m = _HEADER_RE.match(line)
            if not m:
                continue
            name = m.group(1).replace(" ", "").replace('"', "").replace("'", "")
            if name == "unit":
                self.units.append(i)
                self.blocks.append({"weapons": []})
            elif name.startswith("unit.") and self.blocks:
                sub = name[5:]
                if sub == "weapons":
                    self.blocks[-1]["weapons"].append(i)
                else:
                    self.blocks[-1].setdefault(sub, i)

    def _end(self, unit: int) -> int:
        return self.units[unit + 1] if unit + 1 < len(self.units) else len(self.lines)

    def _key(self, key: str, start: int, stop: int) -> int | None:
        pattern = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')\s*[=.]")
        for i in range(start, stop):
            if _HEADER_RE.match(self.lines[i]) and i != start:
                return None  # the key would belong to the next table
            if pattern.match(self.lines[i]):
                return i
        return None

    def _search(self, word: str, start: int, stop: int) -> int | None:
        pattern = re.compile(rf"(?:^|[\s{{,]){re.escape(word)}\s*=")
        return next((i for i in range(start, stop) if pattern.search(self.lines[i])), None)

    def find(self, unit: int, path: FieldPath) -> int:
        """Return the 1-based line of a field of the n-th unit (its header line when the field is not written)."""
        if unit >= len(self.units):
            return 1
        start, stop = self.units[unit], self._end(unit)
        block = self.blocks[unit]
        found: int | None = None
        head = str(path[0]) if path else ""
        if head == "weapons" and len(path) >= 2 and isinstance(path[1], int):
            found = self._weapon(block, path, start, stop)
        elif head != "weapons" and len(path) >= 2 and head in block:
            found = self._key(str(path[1]), block[head], stop) or block[head]
        if found is None and head:
            found = self._key(head, start, stop)
        if found is None and head in block and not isinstance(block[head], list):
            found = block[head]
        return (found if found is not None else start) + 1

    def _weapon(self, block: dict[str, Any], path: FieldPath, start: int, stop: int) -> int | None:
        index = int(path[1])
        field = str(path[2]) if len(path) > 2 else None
        headers: list[int] = block["weapons"]
        if index < len(headers):
            w_start = headers[index]
            w_stop = headers[index + 1] if index + 1 < len(headers) else stop
            return (self._key(field, w_start, w_stop) if field else None) or w_start
        # Weapons written inline: `weapons = [ { name = ... }, ... ]`, one table after another.
        opened = self._key("weapons", start, stop)
        if opened is None:
            return None
        names = [i for i in range(opened, stop) if re.search(r"(?:^|[\s{,])name\s*=", self.lines[i])]
        if index >= len(names):
            return opened
        w_stop = names[index + 1] if index + 1 < len(names) else stop
        return (self._search(field, names[index], w_stop + 1) if field else None) or names[index]


def _error(lines: _Lines, unit: int, path: FieldPath, message: str, name: str | None = None) -> InvalidOrderError:
    who = f" (unit {shorten(name, 64)})" if name else f" (unit #{unit + 1})"
    return InvalidOrderError(f"Line {lines.find(unit, path)}{who}, field `{field_label(path)}`: {message}")


def _syntax_error(exc: tomllib.TOMLDecodeError) -> InvalidOrderError:
    text = str(exc)
    m = _TOML_WHERE_RE.search(text)
    reason = _TOML_WHERE_RE.sub("", text).strip().rstrip(".")
    if m:
        return InvalidOrderError(f"Line {m.group(1)}, column {m.group(2)}: this is not valid TOML ({reason}).")
    return InvalidOrderError(f"The file is not valid TOML ({reason}).")


def _owner(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise StatError(("owner",), "`owner` is a Discord user name or user id, like \"alice\" or 123456789012345678.")
    text = str(value).strip().lstrip("@")
    if not text or len(text) > 64:
        raise StatError(("owner",), "`owner` is a Discord user name or user id of 1 to 64 characters.")
    return text


def check_distinct_names(names: list[str], table: str) -> None:
    """Refuse a list of tables (a unit's weapons) in which two share a name, naming the second one's field."""
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name.lower() in seen:
            path: FieldPath = (table, i, "name")
            raise StatError(path, f"`{field_label(path)}` `{name}` is used twice; give each of the {table} its own name.")
        seen.add(name.lower())


def _checked_name(value: str, key: str, what: str) -> str:
    try:
        return check_name(value, what)
    except InvalidOrderError as exc:
        raise StatError((key,), exc.message) from None


def _plain(value: Any, path: FieldPath) -> None:
    """Refuse TOML dates and times: a stat block holds only text, numbers, true/false, lists and tables."""
    if isinstance(value, dict):
        for k, v in value.items():
            _plain(v, (*path, str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _plain(v, (*path, i))
    elif not isinstance(value, (str, int, float, bool)):
        raise StatError(path, f"`{field_label(path)}` holds a date or time; write text in quotes or a number.")


# Validates one unit's stats (everything but name, side, at and owner); raises StatError naming the field.
StatCheck = Callable[[str, str, Cell, dict[str, Any]], None]
# Checks the whole file once every unit is read (two units a square may hold only one of...); raises StatError via `SpecError`.
FileCheck = Callable[[list[UnitSpec]], None]


class SpecError(StatError):
    """A unit of the file clashes with another; `index` is the unit's place in the file."""

    def __init__(self, index: int, path: FieldPath, message: str) -> None:
        super().__init__(path, message)
        self.index = index


def _read_unit(raw: Any, index: int, lines: _Lines, check: StatCheck) -> UnitSpec:
    if not isinstance(raw, dict):
        raise InvalidOrderError(f"Line {lines.find(index, ())}: each unit is a [[unit]] table.")
    name_hint = str(raw.get("name")) if isinstance(raw.get("name"), str) else None
    try:
        for key in ("name", "side", "at"):
            if key not in raw:
                raise StatError((key,), f"every unit needs `{key}` (name, side and at are required).")
            if not isinstance(raw[key], str):
                raise StatError((key,), f"`{key}` is text in quotes, like {key} = \"...\".")
        name = _checked_name(raw["name"], "name", "unit name")
        side = _checked_name(raw["side"], "side", "side name")
        try:
            at = Cell.parse(raw["at"])
        except InvalidOrderError as exc:
            raise StatError(("at",), exc.message) from None
        owner = _owner(raw.get("owner"))
        stats = {k: v for k, v in raw.items() if k not in PLACEMENT_FIELDS}
        _plain(stats, ())
        check(name, side, at, stats)
    except StatError as exc:
        raise _error(lines, index, exc.path, exc.message, name_hint) from None
    return UnitSpec(name=name, side=side, at=at, owner=owner, stats=stats, line=lines.find(index, ()))


def parse_unit_file(text: str, check: StatCheck, check_all: FileCheck | None = None) -> list[UnitSpec]:
    """Read a stat-block file; any error names its line and field, and no unit is returned unless all are valid."""
    if len(text) > MAX_TEXT:
        raise InvalidOrderError(f"A stat-block file holds at most {MAX_TEXT} characters; this one has {len(text)}.")
    try:
        data = load_toml(text, STATBLOCK_LIMITS)
    except tomllib.TOMLDecodeError as exc:
        raise _syntax_error(exc) from None
    lines = _Lines(text)
    extra = sorted(k for k in data if k != "unit")
    if extra:
        number = next((i + 1 for i, line in enumerate(lines.lines) if line.strip().startswith(extra[0])), 1)
        raise InvalidOrderError(f"Line {number}: `{extra[0]}` is not part of a stat-block file; write units as [[unit]] tables.")
    units = data.get("unit", [])
    if not isinstance(units, list) or not units:
        raise InvalidOrderError("The file has no units: start each one with a [[unit]] line.")
    if len(units) > MAX_FILE_UNITS:
        raise InvalidOrderError(f"A stat-block file holds at most {MAX_FILE_UNITS} units; this one has {len(units)}.")
    specs = [_read_unit(raw, i, lines, check) for i, raw in enumerate(units)]
    names: dict[str, int] = {}
    for i, spec in enumerate(specs):
        if spec.name.lower() in names:
            first = specs[names[spec.name.lower()]].line
            raise _error(lines, i, ("name",), f"the name {spec.name} is already used by the unit on line {first}.", spec.name)
        names[spec.name.lower()] = i
    if check_all is not None:
        try:
            check_all(specs)
        except SpecError as exc:
            raise _error(lines, exc.index, exc.path, exc.message, specs[exc.index].name) from None
    return specs
