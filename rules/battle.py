"""The battle: the board of the game, with apply/undo in the manner of a chess engine."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rules import turns
from rules.coords import MAX_SIDE, Cell
from rules.dice import Dice
from rules.errors import (
    IllegalOrderError,
    InvalidOrderError,
    NotFoundError,
    NothingToUndoError,
    RulesetError,
)
from rules.orders import Order
from rules.outcome import Outcome
from rules.ruleset import Ruleset, TerrainType, get_ruleset
from rules.units import NAME_MAX, Unit

SCHEMA_VERSION = 1
STATUSES = ("setup", "active", "ended")
MAX_SIDES = 8
MAX_UNITS = 400

Handler = Callable[["Battle", Any, Dice, Outcome], None]
_HANDLERS: dict[str, Handler] = {}


def handles(kind: str) -> Callable[[Handler], Handler]:
    """Register the function that resolves orders of a kind."""

    def wrap(fn: Handler) -> Handler:
        _HANDLERS[kind] = fn
        return fn

    return wrap


def check_name(name: str, what: str = "name") -> str:
    """Validate a display name: 1 to 64 printable characters."""
    clean = " ".join(name.split())
    if not clean:
        raise InvalidOrderError(f"The {what} is empty; give it 1 to {NAME_MAX} characters.")
    if len(clean) > NAME_MAX:
        raise InvalidOrderError(f"The {what} is {len(clean)} characters long; keep it to {NAME_MAX} or fewer.")
    return clean


@dataclass
class Side:
    """A side of the battle and its feature point pool."""

    name: str
    color: int
    fp_adjust: int = 0
    fp_override: int | None = None
    fp_spent: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Return the side as a JSON-able dict."""
        return {
            "name": self.name, "color": self.color, "fp_adjust": self.fp_adjust,
            "fp_override": self.fp_override, "fp_spent": self.fp_spent,
        }


