"""Timers: deadlines and reminders that must survive a restart and fire once."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping
from typing import Any, cast

from . import codec
from .errors import BattleNotFound
from .executor import Executor
from .records import TimerRecord

log = logging.getLogger(__name__)

_COLUMNS = "id, battle_id, kind, due_at, payload, fired_at"

_BATTLE_EXISTS = "SELECT 1 FROM battles WHERE id = ?"
_INSERT = "INSERT INTO timers (battle_id, kind, due_at, payload) VALUES (?, ?, ?, ?)"
# Cancelling deletes: a cancelled timer has nothing worth keeping, and a row that is
# gone can never be picked up by due().
_CANCEL_KIND = "DELETE FROM timers WHERE battle_id = ? AND kind = ? AND fired_at IS NULL"
_CANCEL_ALL = "DELETE FROM timers WHERE battle_id = ? AND fired_at IS NULL"
# "fired_at IS NULL" must appear literally for SQLite to use the partial index.
_DUE = f"""
SELECT {_COLUMNS} FROM timers
WHERE fired_at IS NULL AND due_at <= ?
ORDER BY due_at, id LIMIT ?
"""
_PENDING = f"""
SELECT {_COLUMNS} FROM timers
WHERE battle_id = ? AND fired_at IS NULL
ORDER BY due_at, id
"""
_GET = f"SELECT {_COLUMNS} FROM timers WHERE id = ?"
_MARK_FIRED = "UPDATE timers SET fired_at = ? WHERE id = ? AND fired_at IS NULL"
# A lease moves a due timer's time forward: only one pass gets it, and if the process stops before
# the work is done the timer comes due again when the lease runs out.
_LEASE = "UPDATE timers SET due_at = ? WHERE id = ? AND fired_at IS NULL AND due_at <= ?"
_POSTPONE = "UPDATE timers SET due_at = ? WHERE id = ? AND fired_at IS NULL"


def _timer(row: tuple[Any, ...]) -> TimerRecord:
    return TimerRecord(
        id=row[0], battle_id=row[1], kind=row[2], due_at=row[3], payload=codec.decode(row[4]), fired_at=row[5]
    )


class TimerRepo:
    """Schedule, cancel and claim battle timers."""

    def __init__(self, executor: Executor) -> None:
        self._executor = executor

    async def schedule(
        self,
        battle_id: int,
        kind: str,
        due_at: float,
        payload: Mapping[str, Any] | None = None,
        *,
        replace: bool = False,
    ) -> int:
        """Schedule a timer and return its id; with replace, first cancel pending timers of that kind."""
        text = codec.encode(payload or {})

        def run(raw: sqlite3.Connection) -> int:
            if raw.execute(_BATTLE_EXISTS, (battle_id,)).fetchone() is None:
                raise BattleNotFound(battle_id)
            if replace:
                raw.execute(_CANCEL_KIND, (battle_id, kind))
            return cast(int, raw.execute(_INSERT, (battle_id, kind, due_at, text)).lastrowid)

        timer_id = await self._executor.write(run)
        log.debug("scheduled timer %d (%s) for battle %d at %.3f", timer_id, kind, battle_id, due_at)
        return timer_id

    async def cancel(self, battle_id: int, kind: str | None = None) -> int:
        """Cancel a battle's pending timers (of one kind, or all); return how many."""
        sql, params = (_CANCEL_ALL, (battle_id,)) if kind is None else (_CANCEL_KIND, (battle_id, kind))
        cancelled = await self._executor.write(lambda raw: raw.execute(sql, params).rowcount)
        if cancelled:
            log.debug("cancelled %d timer(s) of battle %d (kind %s)", cancelled, battle_id, kind)
        return int(cancelled)

    async def due(self, now: float, *, limit: int = 100) -> list[TimerRecord]:
        """Return unfired timers due at or before now, earliest first."""
        rows = await self._executor.read(lambda raw: raw.execute(_DUE, (now, limit)).fetchall())
        return [_timer(row) for row in rows]

    async def mark_fired(self, timer_id: int, now: float) -> bool:
        """Claim a timer; True only for the first claim, so a timer never fires twice."""
        changed = await self._executor.write(lambda raw: raw.execute(_MARK_FIRED, (now, timer_id)).rowcount)
        return bool(changed)

    async def lease(self, timer_id: int, now: float, until: float) -> bool:
        """Claim a due timer until `until` without firing it; True only for the pass that got it.

        Mark it fired once its work is done; a process that stops first leaves it due again at `until`.
        """
        changed = await self._executor.write(lambda raw: raw.execute(_LEASE, (until, timer_id, now)).rowcount)
        return bool(changed)

    async def postpone(self, timer_id: int, due_at: float) -> bool:
        """Move an unfired timer to a later time (its work failed and is tried again then)."""
        changed = await self._executor.write(lambda raw: raw.execute(_POSTPONE, (due_at, timer_id)).rowcount)
        return bool(changed)

    async def get(self, timer_id: int) -> TimerRecord | None:
        """Return one timer, fired or not, or None when it was cancelled or never existed."""
        row = await self._executor.read(lambda raw: raw.execute(_GET, (timer_id,)).fetchone())
        return None if row is None else _timer(row)

    async def pending(self, battle_id: int) -> list[TimerRecord]:
        """Return a battle's unfired timers, earliest first."""
        rows = await self._executor.read(lambda raw: raw.execute(_PENDING, (battle_id,)).fetchall())
        return [_timer(row) for row in rows]
