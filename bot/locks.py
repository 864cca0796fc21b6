"""Per-battle locks: two orders for the same battle are serialised, different battles run freely."""

from __future__ import annotations

import asyncio
import weakref


class BattleLocks:
    """Hand out one asyncio.Lock per battle id, forgotten once nobody holds a reference."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def get(self, battle_id: int) -> asyncio.Lock:
        """Return the lock of a battle."""
        lock = self._locks.get(battle_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[battle_id] = lock
        return lock