@dataclass
class Battle:
    """A battle's whole state: map, terrain, sides, units, round and rule overrides."""

    ruleset_id: str
    width: int
    height: int
    name: str = "Battle"
    terrain: list[str] = field(default_factory=list)
    units: dict[str, Unit] = field(default_factory=dict)
    sides: list[Side] = field(default_factory=list)
    status: str = "setup"
    round: int = 0
    constants: dict[str, Any] = field(default_factory=dict)
    cells: dict[str, dict[str, Any]] = field(default_factory=dict)  # per-square state: features, fire, smoke...
    map_version: int = 1
    last: dict[str, Any] = field(default_factory=dict)
    turn: dict[str, Any] = field(default_factory=dict)
    _history: list[dict[str, Any]] = field(default_factory=list, repr=False, compare=False)

    # --- construction -------------------------------------------------------

    @classmethod
    def new(cls, ruleset_id: str, width: int, height: int, name: str = "Battle") -> Battle:
        """Create an empty battle of the given ruleset and size, all default terrain."""
        ruleset = get_ruleset(ruleset_id)
        for label, value in (("width", width), ("height", height)):
            if not 1 <= value <= MAX_SIDE:
                raise InvalidOrderError(f"The map {label} must be 1 to {MAX_SIDE} squares, not {value}.")
        battle = cls(ruleset.id, width, height, check_name(name, "battle name"))
        battle.terrain = [ruleset.default_terrain] * (width * height)
        return battle

    @property
    def ruleset(self) -> Ruleset:
        """Return the ruleset this battle is played under."""
        return get_ruleset(self.ruleset_id)

    def const(self, key: str) -> Any:
        """Return a rule constant, with this battle's override if the GM set one."""
        if key in self.constants:
            return self.constants[key]
        return self.ruleset.constant(key).value

    # --- the map ------------------------------------------------------------

    def on_map(self, cell: Cell) -> bool:
        """Return whether the cell lies on this map."""
        return 0 <= cell.x < self.width and 0 <= cell.y < self.height

    def check_cell(self, cell: Cell) -> Cell:
        """Return the cell, or explain that it is off the map."""
        if not self.on_map(cell):
            last = Cell(self.width - 1, self.height - 1)
            raise IllegalOrderError(f"{cell} is off the map; this map runs from A1 to {last}.")
        return cell

    def terrain_at(self, cell: Cell) -> TerrainType:
        """Return the terrain of a square."""
        return self.ruleset.terrain[self.terrain[cell.y * self.width + cell.x]]

    def set_terrain(self, cell: Cell, key: str) -> None:
        """Set the terrain of a square (callers validate)."""
        self.terrain[cell.y * self.width + cell.x] = key

    def square(self, cell: Cell) -> dict[str, Any]:
        """Return the mutable per-square state of a cell, created empty when needed."""
        return self.cells.setdefault(str(cell), {})

    def square_state(self, cell: Cell) -> dict[str, Any]:
        """Return the per-square state of a cell without creating it."""
        return self.cells.get(str(cell), {})

    # --- units and sides ----------------------------------------------------

    def unit(self, name: str) -> Unit:
        """Return the unit with this name (case-insensitive), or explain which exist."""
        found = self.units.get(name.strip().lower())
        if found is None:
            names = ", ".join(u.name for u in list(self.units.values())[:10])
            hint = f" Units here: {names}." if names else " This battle has no units yet."
            raise NotFoundError(f"There is no unit `{name}` in this battle.{hint}")
        return found

    def units_at(self, cell: Cell) -> list[Unit]:
        """Return the units on a square."""
        return [u for u in self.units.values() if u.x == cell.x and u.y == cell.y]

    def side(self, name: str) -> Side | None:
        """Return the side with this name (case-insensitive)."""
        wanted = name.strip().lower()
        return next((s for s in self.sides if s.name.lower() == wanted), None)

    def ensure_side(self, name: str) -> Side:
        """Return the side with this name, creating it if there is room."""
        found = self.side(name)
        if found is not None:
            return found
        if len(self.sides) >= MAX_SIDES:
            raise IllegalOrderError(f"A battle has at most {MAX_SIDES} sides.")
        side = Side(check_name(name, "side name"), len(self.sides))
        self.sides.append(side)
        return side

    def enemies(self, a: Unit, b: Unit) -> bool:
        """Return whether two units are on different sides."""
        return a.side.lower() != b.side.lower()

    def iter_units(self) -> Iterator[Unit]:
        """Iterate over the units in the order they were added."""
        return iter(self.units.values())

    # --- apply and undo -----------------------------------------------------

    def apply(self, order: Order, dice: Dice) -> Outcome:
        """Resolve an order against the rules; on any error the battle is left unchanged."""
        handler = _HANDLERS.get(order.kind)
        if handler is None:
            raise RulesetError(f"`{order.kind}` orders are not played in {self.ruleset_id}.")
        # Orders without a unit (setup, GM) and battles not yet active pass this check untouched.
        turns.check_may_act(self, order)
        snapshot = self.to_dict()
        outcome = Outcome(order=str(order), kind=order.kind)
        start = len(dice.rolls)
        try:
            handler(self, order, dice, outcome)
            turns.spend(self, order, outcome, dice)
        except Exception:
            self._restore(snapshot)
            del dice.rolls[start:]
            raise
        outcome.rolls = dice.rolls[start:]
        del dice.rolls[start:]
        self._history.append(snapshot)
        return outcome

    def is_legal(self, order: Order) -> bool:
        """Return whether an order could be applied now (dice are rolled on a copy)."""
        trial = Battle.from_dict(self.to_dict())
        try:
            trial.apply(order, Dice.seeded(0))
        except IllegalOrderError:
            return False
        except (NotFoundError, InvalidOrderError):
            return False
        return True

    def undo(self) -> None:
        """Restore the state before the last applied order."""
        if not self._history:
            raise NothingToUndoError("There is nothing to undo: no order has been applied since this battle was loaded.")
        self._restore(self._history.pop())

    def _restore(self, snapshot: dict[str, Any]) -> None:
        other = Battle.from_dict(snapshot)
        history = self._history
        for f in ("ruleset_id", "width", "height", "name", "terrain", "units", "sides", "status",
                  "round", "constants", "cells", "map_version", "last", "turn"):
            setattr(self, f, getattr(other, f))
        self._history = history

    # --- (de)serialisation --------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return the whole state as a JSON-able document."""
        ruleset = self.ruleset
        chars = {k: t.char for k, t in ruleset.terrain.items()}
        rows = [
            "".join(chars[k] for k in self.terrain[y * self.width:(y + 1) * self.width])
            for y in range(self.height)
        ]
        return {
            "schema_version": SCHEMA_VERSION,
            "ruleset": self.ruleset_id, "name": self.name, "width": self.width, "height": self.height,
            "terrain": rows, "units": [u.to_dict() for u in self.units.values()],
            "sides": [s.to_dict() for s in self.sides], "status": self.status, "round": self.round,
            "constants": dict(self.constants), "cells": copy.deepcopy(self.cells),
            "map_version": self.map_version, "last": copy.deepcopy(self.last), "turn": copy.deepcopy(self.turn),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Battle:
        """Rebuild a battle from its document, upgrading older schema versions."""
        version = int(data.get("schema_version", 1))
        if version > SCHEMA_VERSION:
            raise RulesetError(f"This battle was saved by a newer battlepost (schema {version}).")
        ruleset = get_ruleset(str(data["ruleset"]))
        width, height = int(data["width"]), int(data["height"])
        terrain: list[str] = []
        for row in data["terrain"]:
            for ch in row:
                t = ruleset.terrain_by_char(ch)
                if t is None:
                    raise RulesetError(f"Unknown terrain character `{ch}` in the saved map.")
                terrain.append(t.key)
        battle = cls(ruleset.id, width, height, str(data.get("name", "Battle")))
        battle.terrain = terrain
        for u in data.get("units", []):
            unit = Unit.from_dict(u)
            battle.units[unit.name.lower()] = unit
        battle.sides = [Side(**s) for s in data.get("sides", [])]
        battle.status = str(data.get("status", "setup"))
        battle.round = int(data.get("round", 0))
        battle.constants = dict(data.get("constants", {}))
        battle.cells = copy.deepcopy(data.get("cells", {}))
        battle.map_version = int(data.get("map_version", 1))
        battle.last = copy.deepcopy(data.get("last", {}))
        battle.turn = copy.deepcopy(data.get("turn", {}))
        return battle


# Importing the actions registers their handlers.
from rules import actions as _actions  # noqa: E402

__all__ = ["Battle", "Side", "_actions", "check_name", "handles"]
