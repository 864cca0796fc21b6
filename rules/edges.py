"""The edge layer of the board: obstacles standing on the sides between squares (walls, hedges...)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules.coords import Cell, Edge
from rules.errors import IllegalOrderError, InvalidOrderError
from rules.lifecycle import require_not_ended

if TYPE_CHECKING:
    from rules.battle import Battle
    from rules.dice import Dice
    from rules.orders import ClearEdge, SetEdge
    from rules.outcome import Outcome

EDGE_KINDS = ("wall", "hedge", "fence", "creek", "lava")
MAX_INCHES = 100.0
MAX_EDGES_AT_ONCE = 200


def _inches(data: dict[str, Any], key: str, where: str) -> float:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidOrderError(f"{where}: `{key}` is a number of inches, not `{value}`.")
    if not 0 <= value <= MAX_INCHES:
        raise InvalidOrderError(f"{where}: `{key}` must be 0 to {MAX_INCHES:g} inches, not {value}.")
    return float(value)


@dataclass(frozen=True, slots=True)
class Obstacle:
    """What stands on an edge: its kind, height and thickness in inches, and any opening in it."""

    kind: str
    height: float = 0.0
    thickness: float = 0.0  # how wide the obstacle itself is, across the edge
    opening: float = 0.0  # width of a door, window or hole in it; 0 means none
    openable: bool = True  # whether models may stand inside behind the opening

    def __post_init__(self) -> None:
        if self.kind not in EDGE_KINDS:
            kinds = ", ".join(f"`{k}`" for k in EDGE_KINDS)
            raise InvalidOrderError(f"`{self.kind}` is not an obstacle kind; use one of {kinds}.")

    def to_dict(self) -> dict[str, Any]:
        """Return the obstacle as a JSON-able dict."""
        return {"kind": self.kind, "height": self.height, "thickness": self.thickness,
                "opening": self.opening, "openable": self.openable}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "obstacle") -> Obstacle:
        """Rebuild an obstacle from its dict, explaining any bad field."""
        return cls(
            kind=str(data.get("kind", "")).strip().lower(),
            height=_inches(data, "height", where), thickness=_inches(data, "thickness", where),
            opening=_inches(data, "opening", where), openable=bool(data.get("openable", True)),
        )


def edges_to_list(edges: dict[Edge, Obstacle]) -> list[dict[str, Any]]:
    """Return the edge layer as a list of JSON-able records, in a stable order."""
    return [{"edge": str(e), **edges[e].to_dict()} for e in sorted(edges)]


def edges_from_list(rows: list[dict[str, Any]]) -> dict[Edge, Obstacle]:
    """Rebuild the edge layer from its records."""
    out: dict[Edge, Obstacle] = {}
    for row in rows:
        edge = Edge.parse(str(row["edge"]))
        out[edge] = Obstacle.from_dict(row, f"edge {edge}")
    return out


def _run(text: str) -> list[Edge]:
    """Read `C3-H3:s`: the same side of every square along a straight row or column."""
    span, _, side = text.partition(":")
    first, _, last = span.partition("-")
    a, b = Cell.parse(first), Cell.parse(last)
    if a.x != b.x and a.y != b.y:
        raise InvalidOrderError(f"`{text.strip()}`: a run of sides goes along one row or one column, like `C3-H3:s` "
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
        raise InvalidOrderError(f"`{what}` is a number of inches, like `2.5`, not `{text}`.") from None


def set_edges(battle: Battle[Any], order: SetEdge, dice: Dice, outcome: Outcome) -> None:
    """Put an obstacle on each named edge (a handler for systems that play edges)."""
    require_not_ended(battle)
    found = parse_edges(battle, order.edges)
    obstacle = Obstacle.from_dict({
        "kind": order.obstacle.strip().lower(), "height": _number(order.height, "height"),
        "thickness": _number(order.thickness, "thickness"), "opening": _number(order.opening, "opening"),
        "openable": order.openable,
    }, "the obstacle")
    for edge in found:
        battle.edges[edge] = obstacle
    battle.map_version += 1
    outcome.highlight["cells"] = sorted({str(c) for e in found[:100] for c in e.cells()})
    outcome.effect("edges_set", obstacle=obstacle.kind, height=obstacle.height, opening=obstacle.opening,
                   edges=[str(e) for e in found[:50]], count=len(found))


def clear_edges(battle: Battle[Any], order: ClearEdge, dice: Dice, outcome: Outcome) -> None:
    """Take the obstacles off the named edges (a handler for systems that play edges)."""
    require_not_ended(battle)
    found = parse_edges(battle, order.edges)
    bare = [e for e in found if e not in battle.edges]
    if bare:
        raise IllegalOrderError(f"There is no obstacle on {bare[0]}; nothing to clear there.")
    for edge in found:
        del battle.edges[edge]
    battle.map_version += 1
    outcome.highlight["cells"] = sorted({str(c) for e in found[:100] for c in e.cells()})
    outcome.effect("edges_cleared", edges=[str(e) for e in found[:50]], count=len(found))


__all__ = ["EDGE_KINDS", "Edge", "Obstacle", "clear_edges", "edges_from_list", "edges_to_list", "parse_edges",
           "set_edges"]
