"""The edge layer of the board: obstacles standing on the sides between squares (walls, hedges...)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.coords import Edge
from rules.errors import InvalidOrderError

EDGE_KINDS = ("wall", "hedge", "fence", "creek", "lava")
MAX_INCHES = 100.0


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


__all__ = ["EDGE_KINDS", "Edge", "Obstacle", "edges_from_list", "edges_to_list"]
