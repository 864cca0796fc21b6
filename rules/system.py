"""Rule systems: the protocol every system implements, and the registry battles look them up in.

The core never imports a system. A system is a package (under `rules.systems`, or installed beside
battlepost) that builds a `System` value (its rulesets, order classes, handlers, unit type and legal-order
generator) and names it in a `battlepost.systems` entry point; `rules.systems.install()` registers every
installed one (`rules.plugins`), and `register(...)` registers one by hand.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any, TypeVar

from rules.coords import Cell, Edge
from rules.core_details import CORE_DETAILS
from rules.core_effects import CORE_EFFECTS
from rules.details import Details
from rules.edges import Obstacle
from rules.effects import Effect
from rules.ending import Verdict, last_side_standing
from rules.errors import RulesetError
from rules.orders import CORE_ORDERS, Authority, Move, Order, add_order_table, order_kind
from rules.rolltests import CORE_TESTS, RollTest
from rules.ruleset import add_source
from rules.sides import Side
from rules.squares import Square

if TYPE_CHECKING:
    from rules.board import Board
    from rules.dice import Dice
    from rules.layers import Layer
    from rules.outcome import Outcome
    from rules.ruleset import Ruleset
    from rules.statfile import UnitSpec
    from rules.units import Unit
    from rules.weaponline import WeaponLine

# The battle a system's functions take: a `rules.battle.Battle` of the system's own unit type. That module builds
# on this one, so it is not named here; the system's functions name it themselves.
AnyBattle = Any
Handler = Callable[[AnyBattle, Any, "Dice", "Outcome"], None]
Check = Callable[[AnyBattle, Any], object]
CheckT = TypeVar("CheckT", bound=Callable[..., object])
StatblockReader = Callable[[str], "list[UnitSpec]"]
LegalOrders = Callable[[AnyBattle, "Unit"], Iterator["Order"]]
RoundStartEffect = Callable[[AnyBattle, "Dice", "Outcome"], None]
# Where a unit can move now: per move mode, the squares it reaches and what each costs.
Reach = Callable[[AnyBattle, str], Mapping[str, Mapping[str, float]]]
OrderClass = TypeVar("OrderClass", bound=type[Order])


@dataclass(frozen=True, slots=True)
class Waiting:
    """What a battle waits for in a phase of its system's own: a key naming the phase, and who is due."""

    key: str  # a new key is a new phase, with a deadline of its own
    label: str  # how players read the phase: `game turn 2: orders for the round`
    due: tuple[str, ...] = ()  # the sides (or units) that have yet to act


@dataclass(frozen=True)
class Phases:
    """How a system that plays phases of its own, not units' turns, meets the play-by-post clock.

    `waiting(battle)` names the phase running now (None: nothing to wait for, no deadline runs);
    `on_deadline(battle, policy)` gives the orders that settle a phase whose deadline passed under the
    `hold` or `default` policy (under `wait` the GM decides).
    """

    waiting: Callable[[AnyBattle], Waiting | None]
    on_deadline: Callable[[AnyBattle, str], list[Order]]
    policies: Mapping[str, str] = field(default_factory=dict)  # what each policy does here, as players read it


