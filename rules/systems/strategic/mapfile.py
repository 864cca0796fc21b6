"""Map files: one character per square, a legend naming each character, and optional storm and deep-water layers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from rules.coords import MAX_SIDE, Cell
from rules.errors import InvalidOrderError, RulesetError
from rules.systems.strategic.terrain import OVER_WATER

if TYPE_CHECKING:
    from rules.battle import Battle
    from rules.ruleset import Ruleset

MAX_TEXT = 40_000
LAYERS = {"storm": "a storm", "deep": "deep water"}  # layer name -> what its marks mean
ON, OFF = "x", "."
# Characters with a meaning of their own in the file, so a legend may not give them to a terrain.
RESERVED = frozenset("#,[] \t")


class MapData(NamedTuple):
    """A parsed map: its size, a terrain key per square (row by row) and per-square flags (storm, deep)."""

    width: int
    height: int
    terrain: list[str]
    flags: dict[str, dict[str, bool]]


def _fail(line: int, message: str, column: int | None = None) -> InvalidOrderError:
    where = f"Line {line}" + (f", column {column}" if column is not None else "")
    return InvalidOrderError(f"{where}: {message}")


def _legend_entries(body: str, line: int, ruleset: Ruleset, legend: dict[str, str]) -> None:
    """Read `. plain, F forest` into the legend, each character naming a terrain by key or name."""
    for raw in body.split(","):
        entry = raw.strip()
        if not entry:
            continue
        char, name = entry[0], entry[1:].strip()
        if char in RESERVED:
            raise _fail(line, f"`{char}` cannot stand for a terrain; it has its own meaning in a map file.")
        if not name:
            raise _fail(line, f"the legend gives `{char}` no terrain; write it like `{char} forest`.")
        try:
            terrain = ruleset.terrain_type(name)
        except RulesetError as exc:
            raise _fail(line, exc.message) from None
        if legend.get(char, terrain.key) != terrain.key:
            raise _fail(line, f"the legend gives `{char}` to both {legend[char]} and {terrain.key}.")
        legend[char] = terrain.key


def _allowed(legend: dict[str, str]) -> str:
    return ", ".join(f"`{c}` {k}" for c, k in legend.items())


class _Reader:
    """Walk the lines of a map file, collecting the legend, the terrain grid and the layers."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.legend: dict[str, str] = {}
        self.grid: list[tuple[int, str]] = []
        self.layers: dict[str, list[tuple[int, str]]] = {}
        self.headers: dict[str, int] = {}
        self.current: list[tuple[int, str]] = self.grid

    def comment(self, number: int, text: str) -> None:
        """Read a comment line; `# legend:` and `# ruleset:` lines mean something."""
        body = text.lstrip("#").strip()
        head, sep, rest = body.partition(":")
        word = head.strip().lower()
        if not sep:
            return
        if word == "legend":
            _legend_entries(rest, number, self.ruleset, self.legend)
        elif word == "ruleset" and rest.strip().lower() != self.ruleset.id:
            raise _fail(number, f"this map was written for `{rest.strip()}`, but the battle plays `{self.ruleset.id}`.")

    def section(self, number: int, text: str) -> None:
        """Start a layer such as [storm]."""
        name = text.strip()[1:-1].strip().lower()
        if name not in LAYERS:
            known = ", ".join(f"[{n}]" for n in LAYERS)
            raise _fail(number, f"`{text.strip()}` is not a layer; a map file may have {known}.")
        if name in self.layers:
            raise _fail(number, f"the [{name}] layer appears twice.")
        if not self.grid:
            raise _fail(number, f"the terrain grid must come before the [{name}] layer.")
        self.layers[name] = self.current = []
        self.headers[name] = number

    def read(self, text: str) -> None:
        """Sort every line of the file into comments, grid lines and layer lines."""
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.rstrip()
            if not line:
                continue
            if line.lstrip().startswith("#"):
                self.comment(number, line.lstrip())
            elif line.lstrip().startswith("["):
                self.section(number, line)
            else:
                self.current.append((number, line))


def _check_rows(rows: list[tuple[int, str]], width: int, what: str) -> None:
    first = rows[0][0]
    for number, line in rows:
        if len(line) != width:
            raise _fail(number, f"this {what} line has {len(line)} squares but the first one (line {first}) has "
                                f"{width}; every line must be the same width.")


