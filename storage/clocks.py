"""Turn clocks: each battle's deadline rules and the state of its current turn's deadline."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from typing import Any, cast

from . import codec
from .errors import BattleNotFound
from .executor import Executor
from .records import DEADLINE_POLICIES, TURN_TIMER_KINDS, ClockRecord, DeadlinePolicy, NewTimer

log = logging.getLogger(__name__)

_COLUMNS = (
    "battle_id, deadline, policy, reminders, turn_key, turn_started, due_at, paused_at, remaining, expired_at"
)
_GET = f"SELECT {_COLUMNS} FROM battle_clocks WHERE battle_id = ?"
_UPSERT = f"""
INSERT INTO battle_clocks ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (battle_id) DO UPDATE SET
    deadline = excluded.deadline, policy = excluded.policy, reminders = excluded.reminders,
    turn_key = excluded.turn_key, turn_started = excluded.turn_started, due_at = excluded.due_at,
    paused_at = excluded.paused_at, remaining = excluded.remaining, expired_at = excluded.expired_at
"""
_BATTLE_EXISTS = "SELECT 1 FROM battles WHERE id = ?"
# Only unfired rows go: fired ones are the history of what already happened.
_CANCEL_TURN_TIMERS = (
    f"DELETE FROM timers WHERE battle_id = ? AND fired_at IS NULL AND kind IN ({', '.join('?' * len(TURN_TIMER_KINDS))})"
)
_INSERT_TIMER = "INSERT INTO timers (battle_id, kind, due_at, payload) VALUES (?, ?, ?, ?)"


def _clock(row: tuple[Any, ...]) -> ClockRecord:
    reminders = codec.decode_list(row[3])
    return ClockRecord(
        battle_id=row[0], deadline=row[1], policy=cast(DeadlinePolicy, row[2]),
        reminders=tuple(str(r) for r in reminders), turn_key=row[4], turn_started=row[5], due_at=row[6],
        paused_at=row[7], remaining=row[8], expired_at=row[9],
    )


def check_clock(clock: ClockRecord) -> None:
    """Refuse a clock no battle could run under."""
    if clock.policy not in DEADLINE_POLICIES:
        raise ValueError(f"policy must be one of {sorted(DEADLINE_POLICIES)}, not {clock.policy!r}")
    if clock.deadline <= 0:
        raise ValueError("deadline must be positive")


def write_clock(raw: sqlite3.Connection, clock: ClockRecord) -> None:
    """Insert or replace a clock row inside the caller's transaction."""
    raw.execute(_UPSERT, (
        clock.battle_id, clock.deadline, clock.policy, codec.encode_list(list(clock.reminders)), clock.turn_key,
        clock.turn_started, clock.due_at, clock.paused_at, clock.remaining, clock.expired_at,
    ))


class ClockRepo:
    """Read and replace battle clocks, together with the timers that wake the scheduler for them."""

    def __init__(self, executor: Executor) -> None:
        self._executor = executor

    async def get(self, battle_id: int) -> ClockRecord:
        """Return a battle's clock; a battle whose GM never set one gets the defaults."""
        row = await self._executor.read(lambda raw: raw.execute(_GET, (battle_id,)).fetchone())
        return ClockRecord(battle_id=battle_id) if row is None else _clock(row)

    async def save(self, clock: ClockRecord, *, timers: Sequence[NewTimer] | None = None) -> list[int]:
        """Store a clock; with timers, replace its pending deadline and reminders in the same transaction."""
        check_clock(clock)
        for timer in timers or ():
            if timer.kind not in TURN_TIMER_KINDS:
                raise ValueError(f"a clock schedules only {TURN_TIMER_KINDS} timers, not {timer.kind!r}")
        rows = [(clock.battle_id, t.kind, t.due_at, codec.encode(t.payload)) for t in timers or ()]

        def run(raw: sqlite3.Connection) -> list[int]:
            if raw.execute(_BATTLE_EXISTS, (clock.battle_id,)).fetchone() is None:
                raise BattleNotFound(clock.battle_id)
            write_clock(raw, clock)
            if timers is None:
                return []
            raw.execute(_CANCEL_TURN_TIMERS, (clock.battle_id, *TURN_TIMER_KINDS))
            return [cast(int, raw.execute(_INSERT_TIMER, row).lastrowid) for row in rows]

        ids = await self._executor.write(run)
        log.debug("battle %d clock saved (turn %s, due %s, %d timer(s))", clock.battle_id, clock.turn_key,
                  clock.due_at, len(ids))
        return ids