class HandlerTable:
    """The handlers of one rule system, keyed by order kind.

    A table may build on shared core tables (the turn orders of `rules.turnorders`, say): what it does
    not declare itself it finds there, and what it declares itself overrides them.
    """

    def __init__(self, *shared: HandlerTable) -> None:
        self._handlers: dict[str, Handler] = {}
        self._checks: dict[str, Check] = {}
        self._orders: dict[str, type[Order]] = {}
        self._shared = shared

    def handles(self, kind: str) -> Callable[[Handler], Handler]:
        """Register the function that resolves orders of a kind in this system."""

        def wrap(fn: Handler) -> Handler:
            self._handlers[kind] = fn
            return fn

        return wrap

    def order(self, kind: str, authority: Authority = "gm") -> Callable[[OrderClass], OrderClass]:
        """Declare an order class of this system, its kind and who may give it (default: the GM)."""

        def wrap(cls: OrderClass) -> OrderClass:
            order_kind(kind, authority)(cls)
            self._orders[kind] = cls
            return cls

        return wrap

    def checks(self, kind: str) -> Callable[[CheckT], CheckT]:
        """Register the check phase of an order kind: it raises a GameError if the order is illegal now.

        A check reads the battle and rolls no dice, so `Battle.is_legal` can ask it without copying the
        battle; the kind's handler runs the same check before it resolves.
        """

        def wrap(fn: CheckT) -> CheckT:
            self._checks[kind] = fn
            return fn

        return wrap

    def add(self, kind: str, handler: Handler, check: Check) -> None:
        """Play a shared handler (`rules.lifecycle`, `rules.edgeorders`) in this system, with its check phase."""
        self._handlers[kind] = handler
        self._checks[kind] = check

    def unchecked(self) -> list[str]:
        """Return the kinds this system resolves without a check phase (a system must have none)."""
        return sorted(k for k in self.kinds if self.check(k) is None)

    def _owner(self, kind: str) -> HandlerTable | None:
        """Return the table whose handler resolves a kind: this one first, then the shared ones."""
        if kind in self._handlers:
            return self
        for table in self._shared:
            owner = table._owner(kind)
            if owner is not None:
                return owner
        return None

    def check(self, kind: str) -> Check | None:
        """Return the check phase of an order kind, if the system has one apart from resolution."""
        owner = self._owner(kind)
        # A check belongs to the handler it guards: an overriding handler does not inherit a shared check.
        return owner._checks.get(kind) if owner is not None else None

    def handler(self, kind: str) -> Handler | None:
        """Return the handler of an order kind, if this system plays it."""
        owner = self._owner(kind)
        return owner._handlers.get(kind) if owner is not None else None

    @property
    def own_orders(self) -> Mapping[str, type[Order]]:
        """Return the order classes declared in this table itself, by kind."""
        return self._orders

    @property
    def orders(self) -> Mapping[str, type[Order]]:
        """Return the order classes this system declares or shares, by kind (its own win a clash)."""
        out: dict[str, type[Order]] = {}
        for table in self._shared:
            out.update(table.orders)
        out.update(self._orders)
        return out

    @property
    def kinds(self) -> frozenset[str]:
        """Return the order kinds this system resolves."""
        return frozenset(self._handlers).union(*(t.kinds for t in self._shared))


@dataclass(frozen=True, slots=True)
class Sign:
    """Something standing on a square that a map shows with a short tag, as one viewer may see it."""

    cell: Cell
    label: str  # the tag drawn on the square
    name: str  # what the legend and the description call it
    hidden: bool = False  # hidden from the enemy (drawn with a dashed frame)


@dataclass(frozen=True)
class Structures:
    """What a system's map carries besides terrain and units, for drawing, as one viewer may see it.

    Obstacles on sides, roads and raised squares are the same for every viewer (the map's base layer);
    signs and lasting effects are drawn over it.
    """

    edges: tuple[tuple[Edge, Obstacle, bool], ...] = ()  # each obstacle, and whether it stops infantry
    roads: frozenset[Cell] = frozenset()
    levels: tuple[tuple[Cell, int], ...] = ()  # squares standing more than one storey high, with their count
    signs: tuple[Sign, ...] = ()
    effects: tuple[tuple[Cell, str], ...] = ()  # lasting effects by kind (`fire`, `smoke`...), in drawing order


