"""Timers: deadlines and reminders that must survive a restart and fire once."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from . import codec
from .engine import Engine
from .errors import BattleNotFound
from .program import Program, Query, changed, count, every, one, single
from .records import LEASED_KIND, TimerRecord

log = logging.getLogger(__name__)

_COLUMNS = "id, battle_id, kind, due_at, payload, fired_at"

_BATTLE_EXISTS = Query.of("SELECT 1 FROM battles WHERE id = ?")
_INSERT = Query.of("INSERT INTO timers (battle_id, kind, due_at, payload) VALUES (?, ?, ?, ?) RETURNING id")
# Cancelling deletes: a cancelled timer has nothing worth keeping, and a row that is
# gone can never be picked up by due().
_CANCEL_KIND = Query.of("DELETE FROM timers WHERE battle_id = ? AND kind = ? AND fired_at IS NULL")
_CANCEL_ALL = Query.of("DELETE FROM timers WHERE battle_id = ? AND fired_at IS NULL")
# "fired_at IS NULL" must appear literally for SQLite to use the partial index.
_DUE = Query.of(f"""
SELECT {_COLUMNS} FROM timers
WHERE fired_at IS NULL AND due_at <= ?
ORDER BY due_at, id LIMIT ?
""")
_PENDING = Query.of(f"""
SELECT {_COLUMNS} FROM timers
WHERE battle_id = ? AND fired_at IS NULL
ORDER BY due_at, id
""")
_GET = Query.of(f"SELECT {_COLUMNS} FROM timers WHERE id = ?")
_MARK_FIRED = Query.of("UPDATE timers SET fired_at = ? WHERE id = ? AND fired_at IS NULL")
_POSTPONE = Query.of("UPDATE timers SET due_at = ? WHERE id = ? AND fired_at IS NULL")
# Claim the earliest due timer nobody else is claiming. On PostgreSQL, SKIP LOCKED passes over a
# row another process is claiming this instant instead of waiting for it, and the row lock makes
# sure only one of them claims it; SQLite's write lock serialises the claims by itself.
# A deadline is claimed by setting fired_at. A leased kind (a reminder) is claimed by moving its due
# time to the lease's end instead: it is marked fired only once sent, and should the process stop
# first it comes due again when the lease runs out.
_CLAIM_SET = """
UPDATE timers SET fired_at = CASE WHEN kind = ? THEN fired_at ELSE ? END,
                  due_at = CASE WHEN kind = ? THEN ? ELSE due_at END
WHERE id = (
    SELECT id FROM timers WHERE fired_at IS NULL AND due_at <= ? ORDER BY due_at, id LIMIT 1"""
_CLAIM_DUE = Query.of(
    f"{_CLAIM_SET}\n) RETURNING {_COLUMNS}\n",
    postgres=f"{_CLAIM_SET}\n    FOR UPDATE SKIP LOCKED\n) RETURNING {_COLUMNS}\n",
)


def _timer(row: tuple[Any, ...]) -> TimerRecord:
    return TimerRecord(
        id=row[0], battle_id=row[1], kind=row[2], due_at=row[3], payload=codec.decode(row[4]), fired_at=row[5]
    )


class TimerRepo:
    """Schedule, cancel and claim battle timers."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

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

        def run() -> Program[int]:
            if (yield one(_BATTLE_EXISTS, battle_id)) is None:
                raise BattleNotFound(battle_id)
            if replace:
                yield count(_CANCEL_KIND, battle_id, kind)
            row = yield one(_INSERT, battle_id, kind, float(due_at), text)
            return int(row[0])

        timer_id = await self._engine.write(run())
        log.debug("scheduled timer %d (%s) for battle %d at %.3f", timer_id, kind, battle_id, due_at)
        return timer_id

    async def cancel(self, battle_id: int, kind: str | None = None) -> int:
        """Cancel a battle's pending timers (of one kind, or all); return how many."""
        program = changed(_CANCEL_ALL, battle_id) if kind is None else changed(_CANCEL_KIND, battle_id, kind)
        cancelled = await self._engine.write(program)
        if cancelled:
            log.debug("cancelled %d timer(s) of battle %d (kind %s)", cancelled, battle_id, kind)
        return int(cancelled)

    async def due(self, now: float, *, limit: int = 100) -> list[TimerRecord]:
        """Return unfired timers due at or before now, earliest first."""
        found = await self._engine.read(every(_DUE, float(now), limit))
        return [_timer(row) for row in found]

    async def mark_fired(self, timer_id: int, now: float) -> bool:
        """Claim a timer; True only for the first claim, so a timer never fires twice."""
        return bool(await self._engine.write(changed(_MARK_FIRED, float(now), timer_id)))

    async def claim_due(self, now: float, *, lease_until: float | None = None) -> TimerRecord | None:
        """Claim the earliest timer due by now that no process has claimed; None when there is none.

        A reminder is leased until `lease_until` (default: a minute) rather than marked fired: mark it
        fired once sent, or postpone it.
        """
        until = float(now) + 60.0 if lease_until is None else float(lease_until)
        row = await self._engine.write(
            single(_CLAIM_DUE, LEASED_KIND, float(now), LEASED_KIND, until, float(now)))
        return None if row is None else _timer(row)

    async def postpone(self, timer_id: int, due_at: float) -> bool:
        """Move an unfired timer to a later time (its work failed and is tried again then)."""
        return bool(await self._engine.write(changed(_POSTPONE, float(due_at), timer_id)))

    async def get(self, timer_id: int) -> TimerRecord | None:
        """Return one timer, fired or not, or None when it was cancelled or never existed."""
        row = await self._engine.read(single(_GET, timer_id))
        return None if row is None else _timer(row)

    async def pending(self, battle_id: int) -> list[TimerRecord]:
        """Return a battle's unfired timers, earliest first."""
        found = await self._engine.read(every(_PENDING, battle_id))
        return [_timer(row) for row in found]
