"""What M42 works out once per state of a battle: a walk's reach, what the other units put around a unit.

A battle changes only through its orders, but nothing counts them, so what is kept is stamped with everything
it was worked out from (the map, the rules, where every model stands) and worked out again when that differs.
"""

from __future__ import annotations

from typing import Any

from rules.systems.m42.board import Battle
from rules.systems.m42.squares import all_squares


def map_key(battle: Battle) -> tuple[Any, ...]:
    """Return what tells one map from another for walking on it: ruleset, size, terrain, edges, floors."""
    floors = tuple(sorted((k, sq.floors) for k, sq in all_squares(battle) if sq.floors))
    return (battle.ruleset_id, battle.width, hash(tuple(battle.terrain)), hash(frozenset(battle.edges.items())),
            hash(floors))


def stamp(battle: Battle) -> tuple[Any, ...]:
    """Return everything kept work reads of a battle: map, roads, rules, actions, every unit and model."""
    roads = tuple(sorted(k for k, sq in all_squares(battle) if sq.road))
    # Spots are frozen: the tuple of a unit that has not moved holds the very same ones, compared at once.
    models = tuple((u.id, u.name, u.side, u.x, u.y, u.level, tuple(u.models)) for u in battle.iter_units())
    return (map_key(battle), roads, tuple(sorted(battle.constants.items())), repr(battle.homebrew), models)


def kept(battle: Battle, what: str) -> dict[Any, Any]:
    """Return the store of one kind of work for the battle as it stands now, emptied when the battle changed."""
    now = stamp(battle)
    found: tuple[tuple[Any, ...], dict[str, dict[Any, Any]]] | None = battle.__dict__.get("_m42_kept")
    if found is None or found[0] != now:
        found = (now, {})
        battle.__dict__["_m42_kept"] = found
    return found[1].setdefault(what, {})
