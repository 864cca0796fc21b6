"""The battles used lately, kept decoded: bounded, least recently used first out, valid only at their version.

An entry is what the last commit of a battle left: its version, its record and the `Battle` it holds, which
is shared (handed to listeners, replies and autocomplete) and therefore never changed. An order works on a
copy of it, so a refused order can never touch an entry.
Every use checks the entry's version against the database first (another process, or another
connection, may have written since): a stale entry is replaced, never used. An entry made where an order was
resolved also carries its battle's turn key, worked out off the event loop, so the next order need not.
"""

from __future__ import annotations

import enum
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

from rules.battle import Battle
from storage import BattleRecord

log = logging.getLogger(__name__)

DEFAULT_CAPACITY = 128


class Unknown(enum.Enum):
    """A value not worked out yet (a turn key, where None means that no turn is running)."""

    TURN = "unknown"


UNKNOWN: Final = Unknown.TURN
MaybeTurn: TypeAlias = str | Literal[Unknown.TURN] | None  # a turn key, or UNKNOWN when not worked out


@dataclass(frozen=True, slots=True)
class Kept:
    """A battle as stored at one version: its record, the shared, read-only Battle built from it and, when it
    was worked out with it, its turn key."""

    version: int
    record: BattleRecord
    battle: Battle
    turn: MaybeTurn = UNKNOWN


class BattleCache:
    """Keep the most recently used battles, at most `capacity` of them."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 0:
            raise ValueError("capacity must not be negative")
        self.capacity = capacity
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[int, Kept] = OrderedDict()

    def at(self, battle_id: int, version: int) -> Kept | None:
        """Return the kept battle if it is at exactly this version (counting a hit or a miss)."""
        kept = self._items.get(battle_id)
        if kept is None or kept.version != version:
            self.misses += 1
            return None
        self._items.move_to_end(battle_id)
        self.hits += 1
        return kept

    def latest(self, battle_id: int) -> Kept | None:
        """Return whatever is kept for a battle, to be checked against the stored version before use."""
        return self._items.get(battle_id)

    def keep(self, battle_id: int, kept: Kept) -> None:
        """Keep a battle as last read or committed, in place of whatever was kept for it."""
        # Always the latest word, even an older version (a database restored from a backup): keeping the
        # higher number instead could later match a different state that reached the same number.
        if self.capacity == 0:
            return
        self._items[battle_id] = kept
        self._items.move_to_end(battle_id)
        while len(self._items) > self.capacity:
            dropped, _ = self._items.popitem(last=False)
            log.debug("battle cache full: dropped battle %s", dropped)

    def items(self) -> list[tuple[int, Kept]]:
        """Return every kept battle with its id, least recently used first."""
        return list(self._items.items())

    def forget(self, battle_id: int) -> None:
        """Drop what is kept for a battle."""
        self._items.pop(battle_id, None)

    def __len__(self) -> int:
        """Return how many battles are kept."""
        return len(self._items)
