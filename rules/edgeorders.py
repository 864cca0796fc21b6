"""The orders that put obstacles on the sides between squares and take them off, for systems that play edges."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.coords import Cell, Edge
from rules.core_effects import EdgesCleared, EdgesSet
from rules.edges import Obstacle
from rules.errors import IllegalOrderError, InvalidOrderError, shorten
from rules.lifecycle import require_not_ended

if TYPE_CHECKING:
    from rules.battle import Battle
    from rules.dice import Dice
    from rules.orders import ClearEdge, SetEdge
    from rules.outcome import Outcome

MAX_EDGES_AT_ONCE = 200


def _run(text: str) -> list[Edge]:
    """Read `C3-H3:s`: the same side of every square along a straight row or column."""
    span, _, side = text.partition(":")
    first, _, last = span.partition("-")
    a, b = Cell.parse(first), Cell.parse(last)
    if a.x != b.x and a.y != b.y:
        raise InvalidOrderError(f"`{shorten(text.strip())}`: a run of sides goes along one row or one column, like `C3-H3:s` "
                                "or `L1-L9:e`.")
    if a.distance(b) >= MAX_EDGES_AT_ONCE:
        raise InvalidOrderError(f"Set at most {MAX_EDGES_AT_ONCE} edges at once.")
    step_x, step_y = (b.x > a.x) - (b.x < a.x), (b.y > a.y) - (b.y < a.y)
    cells = [Cell(a.x + i * step_x, a.y + i * step_y) for i in range(a.distance(b) + 1)]
    return [Edge.of(c, side) for c in cells]


def parse_edges(battle: Battle[Any], text: str) -> list[Edge]:
    """Parse a comma-separated list of edges (`C3|C4`, `C3:n`, or a run `C3-H3:s`), each between two map squares."""
    found: list[Edge] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        edges = _run(part) if "-" in part.partition(":")[0] and ":" in part else [Edge.parse(part)]
        found.extend(battle.check_edge(e) for e in edges)
        if len(found) > MAX_EDGES_AT_ONCE:
            raise InvalidOrderError(f"Set at most {MAX_EDGES_AT_ONCE} edges at once.")
    found = list(dict.fromkeys(found))
    if not found:
        raise InvalidOrderError("Name at least one edge, like `C3|C4` or `C3:n`.")
    if len(found) > MAX_EDGES_AT_ONCE:
        raise InvalidOrderError(f"Set at most {MAX_EDGES_AT_ONCE} edges at once.")
    return found


def _number(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise InvalidOrderError(f"`{what}` is a number of inches, like `2.5`, not `{shorten(text, 24)}`.") from None


def check_set_edges(battle: Battle[Any], order: SetEdge) -> tuple[list[Edge], Obstacle]:
    """Check the edges named and the obstacle described; return both."""
    require_not_ended(battle)
    found = parse_edges(battle, order.edges)
    obstacle = Obstacle.from_dict({
        "kind": order.obstacle.strip().lower(), "height": _number(order.height, "height"),
        "thickness": _number(order.thickness, "thickness"), "opening": _number(order.opening, "opening"),
        "openable": order.openable,
    }, "the obstacle")
    return found, obstacle


def set_edges(battle: Battle[Any], order: SetEdge, dice: Dice, outcome: Outcome) -> None:
    """Put an obstacle on each named edge (a handler for systems that play edges)."""
    found, obstacle = check_set_edges(battle, order)
    for edge in found:
        battle.edges[edge] = obstacle
    battle.map_version += 1
    outcome.highlight.cells = sorted({str(c) for e in found[:100] for c in e.cells()})
    outcome.add(EdgesSet(obstacle=obstacle.kind, height=obstacle.height, opening=obstacle.opening,
                   edges=[str(e) for e in found[:50]], count=len(found)))


def check_clear_edges(battle: Battle[Any], order: ClearEdge) -> list[Edge]:
    """Check that every edge named holds an obstacle; return the edges."""
    require_not_ended(battle)
    found = parse_edges(battle, order.edges)
    bare = [e for e in found if e not in battle.edges]
    if bare:
        raise IllegalOrderError(f"There is no obstacle on {bare[0]}; nothing to clear there.")
    return found


def clear_edges(battle: Battle[Any], order: ClearEdge, dice: Dice, outcome: Outcome) -> None:
    """Take the obstacles off the named edges (a handler for systems that play edges)."""
    found = check_clear_edges(battle, order)
    for edge in found:
        del battle.edges[edge]
    battle.map_version += 1
    outcome.highlight.cells = sorted({str(c) for e in found[:100] for c in e.cells()})
    outcome.add(EdgesCleared(edges=[str(e) for e in found[:50]], count=len(found)))
