"""The battle: the board of the game, with apply/undo in the manner of a chess engine."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from rules import turns
from rules.coords import MAX_SIDE, Cell
from rules.dice import Dice
from rules.errors import (
    GameError,
    IllegalOrderError,
    InvalidOrderError,
    NotFoundError,
    NothingToUndoError,
    RulesetError,
    did_you_mean,
)
from rules.orders import Order
from rules.outcome import Outcome
from rules.ruleset import Ruleset, TerrainType, get_ruleset
from rules.system import System, system_of
from rules.units import NAME_MAX, Unit

# 1: units keyed by name. 2: units keyed by a stable id; turn records and engagements hold ids.
SCHEMA_VERSION = 2
STATUSES = ("setup", "active", "ended")
MAX_SIDES = 8
MAX_UNITS = 400

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


U = TypeVar("U", bound=Unit)


@dataclass
class Battle(Generic[U]):
    """A battle's whole state: map, terrain, sides, units, round and rule overrides."""

    ruleset_id: str
    width: int
    height: int
    name: str = "Battle"
    terrain: list[str] = field(default_factory=list)
    units: dict[str, U] = field(default_factory=dict)  # by stable id, in the order they were added
    sides: list[Side] = field(default_factory=list)
    status: str = "setup"
    round: int = 0
    constants: dict[str, Any] = field(default_factory=dict)
    cells: dict[str, dict[str, Any]] = field(default_factory=dict)  # per-square state: features, fire, smoke...
    map_version: int = 1
    last: dict[str, Any] = field(default_factory=dict)
    turn: dict[str, Any] = field(default_factory=dict)
    next_id: int = 1
    _history: list[dict[str, Any]] = field(default_factory=list, repr=False, compare=False)

    # --- construction -------------------------------------------------------

    @classmethod
    def new(cls, ruleset_id: str, width: int, height: int, name: str = "Battle") -> Battle[Any]:
        """Create an empty battle of the given ruleset and size, all default terrain."""
        ruleset = get_ruleset(ruleset_id)
        for label, value in (("width", width), ("height", height)):
            if not 1 <= value <= MAX_SIDE:
                raise InvalidOrderError(f"The map {label} must be 1 to {MAX_SIDE} squares, not {value}.")
        battle = cls(ruleset.id, width, height, check_name(name, "battle name"))
        battle.terrain = [ruleset.default_terrain] * (width * height)
        return battle

    @property
    def system(self) -> System:
        """Return the rule system that plays this battle's ruleset."""
        return system_of(self.ruleset_id)

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

    def find_unit(self, ref: str) -> U | None:
        """Return the unit with this id, or else with this name (case-insensitive), if there is one."""
        found = self.units.get(ref)
        if found is not None:
            return found
        wanted = ref.strip().lower()
        return next((u for u in self.units.values() if u.name.lower() == wanted), None)

    def unit(self, name: str) -> U:
        """Return the unit with this name (case-insensitive) or id, or explain which exist."""
        found = self.find_unit(name)
        if found is None:
            close = did_you_mean(name, [u.name for u in self.units.values()])
            names = ", ".join(u.name for u in list(self.units.values())[:10])
            hint = f" Units here: {names}." if names else " This battle has no units yet."
            hint = close + hint
            raise NotFoundError(f"There is no unit `{name}` in this battle.{hint}")
        return found

    def add_unit(self, unit: U) -> U:
        """Give a new unit its stable id and put it in the battle (callers validate)."""
        unit.id = f"u{self.next_id}"
        self.next_id += 1
        self.units[unit.id] = unit
        return unit

    def rename_unit(self, unit: U, name: str) -> None:
        """Rename a unit; its id, and everything that points at it, stay as they are."""
        new = check_name(name, "unit name")
        clash = self.find_unit(new)
        if clash is not None and clash is not unit and clash.name.lower() == new.lower():
            raise IllegalOrderError(f"There is already a unit called {clash.name}; pick another name.")
        unit.name = new

    def remove_unit(self, unit: U) -> None:
        """Take a unit out of the battle (its id is never reused)."""
        self.units.pop(unit.id, None)

    def units_at(self, cell: Cell) -> list[U]:
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

    def enemies(self, a: U, b: U) -> bool:
        """Return whether two units are on different sides."""
        return a.side.lower() != b.side.lower()

    def iter_units(self) -> Iterator[U]:
        """Iterate over the units in the order they were added."""
        return iter(self.units.values())

    # --- apply and undo -----------------------------------------------------

    def apply(self, order: Order, dice: Dice) -> Outcome:
        """Resolve an order against the rules; on any error the battle is left unchanged."""
        handler = self.system.handlers.handler(order.kind)
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

    def legal_orders(self, unit: U | str) -> list[Order]:
        """Return the orders a unit may give now, as its rule system generates them."""
        found = self.unit(unit) if isinstance(unit, str) else unit
        return list(self.system.legal_orders(self, found))

    def is_legal(self, order: Order) -> bool:
        """Return whether an order could be applied now.

        Kinds with a check phase are answered by it alone (no copy, no dice); the others are tried on a
        copy of the battle with throwaway dice.
        """
        if self.system.handlers.handler(order.kind) is None:
            return False
        check = self.system.handlers.check(order.kind)
        try:
            turns.check_may_act(self, order)
            if check is not None:
                check(self, order)
                return True
        except GameError:
            return False
        trial = Battle.from_dict(self.to_dict())
        try:
            trial.apply(order, Dice.seeded(0))
        except GameError:
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
                  "round", "constants", "cells", "map_version", "last", "turn", "next_id"):
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
            "next_id": self.next_id,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Battle[Any]:
        """Rebuild a battle from its document, upgrading older schema versions."""
        version = int(data.get("schema_version", 1))
        if version > SCHEMA_VERSION:
            raise RulesetError(f"This battle was saved by a newer battlepost (schema {version}).")
        if version < 2:
            data = upgrade_v1(data)
        ruleset = get_ruleset(str(data["ruleset"]))
        system = system_of(ruleset.id)
        width, height = int(data["width"]), int(data["height"])
        terrain: list[str] = []
        for row in data["terrain"]:
            for ch in row:
                t = ruleset.terrain_by_char(ch)
                if t is None:
                    raise RulesetError(f"Unknown terrain character `{ch}` in the saved map.")
                terrain.append(t.key)
        battle: Battle[Any] = cls(ruleset.id, width, height, str(data.get("name", "Battle")))
        battle.terrain = terrain
        for u in data.get("units", []):
            unit = system.unit_type.from_dict(u)
            battle.units[unit.id] = unit
        battle.next_id = int(data.get("next_id", len(battle.units) + 1))
        battle.sides = [Side(**s) for s in data.get("sides", [])]
        battle.status = str(data.get("status", "setup"))
        battle.round = int(data.get("round", 0))
        battle.constants = dict(data.get("constants", {}))
        battle.cells = copy.deepcopy(data.get("cells", {}))
        battle.map_version = int(data.get("map_version", 1))
        battle.last = copy.deepcopy(data.get("last", {}))
        battle.turn = copy.deepcopy(data.get("turn", {}))
        return battle


def upgrade_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Upgrade a schema-1 document (units keyed by name) to stable ids, keeping every reference."""
    out = copy.deepcopy(data)
    ids: dict[str, str] = {}
    for i, u in enumerate(out.get("units", []), start=1):
        u["id"] = f"u{i}"
        ids[str(u["name"]).lower()] = u["id"]

    def to_id(name: Any) -> Any:
        return ids.get(str(name).lower(), name)

    for u in out.get("units", []):
        if "engaged" in u:
            u["engaged"] = [to_id(n) for n in u["engaged"]]
    turn = out.get("turn", {})
    if "units" in turn:
        turn["units"] = [to_id(n) for n in turn["units"]]
    for key in ("left", "done", "standing"):
        if key in turn:
            turn[key] = {to_id(n): v for n, v in turn[key].items()}
    for record in turn.get("initiative", []):
        record["id"] = to_id(record["unit"])
    if turn.get("at") is not None and str(turn.get("mode")) == "initiative":
        turn["at"] = to_id(turn["at"])
    out["next_id"] = len(out.get("units", [])) + 1
    out["schema_version"] = 2
    return out


__all__ = ["Battle", "Side", "check_name", "upgrade_v1"]
