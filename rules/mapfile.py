"""Map files: one character per square, a legend naming each character, a system's layers and an edge list.

The grid and legend are the same for every rule system; each system names the layers it reads
(each a field of its squares, like `[storm]`, a flag, or a count) and whether
it plays obstacles on the sides between squares (an `[edges]` section).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from rules.coords import MAX_SIDE, Cell, Edge
from rules.edges import Obstacle, edges_to_list
from rules.errors import GameError, IllegalOrderError, InvalidOrderError, RulesetError
from rules.layers import Layer as Layer
from rules.layers import MarkCheck as MarkCheck
from rules.scale import MAX_LONG_SIDE, MAX_SHORT_SIDE, check_map, finest, fits, square_size
from rules.squares import Square

if TYPE_CHECKING:
    from rules.battle import Battle
    from rules.ruleset import Ruleset

MAX_TEXT = 40_000
ON, OFF = "x", "."
EDGES = "edges"
# Characters with a meaning of their own in the file, so a legend may not give them to a terrain.
RESERVED = frozenset("#,[] \t")
class MapData(NamedTuple):
    """A parsed map: its size, a terrain key per square (row by row), per-square marks, and edges."""

    width: int
    height: int
    terrain: list[str]
    flags: dict[str, dict[str, Any]]
    edges: dict[Edge, Obstacle]


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


def _section_names(layers: Sequence[Layer], edges: bool) -> list[str]:
    return [layer.name for layer in layers] + ([EDGES] if edges else [])


class _Reader:
    """Walk the lines of a map file, collecting the legend, the terrain grid, the layers and the edges."""

    def __init__(self, ruleset: Ruleset, layers: Sequence[Layer], edges: bool) -> None:
        self.ruleset = ruleset
        self.names = _section_names(layers, edges)
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
        """Start a layer such as [storm], or the [edges] list."""
        name = text.strip()[1:-1].strip().lower()
        if name not in self.names:
            known = ", ".join(f"[{n}]" for n in self.names)
            allowed = f"a map file may have {known}" if known else f"a {self.ruleset.id} map file has only its grid"
            raise _fail(number, f"`{text.strip()}` is not a layer; {allowed}.")
        what = "list" if name == EDGES else "layer"
        if name in self.layers:
            raise _fail(number, f"the [{name}] {what} appears twice.")
        if not self.grid:
            raise _fail(number, f"the terrain grid must come before the [{name}] {what}.")
        self.layers[name] = self.current = []
        self.headers[name] = number

    def read(self, text: str) -> None:
        """Sort every line of the file into comments, grid lines and section lines."""
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


def parse_map(text: str, ruleset: Ruleset, layers: Sequence[Layer] = (), edges: bool = False) -> MapData:
    """Read a map file; errors name the line (and column) and say what is allowed."""
    if len(text) > MAX_TEXT:
        raise InvalidOrderError(f"A map file holds at most {MAX_TEXT} characters; this one has {len(text)}.")
    reader = _Reader(ruleset, layers, edges)
    reader.read(text)
    legend = reader.legend or {t.char: t.key for t in ruleset.terrain.values()}
    if not reader.grid:
        raise InvalidOrderError("The map file has no grid: write one line of terrain characters per row of the map.")
    width, height = len(reader.grid[0][1]), len(reader.grid)
    if not fits(ruleset, finest(ruleset), width, height):
        most = f"{MAX_SIDE}" if ruleset.table is None else f"{MAX_SIDE} (up to {MAX_LONG_SIDE}x{MAX_SHORT_SIDE} at a fine scale)"
        raise InvalidOrderError(f"A map is 1 to {most} squares each way; this one is {width}x{height}.")
    _check_rows(reader.grid, width, "map")
    terrain: list[str] = []
    for number, line in reader.grid:
        for col, ch in enumerate(line, start=1):
            if ch not in legend:
                raise _fail(number, f"`{ch}` is not in the legend. Allowed: {_allowed(legend)}.", col)
            terrain.append(legend[ch])
    flags: dict[str, dict[str, Any]] = {}
    for layer in layers:
        rows = reader.layers.get(layer.name)
        if rows is None:
            continue
        if len(rows) != height:
            where = rows[-1][0] if rows else reader.headers[layer.name]
            raise _fail(where, f"the [{layer.name}] layer has {len(rows)} lines; it needs {height}, one per map row.")
        _check_rows(rows, width, f"[{layer.name}]")
        for y, (number, line) in enumerate(rows):
            for x, ch in enumerate(line):
                value = _mark(layer, ch, number, x)
                if value is None:
                    continue
                problem = layer.check(ruleset, terrain[y * width + x]) if layer.check else None
                if problem:
                    raise _fail(number, problem, x + 1)
                flags.setdefault(str(Cell(x, y)), {})[layer.name] = value
    edge_rows = reader.layers.get(EDGES, [])
    return MapData(width, height, terrain, flags, _edges(edge_rows, width, height))


def _mark(layer: Layer, ch: str, number: int, x: int) -> bool | int | None:
    """Return what one character of a layer marks, None for nothing, or explain what is allowed."""
    if ch == OFF:
        return None
    if layer.counts:
        if ch.isdigit() and 2 <= int(ch) <= 9:
            return int(ch)
        raise _fail(number, f"`{ch}` is not a [{layer.name}] mark. Allowed: `{OFF}` (one) and `2` to `9` "
                            f"({layer.what}).", x + 1)
    if ch.lower() == ON:
        return True
    raise _fail(number, f"`{ch}` is not a [{layer.name}] mark. Allowed: `{OFF}` (none) and `{ON}` ({layer.what}).",
                x + 1)


def _edges(rows: list[tuple[int, str]], width: int, height: int) -> dict[Edge, Obstacle]:
    """Read the [edges] lines: `C3|C4 wall height=4 opening=1 openable=no`, one edge per line."""
    out: dict[Edge, Obstacle] = {}
    last = Cell(width - 1, height - 1)
    for number, line in rows:
        words = line.split()
        try:
            edge = Edge.parse(words[0])
            fields: dict[str, Any] = {"kind": words[1].lower() if len(words) > 1 else ""}
            for word in words[2:]:
                key, sep, value = word.partition("=")
                fields[key.lower()] = _field(key.lower(), value, sep)
            obstacle = Obstacle.from_dict(fields, f"the edge {edge}")
        except GameError as exc:
            raise _fail(number, f"{exc.message} {EDGE_LINE_HELP}") from None
        for cell in edge.cells():
            if not (0 <= cell.x < width and 0 <= cell.y < height):
                raise _fail(number, f"the edge {edge} touches {cell}, which is not on this {width}x{height} map "
                                    f"(it runs from A1 to {last}); every edge lies between two squares of the map.")
        if edge in out:
            raise _fail(number, f"the edge {edge} is listed twice.")
        out[edge] = obstacle
    return out


EDGE_LINE_HELP = ("An [edges] line is an edge and its obstacle, like `C3|C4 wall height=4 thickness=0.5 "
                  "opening=1 openable=no` (C3:e names the same side).")
_FIELDS = ("height", "thickness", "opening", "openable")


def _field(key: str, value: str, sep: str) -> float | bool:
    if key not in _FIELDS or not sep:
        raise InvalidOrderError(f"`{key}{sep}{value}` is not an obstacle field; give " + ", ".join(
            f"`{k}=`" for k in _FIELDS) + ".")
    if key == "openable":
        if value.lower() not in ("yes", "no", "true", "false"):
            raise InvalidOrderError(f"`openable` is yes or no, not `{value}`.")
        return value.lower() in ("yes", "true")
    try:
        return float(value)
    except ValueError:
        raise InvalidOrderError(f"`{key}` is a number of inches, like `2.5`, not `{value}`.") from None


def format_map(battle: Battle[Any], layers: Sequence[Layer] | None = None, edges: bool | None = None) -> str:
    """Write a battle's map as a map file that parse_map reads back to the same terrain, marks and edges.

    The layers and edges default to those of the battle's rule system.
    """
    layers = battle.system.map_layers if layers is None else layers
    edges = battle.system.map_edges if edges is None else edges
    ruleset = battle.ruleset
    legend = ", ".join(f"{t.char} {t.key}" for t in ruleset.terrain.values())
    chars = {k: t.char for k, t in ruleset.terrain.items()}
    lines = [f"# battlepost map: {battle.name}", f"# ruleset: {ruleset.id}", f"# legend: {legend}"]
    for y in range(battle.height):
        lines.append("".join(chars[k] for k in battle.terrain[y * battle.width:(y + 1) * battle.width]))
    for layer in layers:
        marks = {key: state[layer.name] for key, state in battle.cells.items()
                 if state.get(layer.name) and _writable(battle, layer, key)}
        if layer.counts:
            marks = {k: v for k, v in marks.items() if isinstance(v, int) and v > 1}
        if not marks:
            continue
        lines.append(f"[{layer.name}]")
        for y in range(battle.height):
            found = (marks.get(str(Cell(x, y))) for x in range(battle.width))
            lines.append("".join(OFF if v is None else (str(v) if layer.counts else ON) for v in found))
    if edges and battle.edges:
        lines.append(f"[{EDGES}]")
        for row in edges_to_list(battle.edges):
            lines.append(f"{row['edge']} {row['kind']} height={row['height']:g} thickness={row['thickness']:g} "
                         f"opening={row['opening']:g} openable={'yes' if row['openable'] else 'no'}")
    return "\n".join(lines) + "\n"


def _writable(battle: Battle[Any], layer: Layer, key: str) -> bool:
    """Return whether a mark can be written: one left on terrain it may not mark, by painting, is dropped."""
    cell = Cell.parse(key)
    if not battle.on_map(cell):
        return False
    return layer.check is None or layer.check(battle.ruleset, battle.terrain[cell.y * battle.width + cell.x]) is None


def map_marks(battle: Battle[Any], layers: Sequence[Layer]) -> dict[str, dict[str, Any]]:
    """Return the layer marks of a battle's squares, as parse_map reports them."""
    names = {layer.name for layer in layers}
    out: dict[str, dict[str, Any]] = {}
    for key, state in battle.cells.items():
        for name in names:
            if state.get(name):
                out.setdefault(key, {})[name] = state[name]
    return out


