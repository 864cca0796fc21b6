"""Forces carried from one battle to the next: the survivors' document, and reading it back as orders.

The document is JSON: `{"ruleset": "surface", "forces": {side: [{"name", "owner", "stats"}]}}`, where
stats hold the unit's type, its A64 ratings, its flags and the damage it carries.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError, InvalidOrderError, shorten
from rules.filelimits import Limits, load_json
from rules.orders import AddUnit
from rules.systems.surface.units import ESCAPED

FORMAT = "surface"
# A forces document: sides holding lists of units, each with a small table of stats.
LIMITS = Limits("a forces file", max_bytes=2 * 1024 * 1024, max_depth=8, max_containers=20_000, max_values=200_000,
                max_string=2_000)


def survivors(battle: Battle[Any]) -> dict[str, Any]:
    """Return the units still in the fight, with their ratings and damage, as a forces document."""
    out: dict[str, Any] = {"ruleset": FORMAT, "forces": {}}
    for u in battle.iter_units():
        if u.alive and u.state != ESCAPED:
            stats = {"type": u.utype, **u.ratings(), "flags": list(u.flags), "damage": u.damage}
            out["forces"].setdefault(u.side, []).append({"name": u.name, "owner": u.owner, "stats": stats})
    return out


def _entry(side: str, index: int, row: Any) -> AddUnit:
    where = f"`forces.{shorten(side, 40)}[{index}]`"
    if not isinstance(row, dict):
        raise InvalidOrderError(f"{where} must be an object with `name`, `owner` and `stats`.")
    name = row.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidOrderError(f"{where}: `name` must be the unit's name.")
    owner = row.get("owner")
    if owner is not None and (isinstance(owner, bool) or not isinstance(owner, int) or owner <= 0):
        raise InvalidOrderError(f"{where} ({name}): `owner` must be a Discord user id or null, not `{owner}`.")
    stats = row.get("stats", {})
    if not isinstance(stats, dict):
        raise InvalidOrderError(f"{where} ({name}): `stats` must be an object, like {{\"type\": \"grunts\"}}.")
    return AddUnit(name=name, side=side, at=Cell(0, 0), owner=owner, stats=stats)


def read_forces(text: str) -> list[AddUnit]:
    """Read a forces document into the orders that add its units; a malformed entry is named."""
    try:
        data = load_json(text, LIMITS)
    except json.JSONDecodeError as exc:
        raise InvalidOrderError(f"The file is not valid JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}.") from None
    if not isinstance(data, dict) or data.get("ruleset") != FORMAT or not isinstance(data.get("forces"), dict):
        raise InvalidOrderError(
            'The file is not a forces document: it needs `"ruleset": "surface"` and a `forces` object of sides '
            "(the file `/surface export` gives)."
        )
    orders = [_entry(str(side), i, row) for side, rows in data["forces"].items()
              for i, row in enumerate(rows if isinstance(rows, list) else [rows])]
    if not orders:
        raise InvalidOrderError("The file holds no units; a force needs at least one.")
    return orders


def add_forces(battle: Battle[Any], orders: list[AddUnit], add: Callable[[AddUnit], None]) -> None:
    """Add every unit with `add`, naming the unit a refusal is about (the caller undoes the rest)."""
    for order in orders:
        try:
            add(order)
        except GameError as exc:
            raise type(exc)(f"Unit `{shorten(order.name, 64)}` of {shorten(order.side, 64)}: {exc.message}") from None
