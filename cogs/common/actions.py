"""A unit's next legal actions as a player picks them: one choice per action, then a square or a target.

Built from `battle.legal_orders(unit)` alone, so every rule system with legal-order generation gets
buttons: the orders that differ only in where they go (`to`, `at`) or whom they hit (`target`) form one
group, which becomes one button followed by a square or target choice.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from cogs.common.words import action_title
from rules import turns
from rules.battle import Battle
from rules.coords import Cell
from rules.orders import Order
from rules.units import Unit

# The fields a player fills in after pressing an action's button, in the order they are looked for.
CHOICE_FIELDS = ("to", "at", "target")
TURN_ENDING = turns.TURN_ENDING
LABEL_MAX = 80
KEY_LENGTH = 12

Choosing = Literal["square", "unit"]


def _choice_field(order: Order) -> str | None:
    for name in CHOICE_FIELDS:
        value = getattr(order, name, None)
        if value not in (None, ""):
            return name
    return None


def order_key(order: Order) -> str:
    """Return the stable key of the action an order belongs to: the order with its square or target left out."""
    choice = _choice_field(order)
    base = dataclasses.replace(order, **{choice: None}) if choice else order
    return hashlib.sha1(str(base).encode()).hexdigest()[:KEY_LENGTH]


_FIELD_NAMES: dict[type[Order], tuple[str, ...]] = {}


def _same_action(order: Order, choice: str | None) -> Hashable:
    """Return a key shared by the orders that differ only in their square or target, cheaper than `order_key`.

    A wide reach gives hundreds of orders: each is compared by its fields here, and only each group is hashed
    into its stable key. An order with a field that cannot be hashed falls back to its stable key.
    """
    names = _FIELD_NAMES.get(type(order))
    if names is None:
        names = _FIELD_NAMES[type(order)] = tuple(f.name for f in dataclasses.fields(order))
    key = (type(order), choice, *(getattr(order, name) for name in names if name != choice))
    try:
        hash(key)
    except TypeError:
        return order_key(order)
    return key


def _detail(order: Order, choice: str | None) -> str:
    """Return what tells this action apart from others of its kind: a move's mode, an attack's weapon."""
    # Values are option choices (`impart_order`); a button reads them as words.
    parts = [str(getattr(order, f.name)).replace("_", " ") for f in dataclasses.fields(order)
             if f.name not in ("unit", choice) and isinstance(getattr(order, f.name), str) and getattr(order, f.name)]
    return ", ".join(parts)


def _shorten(text: str, limit: int) -> str:
    """Cut the middle out of a long text, so two weapons differing only at the end still read apart."""
    if len(text) <= limit:
        return text
    head = (limit - 1) * 2 // 3
    return text[:head] + "\u2026" + text[len(text) - (limit - 1 - head):]


@dataclass(frozen=True)
class ActionGroup:
    """One action a unit may take now: its orders (one per square or target), its cost and what is left."""

    key: str
    kind: str
    detail: str
    choice: str | None
    orders: tuple[Order, ...]
    cost: int | None = None
    left: int | None = None
    title: str = ""  # the action's name in its system's words, where it is not the kind's

    @property
    def verb(self) -> str:
        """Return the action's name as players say it: `Move`, `End turn`."""
        return self.title or action_title(self.kind)

    @property
    def choosing(self) -> Choosing | None:
        """Say what a player picks after pressing the button: a square, a unit, or nothing."""
        if self.choice is None:
            return None
        return "square" if isinstance(getattr(self.orders[0], self.choice), Cell) else "unit"

    @property
    def ends_turn(self) -> bool:
        """Return whether taking this action ends the unit's turn."""
        return self.kind in TURN_ENDING

    @property
    def label(self) -> str:
        """Return the button's text: the action and what it costs of what is left (`Move: half · 1 of 2 AP`)."""
        name = self.verb + (f": {self.detail}" if self.detail else "")
        if self.ends_turn:
            tail = f" ({self.left} AP unused)" if self.left else ""
        elif self.cost is None or self.left is None:
            tail = ""
        elif self.cost == 0:
            tail = " \u00b7 free"
        else:
            tail = f" \u00b7 {self.cost} of {self.left} AP"
        return _shorten(name, LABEL_MAX - len(tail)) + tail

    def squares(self) -> list[Cell]:
        """Return the squares on offer, north to south and west to east."""
        assert self.choice is not None
        cells = {getattr(o, self.choice) for o in self.orders}
        return sorted((c for c in cells if isinstance(c, Cell)), key=lambda c: (c.y, c.x))

    def targets(self) -> list[str]:
        """Return the names of the units on offer, in the order the rules listed them."""
        assert self.choice is not None
        return list(dict.fromkeys(str(getattr(o, self.choice)) for o in self.orders))

    def order_for(self, value: Any) -> Order | None:
        """Return this action's order aimed at a square or a unit name, if that one is on offer."""
        if self.choice is None:
            return self.orders[0]
        if isinstance(value, str) and self.choosing == "unit":
            wanted = value.lower()
            return next((o for o in self.orders if str(getattr(o, self.choice)).lower() == wanted), None)
        return next((o for o in self.orders if getattr(o, self.choice) == value), None)


def action_groups(battle: Battle[Any], unit: Unit, orders: Sequence[Order] | None = None) -> list[ActionGroup]:
    """Group what a unit may do now into the actions a player picks from, in the order the rules give them.

    `orders` are the unit's legal orders when the table service generated them already (after an order).
    """
    orders = battle.legal_orders(unit) if orders is None else orders
    engaged = turns.engaged(battle)
    left = turns.actions_left(battle, unit.id) if engaged else None
    alike: dict[Hashable, list[Order]] = {}
    for order in orders:
        alike.setdefault(_same_action(order, _choice_field(order)), []).append(order)
    # Orders alike by their fields share a stable key; two groups whose text reads the same (a field left at
    # None in one and at its default in the other) are one action, as `order_key` says.
    found: dict[str, list[Order]] = {}
    for members in alike.values():
        found.setdefault(order_key(members[0]), []).extend(members)
    groups = []
    for key, members in found.items():
        first = members[0]
        choice = _choice_field(first)
        cost = turns.order_cost(battle, first).points if engaged else None
        groups.append(ActionGroup(key=key, kind=first.kind, detail=_detail(first, choice), choice=choice,
                                  orders=tuple(members), cost=cost, left=left,
                                  title=action_title(first.kind, battle.system.id)))
    return groups


def find_group(groups: Sequence[ActionGroup], key: str) -> ActionGroup | None:
    """Return the action with this key, if the unit may still take it."""
    return next((g for g in groups if g.key == key), None)
