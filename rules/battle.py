"""The battle: the board of the game, with apply/undo in the manner of a chess engine."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, TypeVar

from rules import scale, turns
from rules.coords import MAX_SIDE, Cell, Edge
from rules.dice import Dice
from rules.duplicate import duplicate
from rules.edges import Obstacle, edges_from_list, edges_to_list
from rules.errors import (
    GameError,
    IllegalOrderError,
    InvalidOrderError,
    NotFoundError,
    NothingToUndoError,
    RulesetError,
    SystemMissingError,
    did_you_mean,
    shorten,
)
from rules.homebrew import merged
from rules.orders import Order
from rules.outcome import Outcome
from rules.ruleset import Ruleset, TerrainType, exact, get_ruleset
from rules.sides import Side
from rules.squares import Square, squares_from_dict, squares_to_dict
from rules.stored import JSON, Document, Scalar, texts
from rules.system import System, provider, ruleset_ids, system_of
from rules.turnstate import TurnState
from rules.units import Unit, check_name

# 1: units keyed by name. 2: units keyed by a stable id; turn records and engagements hold ids.
SCHEMA_VERSION = 2
STATUSES = ("setup", "active", "ended")
MAX_SIDES = 8
MAX_UNITS = 400
SHIPPED_BY = "battlepost"  # the distribution of the shipped systems: their battles need no package named

def board_size(ruleset_id: str, width: int | None, height: int | None) -> tuple[int, int]:
    """Return the board a new battle gets: the GM's width and height, or one square for a system with no map."""
    system = system_of(ruleset_id)
    if not system.has_map:
        if width is not None or height is not None:
            raise InvalidOrderError(
                f"{system.name} has no map: leave out width and height (forces fight in rounds, not on squares)."
            )
        return 1, 1
    if width is None or height is None:
        missing = " and ".join(k for k, v in (("width", width), ("height", height)) if v is None)
        raise InvalidOrderError(
            f"A {ruleset_id} battle is fought on a map: give its {missing} in squares (1 to {MAX_SIDE}), "
            "like `width:30 height:20`."
        )
    return width, height


U = TypeVar("U", bound=Unit)

Constants = dict[str, Scalar]
"""The GM's overrides of rule constants, by key (`/battle rules set ...`)."""

HomebrewRows = dict[str, list[Document]]
"""The GM's checked homebrew rows by table (`terrain`, `feature`, a system's own), as the imported file wrote them."""