@dataclass(frozen=True)
class HomebrewTable:
    """A table of rows a system's battles take from a GM's homebrew file, besides [[terrain]].

    `check(base, row)` refuses a row (its key, name and field types are already checked; `base` holds the
    file's own terrain) by raising a `RulesetError` whose message starts with the field, like "`inches`: 500
    is more than 48"; `merge(base, rows)` returns the ruleset with the checked rows added, so every rule reads
    them as it reads its own.
    """

    name: str  # written [[name]] in the file
    fields: frozenset[str]
    check: Callable[[Ruleset, dict[str, Any]], None]
    merge: Callable[[Ruleset, list[dict[str, Any]]], Ruleset]
    builtin_keys: Callable[[Ruleset], Mapping[str, str]]  # key -> name of the built-in rows a GM's may not reuse
    offered: Callable[[Ruleset], bool] | None = None  # which of the system's rulesets take it; None: every one
    # What a file for a battle without the table is told, `{ruleset}` its ruleset's name; "": that it is no table.
    missing: str = ""


@dataclass
class System:
    """A rule system: rulesets, orders and how they resolve, its unit type and legal-order generation."""

    id: str
    name: str
    package: str  # where its `data/<ruleset>.toml` files live
    ruleset_ids: tuple[str, ...]
    handlers: HandlerTable
    unit_type: type[Unit]
    legal_orders: LegalOrders
    round_start: list[RoundStartEffect] = field(default_factory=list)
    initiative_tokens: frozenset[str] = frozenset()
    has_map: bool = True
    # The squares holding something a viewer of these (lower-case) sides may not see, like an enemy's hidden
    # trap (`rules.visibility.redact` keeps every mention of them from that viewer).
    hidden_squares: Callable[[AnyBattle, frozenset[str]], Iterable[str]] | None = None
    # Whether a unit whose legal orders hold nothing but ending its turn ends it by itself. A system with orders
    # `legal_orders` does not generate (a unit's parts placed by hand after its main action) keeps it False.
    ends_idle_turns: bool = True
    describe: str = ""
    phases: Phases | None = None  # None: the core's turns of units (rules.turns) drive the clock
    map_layers: tuple[Layer, ...] = ()  # the layers its map files carry after the terrain grid
    map_edges: bool = False  # whether it plays obstacles on the sides between squares (an [edges] list)
    # What its map shows besides terrain and units to a viewer of these (lower-case) sides, or the GM when True.
    structures: Callable[[AnyBattle, frozenset[str], bool], Structures] | None = None
    reach: Reach | None = None  # without one, reach is read off the Move orders `legal_orders` generates
    homebrew_tables: tuple[HomebrewTable, ...] = ()  # its own tables a homebrew file may hold
    homebrew_terrain: bool = True  # whether a homebrew file may add [[terrain]] rows to its battles
    # Reads a stat-block file of its units (`/unit import`): each unit's stats checked, errors name line and
    # field; placing them is its add-unit handler's (raising `PlacementError` names the file's `at` field).
    statblocks: StatblockReader | None = None
    # How `/unit add weapons:` writes its weapons in one line; None: its units carry no weapons to type.
    weapon_line: WeaponLine | None = None
    effects: Mapping[str, type[Effect]] = field(default_factory=dict)  # its effect kinds (`rules.effects.table`)

    rolltests: Mapping[str, type[RollTest]] = field(default_factory=dict)  # its test kinds (`rules.rolltests`)
    details: Mapping[str, type[Details]] = field(default_factory=dict)  # its orders' details (`rules.details`)
    # When its battles are over; None: the core's reading (a side with no unit left in the fight has lost).
    battle_over: Callable[[AnyBattle], Verdict | None] | None = None
    square_type: type[Square] = Square  # what its squares hold beyond terrain (the core's: nothing)
    side_type: type[Side] = Side  # what it keeps on each side beyond its name and colour

    def __post_init__(self) -> None:
        keys = self.square_type.keys()
        for layer in self.map_layers:
            # A mark is kept on the square it names, so a layer must name one of its squares' fields.
            if layer.name not in keys:
                raise RulesetError(f"The map layer [{layer.name}] of `{self.id}` names no square field; use one of "
                                   f"{', '.join(keys) or 'none (its squares hold nothing)'}.")

    @property
    def test_kinds(self) -> dict[str, type[RollTest]]:
        """Return the test class of every kind its outcomes hold: the core's, overridden by its own."""
        return {**CORE_TESTS, **self.rolltests}

    @property
    def effect_kinds(self) -> dict[str, type[Effect]]:
        """Return the effect class of every kind its outcomes hold: the core's, overridden by its own."""
        return {**CORE_EFFECTS, **self.effects}

    @property
    def detail_kinds(self) -> dict[str, type[Details]]:
        """Return the details class of every order kind that reports some: the core's, overridden by its own."""
        return {**CORE_DETAILS, **self.details}

    def verdict(self, battle: Board) -> Verdict | None:
        """Return why a running battle is over, or None while it can still be fought."""
        return (self.battle_over or last_side_standing)(battle)

    def plays(self, kind: str) -> bool:
        """Return whether battles of this system resolve an order kind."""
        return self.handlers.handler(kind) is not None

    def reach_of(self, battle: Board, unit_name: str) -> Mapping[str, Mapping[str, float]]:
        """Return, per move mode, the squares a unit can move to now and their distance or cost."""
        if self.reach is not None:
            return self.reach(battle, unit_name)
        unit = battle.unit(unit_name)
        out: dict[str, dict[str, float]] = {mode: {} for mode in battle.ruleset.move_modes}
        for order in self.legal_orders(battle, unit):
            if isinstance(order, Move):
                out.setdefault(order.mode, {})[str(order.to)] = unit.cell.distance(order.to)
        return {mode: cells for mode, cells in out.items() if cells}

    @property
    def orders(self) -> dict[str, type[Order]]:
        """Return every order kind a battle of this system reads: the core's, shared tables', its own."""
        return {**CORE_ORDERS, **self.handlers.orders}

    def parse_order(self, text: str) -> Order:
        """Parse an order's text form as this system reads it (its own kinds win over the core's)."""
        return Order.parse(text, self.orders)

    def document(self, ruleset_id: str) -> dict[str, Any]:
        """Return the parsed TOML document of one of this system's rulesets."""
        path = resources.files(self.package).joinpath("data", f"{ruleset_id}.toml")
        try:
            return tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise RulesetError(f"{ruleset_id}.toml is not valid TOML: {exc}") from exc


