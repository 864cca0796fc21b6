"""Homebrew rows: a GM's own terrain and system tables, imported per battle, played like the built-ins.

A homebrew table is TOML with the same `[[terrain]]` tables as a ruleset's data file, plus the tables a
system declares (`System.homebrew_tables`, like `[[feature]]` or `[[action]]`;
docs/homebrew.md). It is read and checked here once, with every refusal naming its line and field; the
battle keeps the checked rows (`Battle.homebrew`) and plays with its ruleset plus these rows, so every rule
that reads a terrain's or a system row's values applies to them unchanged.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rules.errors import InvalidOrderError, RulesetError, shorten
from rules.filelimits import Limits, load_toml
from rules.ruleset import Ruleset, TerrainType, parse_terrain
from rules.stored import Document
from rules.system import HomebrewTable, registered, system_of

if TYPE_CHECKING:
    from rules.board import Board

MAX_BYTES = 256 * 1024
# Homebrew rows are tables of a few plain values: nothing in them nests deeper than a list in a table.
LIMITS = Limits("a homebrew table", max_bytes=MAX_BYTES, max_depth=6, max_containers=10_000, max_values=50_000,
                max_string=2_000)
MAX_ROWS = 100  # per table: more than a GM writes by hand, few enough for menus and the rules listing
KEY_RE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
NAME_MAX = 64
LABEL_MAX = 3  # the map prints a row's label inside a square
TERRAIN_FIELDS = frozenset({"key", "name", "char", "ap", "dtv", "hit_penalty", "hit_bonus", "elevation", "stealth",
                            "flammable", "color", "pattern", "notes"})
# Fields that may not be negative, and why a GM would have written one.
NOT_NEGATIVE = {"ap": "Armour Points", "dtv": "a DTV", "hit_bonus": "a Hit Bonus"}
# A hit penalty is written as the modifier it is, as in the built-in tables (the Trench's -20).
NOT_POSITIVE = {"hit_penalty": "a Hit Penalty is a modifier of 0 or less, like the Trench's -20"}
TABLES = {"terrain": TERRAIN_FIELDS}


class HomebrewError(InvalidOrderError):
    """A homebrew table the battle cannot use; the message names the line and field."""


@dataclass(frozen=True, slots=True)
class Homebrew:
    """The checked rows of a homebrew table, as the battle stores them, and its terrain as the ruleset's type."""

    rows: dict[str, list[Document]]  # stored with the battle (`Battle.homebrew`) as the file wrote them
    terrain: tuple[TerrainType, ...]

    def keys(self, table: str) -> list[str]:
        """Return the keys of one table's rows, as the GM wrote them."""
        return [str(r["key"]) for r in self.rows.get(table, [])]


# --- where a row or field was written -----------------------------------------------


def _headers(lines: list[str], table: str) -> list[int]:
    """Return the 0-based line of each `[[table]]` header, in order."""
    pattern = re.compile(rf"^\s*\[\[\s*{table}\s*\]\]")
    return [i for i, line in enumerate(lines) if pattern.match(line)]


def _field_line(lines: list[str], start: int, key: str) -> int | None:
    """Return the 0-based line where a table row writes a key, looking until the next table header."""
    pattern = re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')\s*=")
    for i in range(start + 1, len(lines)):
        if lines[i].lstrip().startswith("["):
            break
        if pattern.match(lines[i]):
            return i
    return None


@dataclass(frozen=True, slots=True)
class _Place:
    """Name a row of the file: its table, its number, its key, and the lines where it is written."""

    lines: list[str]
    table: str
    index: int
    key: str
    header: int | None

    def at(self, field: str | None = None) -> str:
        """Return `Line 12 ([[terrain]] #2 `lava`), field `dtv``, as precise as the file allows."""
        line = self.header
        if field is not None and self.header is not None:
            found = _field_line(self.lines, self.header, field)
            line = found if found is not None else line
        row = f"[[{self.table}]] #{self.index + 1}" + (f" `{shorten(self.key, 40)}`" if self.key else "")
        where = f"Line {line + 1} ({row})" if line is not None else row.capitalize()
        return f"{where}, field `{field}`" if field else where


# --- reading and checking -------------------------------------------------------------