def parse_map(text: str, ruleset: Ruleset) -> MapData:
    """Read a map file; errors name the line and column and say which characters are allowed."""
    if len(text) > MAX_TEXT:
        raise InvalidOrderError(f"A map file holds at most {MAX_TEXT} characters; this one has {len(text)}.")
    reader = _Reader(ruleset)
    reader.read(text)
    legend = reader.legend or {t.char: t.key for t in ruleset.terrain.values()}
    if not reader.grid:
        raise InvalidOrderError("The map file has no grid: write one line of terrain characters per row of the map.")
    width, height = len(reader.grid[0][1]), len(reader.grid)
    if not 1 <= width <= MAX_SIDE or not 1 <= height <= MAX_SIDE:
        raise InvalidOrderError(f"A map is 1 to {MAX_SIDE} squares each way; this one is {width}x{height}.")
    _check_rows(reader.grid, width, "map")
    terrain: list[str] = []
    for number, line in reader.grid:
        for col, ch in enumerate(line, start=1):
            if ch not in legend:
                raise _fail(number, f"`{ch}` is not in the legend. Allowed: {_allowed(legend)}.", col)
            terrain.append(legend[ch])
    flags: dict[str, dict[str, bool]] = {}
    for name, rows in reader.layers.items():
        if len(rows) != height:
            where = rows[-1][0] if rows else reader.headers[name]
            raise _fail(where, f"the [{name}] layer has {len(rows)} lines; it needs {height}, one per map row.")
        _check_rows(rows, width, f"[{name}]")
        for y, (number, line) in enumerate(rows):
            for x, ch in enumerate(line):
                if ch.lower() == ON:
                    _flag(ruleset, name, terrain[y * width + x], number, x)
                    flags.setdefault(str(Cell(x, y)), {})[name] = True
                elif ch != OFF:
                    raise _fail(number, f"`{ch}` is not a [{name}] mark. Allowed: `{OFF}` (none) and "
                                        f"`{ON}` ({LAYERS[name]}).", x + 1)
    return MapData(width, height, terrain, flags)


def _flag(ruleset: Ruleset, layer: str, terrain_key: str, number: int, x: int) -> None:
    """Refuse a deep-water mark on a square with no water in or under it."""
    terrain = ruleset.terrain[terrain_key]
    if layer == "deep" and not (terrain.water or terrain_key in OVER_WATER):
        raise _fail(number, f"deep water can only be marked on water, not on {terrain.name}.", x + 1)


def format_map(battle: Battle[Any]) -> str:
    """Write a battle's map as a map file that parse_map reads back to the same terrain and flags."""
    ruleset = battle.ruleset
    legend = ", ".join(f"{t.char} {t.key}" for t in ruleset.terrain.values())
    chars = {k: t.char for k, t in ruleset.terrain.items()}
    lines = [f"# battlepost map: {battle.name}", f"# ruleset: {ruleset.id}", f"# legend: {legend}"]
    for y in range(battle.height):
        lines.append("".join(chars[k] for k in battle.terrain[y * battle.width:(y + 1) * battle.width]))
    for name in LAYERS:
        marked = {k for k, state in battle.cells.items() if name in state and _writable(battle, name, k)}
        if not marked:
            continue
        lines.append(f"[{name}]")
        for y in range(battle.height):
            lines.append("".join(ON if str(Cell(x, y)) in marked else OFF for x in range(battle.width)))
    return "\n".join(lines) + "\n"


def _writable(battle: Battle[Any], layer: str, key: str) -> bool:
    """Return whether a flag can be written: a deep mark left on land by painting is meaningless and dropped."""
    if layer != "deep":
        return True
    cell = Cell.parse(key)
    if not battle.on_map(cell):
        return False
    terrain = battle.terrain_at(cell)
    return terrain.water or terrain.key in OVER_WATER


def map_flags(battle: Battle[Any]) -> dict[str, dict[str, Any]]:
    """Return the storm and deep flags of a battle's squares, as parse_map reports them."""
    out: dict[str, dict[str, Any]] = {}
    for key, state in battle.cells.items():
        for name in LAYERS:
            if name in state:
                out.setdefault(key, {})[name] = True
    return out