_SYSTEMS: dict[str, System] = {}
_BY_RULESET: dict[str, System] = {}
_PROVIDERS: dict[str, str] = {}  # ruleset id -> the distribution that ships it, when known


def register(system: System, distribution: str | None = None) -> System:
    """Make a system's rulesets playable, shipped by a distribution if named; registering again changes nothing.

    A system must have a check phase for every kind it resolves, so `Battle.is_legal` never has to try one.
    """
    unchecked = system.handlers.unchecked()
    if unchecked:
        raise RulesetError(f"The rule system `{system.id}` has no check phase for {', '.join(unchecked)}; register "
                           "one with `HandlerTable.checks(kind)` beside each handler.")
    _SYSTEMS[system.id] = system
    add_order_table(system.id, system.handlers.orders)
    for rid in system.ruleset_ids:
        _BY_RULESET[rid] = system
        add_source(rid, functools.partial(system.document, rid))
        if distribution is not None:
            _PROVIDERS[rid] = distribution
    return system


def provider(ruleset_id: str) -> str | None:
    """Return the distribution that ships a ruleset, if its system was registered from one."""
    return _PROVIDERS.get(ruleset_id)


def registered() -> list[System]:
    """Return the registered systems, in registration order."""
    return list(_SYSTEMS.values())


def system_of(ruleset_id: str) -> System:
    """Return the system that plays a ruleset, or explain which rulesets exist."""
    found = _BY_RULESET.get(ruleset_id.strip().lower())
    if found is None:
        known = ", ".join(f"`{r}`" for r in _BY_RULESET) or "none (no rule system is installed)"
        raise RulesetError(f"There is no ruleset `{ruleset_id}`. Choose one of: {known}.")
    return found


def ruleset_ids() -> Iterable[str]:
    """Return the ids of every playable ruleset."""
    return tuple(_BY_RULESET)