def _check_row(row: dict[str, Any], allowed: frozenset[str], place: _Place) -> None:
    """Refuse unknown fields, bad keys, names and labels, and values of the wrong sign."""
    for field in row:
        if field not in allowed:
            raise HomebrewError(f"{place.at(field)}: not a field of a homebrew {place.table}; use "
                                f"{', '.join(sorted(allowed))}.")
    key = row.get("key")
    if not isinstance(key, str) or not KEY_RE.match(key):
        raise HomebrewError(f"{place.at('key')}: a key is 1 to 32 lower-case letters, digits or `_`, starting "
                            f"with a letter, like `watchtower`; not `{shorten(str(key), 40)}`.")
    name = row.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX:
        raise HomebrewError(f"{place.at('name')}: a name is 1 to {NAME_MAX} characters, like \"Watchtower\".")
    label = row.get("label")
    if "label" in allowed and (not isinstance(label, str) or not 1 <= len(label.strip()) <= LABEL_MAX):
        raise HomebrewError(f"{place.at('label')}: a label is 1 to {LABEL_MAX} characters the map prints, like \"WT\".")
    for field, what in NOT_NEGATIVE.items():
        value = row.get(field)
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            raise HomebrewError(f"{place.at(field)}: {value} is negative; {what} is 0 or more.")
    for field, why in NOT_POSITIVE.items():
        value = row.get(field)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            raise HomebrewError(f"{place.at(field)}: {value} is positive; {why}.")


def _clash(base: Ruleset, kind: str, row: dict[str, Any], place: _Place) -> None:
    """Refuse a key, name or map character a built-in row of the ruleset already uses."""
    table: dict[str, Any] = base.terrain
    key = str(row["key"])
    if key in table:
        raise HomebrewError(f"{place.at('key')}: `{key}` is a built-in {kind} of {base.id}; give yours its own key.")
    name = str(row["name"]).strip().lower()
    if any(t.name.lower() == name for t in table.values()):
        raise HomebrewError(f"{place.at('name')}: \"{row['name']}\" is the name of a built-in {kind}; "
                            "give yours its own name.")
    char = row.get("char")
    if kind == "terrain" and isinstance(char, str) and base.terrain_by_char(char) is not None:
        used = base.terrain_by_char(char)
        raise HomebrewError(f"{place.at('char')}: the map character `{char}` is {used.name if used else 'taken'}'s; "
                            "choose another.")


def check_rows(base: Ruleset, rows: dict[str, Any], text: str = "") -> Homebrew:
    """Check a homebrew table's rows against a ruleset; the text, when given, lets refusals name their lines."""
    lines = text.splitlines()
    extra = _extra(base)
    accepted = _accepted(base, extra)
    for top in rows:
        if top not in accepted:
            held = " and ".join(f"[[{t}]]" for t in accepted)
            missing = next((t.missing for s in registered() for t in s.homebrew_tables if t.name == top and t.missing),
                           "")
            if missing:
                raise HomebrewError(f"{missing.format(ruleset=base.name)}; a homebrew file for it holds {held} "
                                    "tables only.")
            if top in TABLES:
                raise HomebrewError(f"{base.name} takes no homebrew {top}; a homebrew file for it holds {held} "
                                    "tables only.")
            raise HomebrewError(f"`{top}` is not a homebrew table; a homebrew file for {base.name} holds {held} "
                                "tables only.")
    terrain: dict[str, TerrainType] = dict(base.terrain)
    mine_terrain: list[TerrainType] = []
    kept: dict[str, list[dict[str, Any]]] = {}
    for kind in TABLES:
        table = _table(rows, kind)
        headers = _headers(lines, kind)
        seen: dict[str, int] = {}
        for i, row in enumerate(table):
            place = _Place(lines, kind, i, str(row.get("key", "")), headers[i] if i < len(headers) else None)
            _check_row(row, TABLES[kind], place)
            _clash(base, kind, row, place)
            if row["key"] in seen:
                raise HomebrewError(f"{place.at('key')}: `{row['key']}` is already the key of [[{kind}]] "
                                    f"#{seen[row['key']] + 1}.")
            seen[row["key"]] = i
            try:
                made = parse_terrain(row, "")
                if any(t.char == made.char for t in mine_terrain):
                    raise HomebrewError(f"{place.at('char')}: the map character `{made.char}` is used twice.")
                mine_terrain.append(made)
                terrain[made.key] = made
            except RulesetError as exc:
                raise HomebrewError(f"{place.at(_field_of(exc.message))}: {_reason(exc.message)}") from None
        if table:
            kept[kind] = [dict(r) for r in table]
    # A system's rows may stand on the file's own terrain, as on the ruleset's.
    grounded = replace(base, terrain=terrain, _by_char={}) if mine_terrain else base
    for spec in extra.values():
        table = _table(rows, spec.name)
        if table:
            _check_extra(grounded, spec, table, lines)
            kept[spec.name] = [dict(r) for r in table]
    return Homebrew(kept, tuple(mine_terrain))