def check_fits(battle: Battle[Any], data: MapData) -> None:
    """Refuse a new map too large for the battle's scale, or one that would leave a unit off it."""
    check_map(battle.ruleset, square_size(battle), data.width, data.height)
    for unit in battle.iter_units():
        if not (0 <= unit.x < data.width and 0 <= unit.y < data.height):
            raise IllegalOrderError(
                f"{unit.name} stands on {unit.cell}, outside the new {data.width}x{data.height} map; "
                f"move or remove it first."
            )


def replace_map(battle: Battle[Any], data: MapData, layers: Sequence[Layer]) -> None:
    """Put a parsed map in place of the battle's: size, terrain, layer marks and edges, refusing to strand a unit."""
    check_fits(battle, data)
    names = {layer.name for layer in layers}
    battle.width, battle.height, battle.terrain = data.width, data.height, list(data.terrain)
    cells: dict[str, Square] = {}
    for key, state in battle.cells.items():
        kept = state.copy()
        kept.clear(*names)
        # Squares beyond the new edge lose their smoke and fire with them.
        cell = Cell.parse(key)
        if not kept.empty and cell.x < data.width and cell.y < data.height:
            cells[key] = kept
    for key, marks in data.flags.items():
        cells.setdefault(key, battle.system.square_type()).update(marks)
    battle.cells = cells
    battle.edges = dict(data.edges)
    battle.map_version += 1
