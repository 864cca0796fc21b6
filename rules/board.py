"""What the modules the battle itself is built on may read and change of a battle.

`rules.battle.Battle` imports the turn rules, the system registry, the scale and homebrew rules; those
cannot import it back without an import cycle, so they name this protocol instead, which every `Battle`
meets. It lists only what they use.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from rules.coords import Cell
    from rules.edges import Edge, Obstacle
    from rules.orders import Order
    from rules.ruleset import Ruleset
    from rules.sides import Side
    from rules.squares import Square
    from rules.stored import Document, Scalar
    from rules.turnstate import TurnState
    from rules.units import Unit


class Board(Protocol):
    """A battle as the core's lower modules see it: `rules.battle.Battle` of any rule system."""

    ruleset_id: str
    name: str
    width: int
    height: int
    terrain: list[str]
    status: str
    round: int
    constants: dict[str, Scalar]
    cells: dict[str, Square]
    map_version: int
    turn: TurnState
    homebrew: dict[str, list[Document]]
    edges: dict[Edge, Obstacle]

    @property
    def units(self) -> Mapping[str, Unit]:
        """Return the units by stable id, in the order they were added."""

    @property
    def sides(self) -> Sequence[Side]:
        """Return the sides in the order they were made."""

    @property
    def ruleset(self) -> Ruleset:
        """Return the ruleset the battle is played under, with its homebrew."""

    def const(self, key: str) -> Any:
        """Return a rule constant, with the battle's override."""

    def on_map(self, cell: Cell) -> bool:
        """Return whether the cell lies on the map."""

    def find_unit(self, ref: str) -> Unit | None:
        """Return the unit with this id or name, if there is one."""

    def unit(self, name: str) -> Unit:
        """Return the unit with this name or id, or explain which exist."""

    def iter_units(self) -> Iterator[Unit]:
        """Iterate over the units in the order they were added."""

    def side(self, name: str) -> Side | None:
        """Return the side with this name (case-insensitive)."""

    def is_legal(self, order: Order) -> bool:
        """Return whether an order could be applied now."""

    def legal_orders(self, unit: Any) -> list[Order]:
        """Return the orders a unit may give now."""


__all__ = ["Board"]