@dataclass(frozen=True, slots=True)
class LastAction:
    """The battle's last move or shot, kept so a map shown later can mark it.

    Stored as `{"kind": "move", "unit": ..., "path": [...]}` or `{"kind": "attack", "unit": ..., "line": [...],
    "hit": ...}`; a battle with no such action stores `{}`.
    """

    kind: str
    unit: str
    path: tuple[str, ...] | None = None
    line: tuple[str, ...] | None = None
    hit: bool | None = None

    def to_dict(self) -> Document:
        """Return the stored form: kind and unit, with the path, line and hit it has."""
        out: Document = {"kind": self.kind, "unit": self.unit}
        if self.path is not None:
            out["path"] = list(self.path)
        if self.line is not None:
            out["line"] = list(self.line)
        if self.hit is not None:
            out["hit"] = self.hit
        return out

    @classmethod
    def from_dict(cls, data: dict[str, JSON]) -> LastAction | None:
        """Rebuild the stored last action (None for the `{}` of a battle without one)."""
        if not data:
            return None
        hit = data.get("hit")
        return cls(kind=str(data.get("kind", "")), unit=str(data.get("unit", "")),
                   path=texts(data["path"]) if "path" in data else None,
                   line=texts(data["line"]) if "line" in data else None,
                   hit=None if hit is None else bool(hit))


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
    constants: Constants = field(default_factory=dict)
    cells: dict[str, Square] = field(default_factory=dict)  # per-square state by square text, of its system's type
    map_version: int = 1
    last: LastAction | None = None
    turn: TurnState = field(default_factory=TurnState)  # see rules/turns.py
    next_id: int = 1
    homebrew: HomebrewRows = field(default_factory=dict)  # the GM's checked [[terrain]] and [[feature]] rows
    edges: dict[Edge, Obstacle] = field(default_factory=dict)  # obstacles on the sides between squares
    _history: list[Document] = field(default_factory=list, repr=False, compare=False)  # undo snapshots, stored form
    _brewed: tuple[HomebrewRows, Ruleset, Ruleset] | None = field(default=None, repr=False, compare=False)

    # --- construction -------------------------------------------------------

    @classmethod
    def new(cls, ruleset_id: str, width: int, height: int, name: str = "Battle",
            rules: Sequence[tuple[str, str]] = ()) -> Battle[Any]:
        """Create an empty battle of the given ruleset and size, all default terrain, at the scale `rules` set."""
        ruleset = get_ruleset(ruleset_id)
        for label, value in (("width", width), ("height", height)):
            if value < 1 or (value > MAX_SIDE and ruleset.table is None):
                raise InvalidOrderError(f"The map {label} must be 1 to {MAX_SIDE} squares, not {value}.")
        size = exact(ruleset.constants[ruleset.scale_key].value) if ruleset.scale_key else Fraction(1)
        for key, text in rules:
            if key == ruleset.scale_key:
                size = exact(scale.coerce_scale(ruleset, text))
        scale.check_map(ruleset, size, width, height)
        battle = cls(ruleset.id, width, height, check_name(name, "battle name"))
        battle.terrain = [ruleset.default_terrain] * (width * height)
        return battle

    @property
    def system(self) -> System:
        """Return the rule system that plays this battle's ruleset."""
        return system_of(self.ruleset_id)

    @property
    def ruleset(self) -> Ruleset:
        """Return the ruleset this battle is played under, with the GM's homebrew terrain and features added."""
        base = get_ruleset(self.ruleset_id)
        if not self.homebrew:
            return base
        cached = self._brewed
        # Handlers replace the homebrew table rather than edit it, so the same object means the same rows.
        if cached is None or cached[0] is not self.homebrew or cached[1] is not base:
            cached = (self.homebrew, base, merged(base, self.homebrew))
            self._brewed = cached
        return cached[2]

    def scale_text(self) -> str:
        """Return the ruleset's scale with this battle's constants written in (`1 square = {cm_per_square} cm`)."""
        text = self.ruleset.scale
        for key in self.ruleset.constants:
            text = text.replace("{" + key + "}", str(self.const(key)))
        return text

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

    def check_edge(self, edge: Edge) -> Edge:
        """Return the edge, or explain that one of its squares is off the map."""
        for cell in edge.cells():
            if not self.on_map(cell):
                last = Cell(self.width - 1, self.height - 1)
                raise IllegalOrderError(
                    f"The edge {edge} touches {cell}, which is off the map; this map runs from A1 to {last}."
                )
        return edge

    def edge_at(self, a: Cell, b: Cell) -> Obstacle | None:
        """Return the obstacle on the side between two adjacent squares, if any."""
        return self.edges.get(Edge.between(a, b))

    def square(self, cell: Cell) -> Square:
        """Return the mutable per-square state of a cell, created empty when needed."""
        found = self.cells.get(str(cell))
        if found is None:
            found = self.cells[str(cell)] = self.system.square_type()
        return found

    def square_state(self, cell: Cell) -> Square:
        """Return the per-square state of a cell without creating it (an empty, unattached square if none)."""
        found = self.cells.get(str(cell))
        return found if found is not None else self.system.square_type()

    def clear_square(self, cell: Cell, *keys: str) -> None:
        """Empty some fields of a square, dropping its record when nothing is left on it."""
        found = self.cells.get(str(cell))
        if found is None:
            return
        found.clear(*keys)
        if found.empty:
            del self.cells[str(cell)]  # keep the saved state free of empty squares

    def squares_with(self, key: str) -> list[Cell]:
        """Return the squares whose named field is set, in column-then-row order of their cells."""
        return sorted(Cell.parse(k) for k, s in self.cells.items() if key in s)

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
            raise NotFoundError(f"There is no unit `{shorten(name)}` in this battle.{hint}")
        return found

    def add_unit(self, unit: U) -> U:
        """Give a new unit its stable id and put it in the battle (callers validate)."""
        unit.id = f"u{self.next_id}"
        self.next_id += 1
        self.units[unit.id] = unit
        return unit

    def check_rename(self, unit: U, name: str) -> str:
        """Return a unit's new name, checked to be a name and not another unit's."""
        new = check_name(name, "unit name")
        clash = self.find_unit(new)
        if clash is not None and clash is not unit and clash.name.lower() == new.lower():
            raise IllegalOrderError(f"There is already a unit called {clash.name}; pick another name.")
        return new

    def rename_unit(self, unit: U, name: str) -> None:
        """Rename a unit; its id, and everything that points at it, stay as they are."""
        unit.name = self.check_rename(unit, name)

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

    def check_side(self, name: str, new: int = 0) -> str:
        """Return the name a side gets, checked to exist or fit in (`new`: sides about to be made before it)."""
        found = self.side(name)
        if found is not None:
            return found.name
        if len(self.sides) + new >= MAX_SIDES:
            raise IllegalOrderError(f"A battle has at most {MAX_SIDES} sides.")
        return check_name(name, "side name")

    def ensure_side(self, name: str) -> Side:
        """Return the side with this name, creating it if there is room."""
        found = self.side(name)
        if found is not None:
            return found
        side = self.system.side_type(self.check_side(name), len(self.sides))
        self.sides.append(side)
        return side

    def enemies(self, a: U, b: U) -> bool:
        """Return whether two units are on different sides."""
        return a.side.lower() != b.side.lower()

    def iter_units(self) -> Iterator[U]:
        """Iterate over the units in the order they were added."""
        return iter(self.units.values())

    # --- apply and undo -----------------------------------------------------

    def apply(self, order: Order, dice: Dice, *, undoable: bool = True) -> Outcome:
        """Resolve an order against the rules; on any error the battle is left unchanged.

        With undoable=False no snapshot is taken: undo() cannot take the order back, and an order refused
        half-way leaves the battle half-changed. That is for callers that throw a battle away on any error
        and keep undo elsewhere (the table service keeps it in the database).
        """
        handler = self.system.handlers.handler(order.kind)
        if handler is None:
            raise RulesetError(f"`{order.kind}` orders are not played in {self.ruleset_id}.")
        # Orders without a unit (setup, GM) and battles not yet active pass this check untouched.
        turns.check_may_act(self, order)
        snapshot = self.to_dict() if undoable else None
        outcome = Outcome(order=str(order), kind=order.kind)
        start = len(dice.rolls)
        try:
            handler(self, order, dice, outcome)
            turns.spend(self, order, outcome, dice)
        except Exception:
            if snapshot is not None:
                self._restore(snapshot)
            del dice.rolls[start:]
            raise
        outcome.rolls = dice.rolls[start:]
        del dice.rolls[start:]
        if snapshot is not None:
            self._history.append(snapshot)
        return outcome

    def parse_order(self, text: str) -> Order:
        """Parse an order's text form as this battle's rule system reads it."""
        return self.system.parse_order(text)

    def legal_orders(self, unit: U | str) -> list[Order]:
        """Return the orders a unit may give now, as its rule system generates them."""
        found = self.unit(unit) if isinstance(unit, str) else unit
        return list(self.system.legal_orders(self, found))

    def is_legal(self, order: Order) -> bool:
        """Return whether an order could be applied now, asking its kind's check phase alone.

        The check reads the battle and rolls no dice: nothing is copied, and the battle is left as it was.
        """
        check = self.system.handlers.check(order.kind)
        if check is None:
            return False  # a kind this battle's system does not play (a system has a check for every kind it plays)
        try:
            turns.check_may_act(self, order)
            check(self, order)
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
        for f in (*_COPIED, "terrain", "homebrew"):
            setattr(self, f, getattr(other, f))
        self._history = history

    def copy(self) -> Battle[U]:
        """Return a battle equal to this one that shares nothing an order changes (undo snapshots not kept).

        The homebrew tables are shared: handlers replace them rather than edit them (see `ruleset`).
        """
        other: Battle[U] = object.__new__(type(self))
        for name in _COPIED:
            setattr(other, name, duplicate(getattr(self, name)))
        other.terrain = self.terrain.copy()  # keys only: no need to look at each
        other.homebrew = self.homebrew
        other._history = []
        other._brewed = self._brewed
        return other

    # --- (de)serialisation --------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return the whole state as a JSON-able document."""
        ruleset = self.ruleset
        chars = {k: t.char for k, t in ruleset.terrain.items()}
        rows = [
            "".join(map(chars.__getitem__, self.terrain[y * self.width:(y + 1) * self.width]))
            for y in range(self.height)
        ]
        doc = {
            "schema_version": SCHEMA_VERSION,
            "ruleset": self.ruleset_id, "name": self.name, "width": self.width, "height": self.height,
            "terrain": rows, "units": [u.to_dict() for u in self.units.values()],
            "sides": [s.to_dict() for s in self.sides], "status": self.status, "round": self.round,
            "constants": dict(self.constants), "cells": squares_to_dict(self.cells),
            "map_version": self.map_version, "last": self.last.to_dict() if self.last else {}, "turn": self.turn.to_dict(),
            **({"homebrew": copy.deepcopy(self.homebrew)} if self.homebrew else {}),
            "next_id": self.next_id,
        }
        package = provider(self.ruleset_id)
        if package is not None and package != SHIPPED_BY:  # a battle of a plug-in names the package it needs
            doc["package"] = package
        if self.edges:  # documents without edges stay as they were
            doc["edges"] = edges_to_list(self.edges)
        return doc

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Battle[Any]:
        """Rebuild a battle from its document, upgrading older schema versions."""
        version = int(data.get("schema_version", 1))
        if version > SCHEMA_VERSION:
            raise RulesetError(f"This battle was saved by a newer battlepost (schema {version}).")
        if version < 2:
            data = upgrade_v1(data)
        rid = str(data["ruleset"]).strip().lower()
        if rid not in ruleset_ids():
            package = data.get("package")
            raise SystemMissingError(rid, package if isinstance(package, str) else None)
        base = get_ruleset(rid)
        system = system_of(base.id)
        width, height = int(data["width"]), int(data["height"])
        battle: Battle[Any] = cls(base.id, width, height, str(data.get("name", "Battle")))
        # The homebrew rows come first: the saved map may be painted with their characters.
        battle.homebrew = copy.deepcopy(data.get("homebrew", {}))
        ruleset = battle.ruleset
        terrain: list[str] = []
        keys: dict[str, str] = {}  # map character -> terrain key, each looked up once
        for row in data["terrain"]:
            for ch in dict.fromkeys(row):
                if ch not in keys:
                    t = ruleset.terrain_by_char(ch)
                    if t is None:
                        raise RulesetError(f"Unknown terrain character `{ch}` in the saved map.")
                    keys[ch] = t.key
            terrain.extend(map(keys.__getitem__, row))
        battle.terrain = terrain
        for u in data.get("units", []):
            unit = system.unit_type.from_dict(u)
            battle.units[unit.id] = unit
        battle.next_id = int(data.get("next_id", len(battle.units) + 1))
        battle.sides = [system.side_type.from_dict(s) for s in data.get("sides", [])]
        battle.status = str(data.get("status", "setup"))
        battle.round = int(data.get("round", 0))
        battle.constants = dict(data.get("constants", {}))
        battle.cells = squares_from_dict(data.get("cells", {}), system.square_type)
        battle.map_version = int(data.get("map_version", 1))
        battle.last = LastAction.from_dict(data.get("last") or {})
        battle.turn = TurnState.from_dict(data.get("turn", {}))
        battle.edges = edges_from_list(list(data.get("edges", [])))
        for edge in battle.edges:
            battle.check_edge(edge)
        return battle


# The state an order may change, copied by `Battle.copy` and put back by `Battle._restore`.
_COPIED = ("ruleset_id", "width", "height", "name", "units", "sides", "status", "round", "constants",
           "cells", "map_version", "last", "turn", "next_id", "edges")


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


__all__ = ["Battle", "Constants", "HomebrewRows", "LastAction", "Side", "check_name", "upgrade_v1"]
