"""Per-battle locks: two orders for the same battle are serialised, in this process and across processes.

Holding a battle's lock means holding an asyncio.Lock of this process and then the database's lock for
that battle (an advisory lock on PostgreSQL, which every bot process sharing the database respects; a
SQLite file serves one process, so there it is only the asyncio.Lock). The lock is re-entrant for the
task holding it: the scheduler holds a battle's lock while it checks a deadline and then applies the
deadline's orders through the same service call a player's order uses, which takes the lock again.
Tasks the holder starts (notices) are other tasks and wait like anyone else.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from types import TracebackType

Across = Callable[[int], AbstractAsyncContextManager[None]]


@dataclass
class _Entry:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    owner: asyncio.Task[object] | None = None
    depth: int = 0
    users: int = 0
    across: AbstractAsyncContextManager[None] | None = None


class BattleLock:
    """Hold one battle's lock for the length of an ``async with`` block."""

    def __init__(self, locks: BattleLocks, key: int) -> None:
        self._locks = locks
        self._key = key

    async def __aenter__(self) -> None:
        await self._locks.acquire(self._key)

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self._locks.release(self._key)


class BattleLocks:
    """Hand out a re-entrant lock per battle id, held across processes when `across` is given."""

    def __init__(self, across: Across | None = None) -> None:
        self._across = across
        self._entries: dict[int, _Entry] = {}

    def get(self, battle_id: int) -> BattleLock:
        """Return the lock of a battle, to use as ``async with``."""
        return BattleLock(self, battle_id)

    def held(self, battle_id: int) -> bool:
        """Return whether the current task holds this battle's lock."""
        entry = self._entries.get(battle_id)
        return entry is not None and entry.owner is asyncio.current_task() and entry.depth > 0

    async def acquire(self, battle_id: int) -> None:
        """Take the battle's lock (again, if this task already holds it)."""
        task = asyncio.current_task()
        entry = self._entries.setdefault(battle_id, _Entry())
        if entry.owner is task and entry.depth:
            entry.depth += 1
            return
        entry.users += 1
        try:
            await entry.lock.acquire()
        except BaseException:
            self._forget(battle_id, entry)
            raise
        try:
            if self._across is not None:
                across = self._across(battle_id)
                await across.__aenter__()
                entry.across = across
        except BaseException:
            entry.lock.release()
            self._forget(battle_id, entry)
            raise
        entry.owner, entry.depth = task, 1

    async def release(self, battle_id: int) -> None:
        """Give the lock back once the outermost holder is done."""
        entry = self._entries[battle_id]
        entry.depth -= 1
        if entry.depth:
            return
        across, entry.across, entry.owner = entry.across, None, None
        try:
            if across is not None:
                await across.__aexit__(None, None, None)
        finally:
            entry.lock.release()
            self._forget(battle_id, entry)

    def _forget(self, battle_id: int, entry: _Entry) -> None:
        entry.users -= 1
        if entry.users == 0 and self._entries.get(battle_id) is entry:
            del self._entries[battle_id]
