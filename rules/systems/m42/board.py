"""The map as M42 reads it: terrain kinds, roads, buildings and their floors, obstacles on edges."""

from __future__ import annotations

from dataclasses import dataclass

from rules.battle import Battle as _Battle
from rules.coords import Cell, Edge
from rules.edges import Obstacle
from rules.ruleset import exact
from rules.system import Structures
from rules.systems.m42.kinds import Kind, tables
from rules.systems.m42.squares import all_squares, state_at
from rules.systems.m42.units import Unit

Battle = _Battle[Unit]


def kind_at(battle: Battle, cell: Cell) -> Kind:
    """Return how the terrain of a square plays in M42."""
    return tables(battle.ruleset_id).kinds[battle.terrain[cell.y * battle.width + cell.x]]


def on_road(battle: Battle, cell: Cell) -> bool:
    """Return whether a road runs through the square."""
    return state_at(battle, cell).road


def floors(battle: Battle, cell: Cell) -> int:
    """Return how many floors a building or ruin square has (1: the ground floor only)."""
    return (state_at(battle, cell).floors or 1) if kind_at(battle, cell).floors else 1


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
    if not battle.edges:
        return None  # most maps have no obstacles: skip building the edge a move asks about thousands of times
    return battle.edges.get(Edge.between(a, b))


OUTER_WALL = Obstacle("wall")  # a building's outer wall where the map names no obstacle of its own


def structures(battle: Battle, sides: frozenset[str] = frozenset(), gm: bool = False) -> Structures:
    """Return the roads, floors and obstacles of the map, each obstacle with whether it stops infantry (A99).

    Every viewer sees them all, whatever their sides.

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
    roads = frozenset(Cell.parse(k) for k, state in all_squares(battle) if state.road)
    floors = tuple(sorted((Cell.parse(k), state.floors) for k, state in all_squares(battle)
                          if state.floors is not None and state.floors > 1))
    return Structures(edges=edges, roads=roads, levels=floors)


@dataclass(frozen=True, slots=True)
class Opening:
    """One door, window or hole in a building's outer wall: the squares' sides it spans, in a row along the wall.

    On a fine grid an opening is wider than one square's side: neighbouring sides of one wall that carry the
    same opening (as one `/map edge` run sets them) are one opening, as wide as the GM said, not one per side.
    """

    edges: tuple[Edge, ...]
    obstacle: Obstacle
    inside: tuple[Cell, ...]  # the square behind each side, inside the building
    outside: tuple[Cell, ...]  # the square in front of each side, where models stand at an unopenable opening

    @property
    def width(self) -> float:
        """Return the opening's width in inches, frame included, as the GM gave it."""
        return self.obstacle.opening

    def label(self) -> str:
        """Name the opening by the sides it spans: `J10|K10` or `J10|K10 to J12|K12`."""
        first, last = str(self.edges[0]), str(self.edges[-1])
        return first if first == last else f"{first} to {last}"


def opening_models(battle: Battle, width: float) -> int:
    """Return how many models an opening of this width takes: one per full half inch, frame included (A95)."""
    tenths = exact(width) * 10  # exact: 2.3" is 23 tenths, never 22.99...
    return int(tenths // int(battle.const("opening_tenths_per_model")))


def openings(battle: Battle, building: frozenset[Cell]) -> list[Opening]:
    """Return the openings in a building's outer walls, each with the sides it spans and the squares on both sides."""
    sides: dict[tuple[Cell, Cell], Obstacle] = {}
    for edge, obs in sorted(battle.edges.items()):
        if obs.opening <= 0:
            continue
        a_in, b_in = edge.a in building, edge.b in building
        if a_in != b_in:
            sides[(edge.a, edge.b) if a_in else (edge.b, edge.a)] = obs
    out: list[Opening] = []
    seen: set[tuple[Cell, Cell]] = set()
    for first, obs in sides.items():
        if first in seen:
            continue
        # Walk along the wall both ways: the next side is one square over, facing the same way, the same opening.
        face = (first[1].x - first[0].x, first[1].y - first[0].y)
        along = (abs(face[1]), abs(face[0]))
        run = [first]
        for sign in (1, -1):
            inside = first[0]
            while True:
                inside = Cell(inside.x + sign * along[0], inside.y + sign * along[1])
                side = (inside, Cell(inside.x + face[0], inside.y + face[1]))
                if sides.get(side) != obs or side in seen or side in run:
                    break
                run.append(side)
        run.sort(key=lambda s: (s[0].y, s[0].x))
        seen.update(run)
        out.append(Opening(tuple(Edge.between(i, o) for i, o in run), obs, tuple(i for i, _ in run),
                           tuple(o for _, o in run)))
    return out
