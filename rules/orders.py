"""Orders: frozen, comparable moves of the game with a text form that round-trips.

The text form mirrors how Discord shows a slash command: `move unit:Eva-01 to:E5 mode:full`.
"""

from __future__ import annotations

import json
import shlex
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Literal, TypeVar, Union

from rules.coords import Cell
from rules.errors import InvalidOrderError
from rules.filelimits import ORDER_JSON, load_json, whole
from rules.squares import Square

# Who may give an order: the GM only, the GM or a player of the side it names (or of the side whose
# square it acts on), the GM or the owner of the unit it names, or anyone in the battle's server.
Authority = Literal["gm", "side", "owner", "anyone"]
AUTHORITIES: tuple[Authority, ...] = ("gm", "side", "owner", "anyone")

OrderT = TypeVar("OrderT", bound="type[Order]")

# The orders every rule system shares (setup, the map, rule overrides, dice); systems add their own.
CORE_ORDERS: dict[str, type[Order]] = {}


def order_kind(kind: str, authority: Authority = "gm") -> Callable[[OrderT], OrderT]:
    """Name an Order subclass's kind and who may give it (unknown means the GM only)."""

    def wrap(cls: OrderT) -> OrderT:
        cls.kind = kind
        cls.authority = authority
        return cls

    return wrap


def _order(kind: str, authority: Authority = "gm") -> Callable[[OrderT], OrderT]:
    """Declare one of the core orders."""

    def wrap(cls: OrderT) -> OrderT:
        order_kind(kind, authority)(cls)
        CORE_ORDERS[kind] = cls
        return cls

    return wrap


def _key(name: str) -> str:
    return "from" if name == "frm" else name


