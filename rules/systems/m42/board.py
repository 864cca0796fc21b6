"""The map as M42 reads it: terrain kinds, roads, buildings and their floors, obstacles on edges."""

from __future__ import annotations

from rules.battle import Battle as _Battle
from rules.coords import Cell, Edge
from rules.edges import Obstacle
from rules.system import Structures
from rules.systems.m42.kinds import Kind, tables
from rules.systems.m42.units import Unit

Battle = _Battle[Unit]


def kind_at(battle: Battle, cell: Cell) -> Kind:
    """Return how the terrain of a square plays in M42."""
    return tables(battle.ruleset_id).kinds[battle.terrain[cell.y * battle.width + cell.x]]


def on_road(battle: Battle, cell: Cell) -> bool:
    """Return whether a road runs through the square."""
    return bool(battle.square_state(cell).get("road"))


def floors(battle: Battle, cell: Cell) -> int:
    """Return how many floors a building or ruin square has (1: the ground floor only)."""
    return int(battle.square_state(cell).get("floors", 1)) if kind_at(battle, cell).floors else 1


def top_level(battle: Battle, cell: Cell) -> int:
    """Return the highest level a model may stand on: a building's roof, a ruin's top floor, else 0."""
    kind = kind_at(battle, cell)
    if kind.building:
        return floors(battle, cell)
    return floors(battle, cell) - 1 if kind.floors else 0


def region(battle: Battle, start: Cell, inside: str) -> frozenset[Cell]:
    """Return the connected squares (orthogonally) sharing a property with start: `road` or `building`."""
    def belongs(c: Cell) -> bool:
        return on_road(battle, c) if inside == "road" else kind_at(battle, c).building

    if not belongs(start):
        return frozenset()
    seen = {start}
    todo = [start]
    while todo:
        c = todo.pop()
        for n in (Cell(c.x + 1, c.y), Cell(c.x - 1, c.y), Cell(c.x, c.y + 1), Cell(c.x, c.y - 1)):
            if n not in seen and battle.on_map(n) and belongs(n):
                seen.add(n)
                todo.append(n)
    return frozenset(seen)


def obstacle(battle: Battle, a: Cell, b: Cell) -> Obstacle | None:
    """Return the obstacle on the edge between two adjacent squares, if any."""
    return battle.edges.get(Edge.between(a, b))


OUTER_WALL = Obstacle("wall")  # a building's outer wall where the map names no obstacle of its own


def structures(battle: Battle) -> Structures:
    """Return the roads, floors and obstacles of the map, each obstacle with whether it stops infantry (A99).

    A building's outer walls are drawn too: every side of a building square that faces other ground.
    """
    tall = float(battle.const("tall_wall"))
    found = dict(battle.edges)
    for y in range(battle.height):
        for x in range(battle.width):
            here = Cell(x, y)
            if not kind_at(battle, here).building:
                continue
            for there in (Cell(x + 1, y), Cell(x - 1, y), Cell(x, y + 1), Cell(x, y - 1)):
                if battle.on_map(there) and not kind_at(battle, there).building:
                    found.setdefault(Edge.between(here, there), OUTER_WALL)
    edges = tuple((edge, obs, obs.height > tall) for edge, obs in sorted(found.items()))
    roads = frozenset(Cell.parse(k) for k, state in battle.cells.items() if state.get("road"))
    floors = tuple(sorted((Cell.parse(k), int(state["floors"])) for k, state in battle.cells.items()
                          if int(state.get("floors", 1)) > 1))
    return Structures(edges=edges, roads=roads, floors=floors)


def openings(battle: Battle, building: frozenset[Cell]) -> list[tuple[Edge, Obstacle, Cell, Cell]]:
    """Return the openings in a building's outer walls: edge, obstacle, inside square, outside square."""
    out = []
    for edge, obs in sorted(battle.edges.items()):
        if obs.opening <= 0:
            continue
        a_in, b_in = edge.a in building, edge.b in building
        if a_in != b_in:
            inside, outside = (edge.a, edge.b) if a_in else (edge.b, edge.a)
            out.append((edge, obs, inside, outside))
    return out