def _extra(base: Ruleset) -> dict[str, HomebrewTable]:
    """Return the system's own tables a homebrew file for this ruleset may hold, by name."""
    return {t.name: t for t in system_of(base.id).homebrew_tables if t.offered is None or t.offered(base)}


def _accepted(base: Ruleset, extra: dict[str, HomebrewTable]) -> list[str]:
    """Return the tables a homebrew file for this ruleset may hold, in the order the docs list them."""
    core = ["terrain"] if system_of(base.id).homebrew_terrain else []
    return [*core, *extra]


def _table(rows: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """Return one table's rows, refused when not written as `[[kind]]` tables or when there are too many."""
    table = rows.get(kind, [])
    if not isinstance(table, list) or not all(isinstance(r, dict) for r in table):
        raise HomebrewError(f"`{kind}` must be written as [[{kind}]] tables.")
    if len(table) > MAX_ROWS:
        raise HomebrewError(f"{len(table)} [[{kind}]] tables; a homebrew file holds at most {MAX_ROWS} of each.")
    return table


def _check_extra(base: Ruleset, spec: HomebrewTable, table: list[dict[str, Any]], lines: list[str]) -> None:
    """Check the rows of a system's own homebrew table: fields, key and name, clashes, then the system's check."""
    builtin = spec.builtin_keys(base)
    names = {n.strip().lower(): n for n in builtin.values()}
    headers = _headers(lines, spec.name)
    seen: dict[str, int] = {}
    for i, row in enumerate(table):
        place = _Place(lines, spec.name, i, str(row.get("key", "")), headers[i] if i < len(headers) else None)
        _check_row(row, spec.fields, place)
        key, name = str(row["key"]), str(row["name"]).strip().lower()
        if key in builtin:
            raise HomebrewError(f"{place.at('key')}: `{key}` is {builtin[key]}, a built-in {spec.name} of {base.id}; "
                                "give yours its own key.")
        if name in names:
            raise HomebrewError(f"{place.at('name')}: \"{row['name']}\" is the name of a built-in {spec.name}; "
                                "give yours its own name.")
        if key in seen:
            raise HomebrewError(f"{place.at('key')}: `{key}` is already the key of [[{spec.name}]] #{seen[key] + 1}.")
        seen[key] = i
        try:
            spec.check(base, row)
        except RulesetError as exc:
            raise HomebrewError(f"{place.at(_field_of(exc.message))}: {_reason(exc.message)}") from None


def _field_of(message: str) -> str | None:
    """Return the field a ruleset parser's message names (`... `cost` must be int ...`), if any."""
    found = re.search(r"(?:missing |unknown terrain |^|: )`([a-z_]+)`", message)
    if found and "unknown terrain" in message:
        return "terrain"
    return found.group(1) if found else None


def _reason(message: str) -> str:
    """Return a ruleset parser's message without its own `where:` prefix."""
    reason = message.split(": ", 1)[1] if ": " in message else message
    return reason[0].upper() + reason[1:] + ("" if reason.endswith(".") else ".")


def read_homebrew(text: str, base: Ruleset) -> Homebrew:
    """Read a homebrew TOML file for a battle of this ruleset: over 256 KiB, malformed or wrong, it is refused."""
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise HomebrewError(f"The file is {size // 1024} KiB; a homebrew table may be at most {MAX_BYTES // 1024} KiB.")
    try:
        data = load_toml(text, LIMITS)
    except tomllib.TOMLDecodeError as exc:
        why = str(exc).replace("at end of document", f"at the end of the file, line {len(text.splitlines()) or 1}")
        raise HomebrewError(f"The file is not valid TOML: {why}. Check that line (quotes, `=`, brackets).") from None
    if not data:
        held = " or ".join(f"[[{t}]]" for t in _accepted(base, _extra(base)))
        raise HomebrewError(f"The file holds no {held} table.")
    return check_rows(base, data, text)


# --- the battle's tables ---------------------------------------------------------------


def merged(base: Ruleset, rows: dict[str, Any]) -> Ruleset:
    """Return the ruleset with a battle's checked homebrew rows added: terrain and the system's tables."""
    brew = check_rows(base, rows)
    out = replace(base, terrain={**base.terrain, **{t.key: t for t in brew.terrain}}, _by_char={})
    for spec in system_of(base.id).homebrew_tables:
        if brew.rows.get(spec.name):
            out = spec.merge(out, brew.rows[spec.name])
    return out


def install(battle: Board, brew: Homebrew) -> None:
    """Make a checked homebrew table the battle's, dropping overrides of constants the new table no longer has."""
    battle.homebrew = brew.rows  # a new table object: the battle's merged ruleset is rebuilt from it
    known = battle.ruleset.constants
    battle.constants = {k: v for k, v in battle.constants.items() if k in known}