def _encode(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Cell):
        return str(value)
    if isinstance(value, tuple):
        return ",".join(_encode(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    return str(value)


def _decode(text: str, hint: Any, key: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        return _decode(text, args[0], key)
    if hint is bool:
        if text.lower() not in ("true", "false"):
            raise InvalidOrderError(f"`{key}` is true or false, not `{text}`.")
        return text.lower() == "true"
    if hint is int:
        return whole(text, key)
    if hint is Cell:
        return Cell.parse(text)
    if origin is tuple:
        (inner, _ellipsis) = typing.get_args(hint)
        return tuple(_decode(part, inner, key) for part in text.split(",") if part)
    if origin is dict or hint is dict:
        try:
            value = load_json(text, ORDER_JSON)
        except json.JSONDecodeError:
            raise InvalidOrderError(f"`{key}` must be a JSON object.") from None
        if not isinstance(value, dict):
            raise InvalidOrderError(f"`{key}` must be a JSON object.")
        return value
    return text


_HINTS: dict[type[Order], Mapping[str, Any]] = {}


def _hints(cls: type[Order]) -> Mapping[str, Any]:
    """Return the type of each field of an order class, resolved once per class (resolving them is slow)."""
    # A plain dict, not functools.cache: its typing wants a hashable argument, which mypy will not grant a class.
    found = _HINTS.get(cls)
    if found is None:
        found = _HINTS[cls] = typing.get_type_hints(cls)
    return found


@dataclass(frozen=True)
class Order:
    """Base of every order; subclasses are frozen dataclasses registered by kind."""

    kind: ClassVar[str] = ""
    authority: ClassVar[Authority] = "gm"
    # Options only a GM may set to anything but their default (a hidden roll, an attack's adjustment).
    gm_options: ClassVar[tuple[str, ...]] = ()
    # An order whose resolution may take long (a whole engagement fought at once): front ends resolve it
    # away from anything that must stay responsive.
    slow: ClassVar[bool] = False

    def acting_side(self, squares: Mapping[str, Square]) -> str | None:
        """Return the side a side-authority order acts for: by default the side it names."""
        side = getattr(self, "side", None)
        return str(side) if side else None

    def gm_options_used(self) -> list[str]:
        """Return the GM-only options this order sets away from their defaults."""
        defaults = {f.name: f.default for f in fields(self)}
        return [name for name in self.gm_options if getattr(self, name) != defaults.get(name)]

    def __str__(self) -> str:
        parts = [self.kind]
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None or value == f.default:
                continue
            parts.append(f"{_key(f.name)}:{shlex.quote(_encode(value))}")
        return " ".join(parts)

    @staticmethod
    def parse(text: str, kinds: Mapping[str, type[Order]] | None = None) -> Order:
        """Parse the text form of an order among these kinds (default: every kind that means one thing).

        A battle's orders are read with `battle.parse_order`, which knows the battle's own system.
        """
        try:
            tokens = shlex.split(text)
        except ValueError as exc:
            raise InvalidOrderError(f"Cannot read that order: {exc}.") from None
        if not tokens:
            raise InvalidOrderError("An order needs a kind, like `move unit:Eva-01 to:E5`.")
        table = known_orders() if kinds is None else kinds
        cls = table.get(tokens[0].lower())
        if cls is None and kinds is None and tokens[0].lower() in ambiguous_kinds():
            systems = ", ".join(ambiguous_kinds()[tokens[0].lower()])
            raise InvalidOrderError(
                f"`{tokens[0]}` is a different order in each of {systems}; read it with the battle's own rule "
                "system (`battle.parse_order`)."
            )
        if cls is None:
            known = ", ".join(sorted(table))
            raise InvalidOrderError(f"`{tokens[0]}` is not an order. Known orders: {known}.")
        hints = _hints(cls)
        by_key = {_key(f.name): f for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        for tok in tokens[1:]:
            key, sep, raw = tok.partition(":")
            if not sep or key not in by_key:
                options = ", ".join(by_key)
                raise InvalidOrderError(f"`{tok}` is not an option of `{cls.kind}`; options are {options}.")
            f = by_key[key]
            kwargs[f.name] = _decode(raw, hints[f.name], key)
        try:
            return cls(**kwargs)
        except TypeError:
            missing = [_key(f.name) for f in fields(cls) if f.name not in kwargs and f.default is f.default_factory]
            raise InvalidOrderError(f"`{cls.kind}` needs {', '.join(missing)}.") from None


# --- setup (GM) -------------------------------------------------------------


@_order("paint")
@dataclass(frozen=True)
class Paint(Order):
    """Paint terrain on a rectangle of squares (or on a list of cells)."""

    terrain: str
    frm: Cell | None = None
    to: Cell | None = None
    cells: tuple[Cell, ...] = ()


@_order("import-map")
@dataclass(frozen=True)
class ImportMap(Order):
    """Replace the battle's map with a map file: terrain, size, the system's layers and any edges."""

    text: str


@_order("import-homebrew")
@dataclass(frozen=True)
class ImportHomebrew(Order):
    """Replace the battle's homebrew rows (terrain, features, the system's own tables) with a TOML table's."""

    text: str


@_order("set-edge")
@dataclass(frozen=True)
class SetEdge(Order):
    """Put an obstacle on the edges between squares (`C3|C4` or `C3:n`, several with commas)."""

    edges: str
    obstacle: str = "wall"
    height: str = "1"
    thickness: str = "0.5"
    opening: str = "0"
    openable: bool = True


@_order("clear-edge")
@dataclass(frozen=True)
class ClearEdge(Order):
    """Take the obstacles off some edges."""

    edges: str


@_order("add-unit")
@dataclass(frozen=True)
class AddUnit(Order):
    """Put a unit on the map with its stat block."""

    name: str
    side: str
    at: Cell
    owner: int | None = None
    stats: dict[str, Any] | None = None


@_order("edit-unit")
@dataclass(frozen=True)
class EditUnit(Order):
    """Change fields of a unit's stat block."""

    unit: str
    stats: dict[str, Any] | None = None


@_order("remove-unit")
@dataclass(frozen=True)
class RemoveUnit(Order):
    """Take a unit off the map."""

    unit: str


@_order("start")
@dataclass(frozen=True)
class Start(Order):
    """End setup and begin round 1."""


@_order("end")
@dataclass(frozen=True)
class End(Order):
    """End the battle."""


@_order("side-colour")
@dataclass(frozen=True)
class SetSideColour(Order):
    """Give a side its colour on the map, the legend and the charts: a colour's name or `#rrggbb` (GM)."""

    side: str
    colour: str


@_order("set-rule")
@dataclass(frozen=True)
class SetRule(Order):
    """Override a named rule constant for this battle."""

    key: str
    value: str


# --- play -------------------------------------------------------------------


@_order("move", "owner")
@dataclass(frozen=True)
class Move(Order):
    """Move a unit along the cheapest legal path to a square."""

    unit: str
    to: Cell
    mode: str = "full"


@_order("test", "owner")
@dataclass(frozen=True)
class SkillTest(Order):
    """Make a d100 test of a characteristic or skill with a modifier."""

    unit: str
    stat: str
    modifier: int = 0
    reason: str = ""


@_order("roll", "anyone")
@dataclass(frozen=True)
class Roll(Order):
    """Roll dice in the open (or hidden, for the GM)."""

    gm_options = ("hidden",)

    dice: str
    purpose: str = ""
    hidden: bool = False


# The order tables of the registered systems, by system id: only for parsing text whose battle is unknown.
_SYSTEM_ORDERS: dict[str, Mapping[str, type[Order]]] = {}


def add_order_table(system_id: str, table: Mapping[str, type[Order]]) -> None:
    """Make a rule system's orders parseable without naming the system (its registration calls this)."""
    _SYSTEM_ORDERS[system_id] = dict(table)


def _declarers() -> dict[str, dict[type[Order], list[str]]]:
    """Return, per order kind, each class declared for it and the systems (or the core) declaring it."""
    out: dict[str, dict[type[Order], list[str]]] = {}
    for kind, cls in CORE_ORDERS.items():
        out.setdefault(kind, {}).setdefault(cls, []).append("the core")
    for system_id, table in _SYSTEM_ORDERS.items():
        for kind, cls in table.items():
            out.setdefault(kind, {}).setdefault(cls, []).append(system_id)
    return out


def ambiguous_kinds() -> dict[str, list[str]]:
    """Return the kinds that name different orders in different systems, with those systems."""
    return {
        kind: sorted({who for names in by_cls.values() for who in names})
        for kind, by_cls in _declarers().items() if len(by_cls) > 1
    }


def known_orders(tables: Iterable[Mapping[str, type[Order]]] = ()) -> dict[str, type[Order]]:
    """Return the core orders with every registered system's orders that mean one thing everywhere.

    A kind that two systems declare differently is left out: only the battle's own system can read it
    (`System.parse_order`). Tables passed in are added last and win.
    """
    out = dict(CORE_ORDERS)
    clashes = ambiguous_kinds()
    for table in _SYSTEM_ORDERS.values():
        out.update({kind: cls for kind, cls in table.items() if kind not in clashes})
    for table in tables:
        out.update(table)
    return out


def order_kinds() -> list[str]:
    """Return every known order kind."""
    return sorted(set(known_orders()) | set(ambiguous_kinds()))
