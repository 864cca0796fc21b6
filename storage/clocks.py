"""Turn clocks: each battle's deadline rules and the state of its current turn's deadline."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, cast

from . import codec
from .engine import Engine
from .errors import BattleNotFound
from .program import Program, Query, Step, count, every, one, single
from .records import DEADLINE_POLICIES, TURN_TIMER_KINDS, ClockRecord, DeadlinePolicy, NewTimer

log = logging.getLogger(__name__)

_COLUMNS = (
    "battle_id, deadline, policy, reminders, turn_key, turn_started, due_at, paused_at, remaining, expired_at, "
    "zone, at_minute, skip_weekends, quiet_from, quiet_to, bank_start, bank_per_turn, bank_cap, banks, bank_due, "
    "vacation_allowance, vacation_used, vacation_turn"
)
_GET = Query.of(f"SELECT {_COLUMNS} FROM battle_clocks WHERE battle_id = ?")
_UPSERT = Query.of(f"""
INSERT INTO battle_clocks ({_COLUMNS}) VALUES ({", ".join("?" * 23)})
ON CONFLICT (battle_id) DO UPDATE SET
    deadline = excluded.deadline, policy = excluded.policy, reminders = excluded.reminders,
    turn_key = excluded.turn_key, turn_started = excluded.turn_started, due_at = excluded.due_at,
    paused_at = excluded.paused_at, remaining = excluded.remaining, expired_at = excluded.expired_at,
    zone = excluded.zone, at_minute = excluded.at_minute, skip_weekends = excluded.skip_weekends,
    quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to, bank_start = excluded.bank_start,
    bank_per_turn = excluded.bank_per_turn, bank_cap = excluded.bank_cap, banks = excluded.banks,
    bank_due = excluded.bank_due,
    vacation_allowance = excluded.vacation_allowance, vacation_used = excluded.vacation_used,
    vacation_turn = excluded.vacation_turn
""")
_BATTLE_EXISTS = Query.of("SELECT 1 FROM battles WHERE id = ?")
# Only unfired rows go: fired ones are the history of what already happened.
_CANCEL_TURN_TIMERS = Query.of(
    f"DELETE FROM timers WHERE battle_id = ? AND fired_at IS NULL AND kind IN ({', '.join('?' * len(TURN_TIMER_KINDS))})"
)
# Running turns of active battles whose deadline is past and neither dealt with nor still scheduled: the
# process that claimed the deadline stopped before applying it.
_OVERDUE = Query.of("""
SELECT c.battle_id FROM battle_clocks c JOIN battles b ON b.id = c.battle_id
WHERE b.status = 'active' AND c.turn_key IS NOT NULL AND c.expired_at IS NULL AND c.paused_at IS NULL
  AND c.due_at < ?
  AND NOT EXISTS (SELECT 1 FROM timers t WHERE t.battle_id = c.battle_id AND t.kind = 'deadline'
                  AND t.fired_at IS NULL)
ORDER BY c.battle_id
""")
# Active battles whose clock may be out of step after a stop: the turn written with the battle's state is
# not known or is not the clock's, or the clock's running turn has no deadline timer left to end it.
_UNSETTLED = Query.of("""
SELECT b.id FROM battles b LEFT JOIN battle_clocks c ON c.battle_id = b.id
WHERE b.status = 'active' AND (
    b.turn_key IS NULL
    OR b.turn_key != COALESCE(c.turn_key, '')
    OR (c.turn_key IS NOT NULL AND c.expired_at IS NULL AND c.paused_at IS NULL AND c.due_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM timers t WHERE t.battle_id = b.id AND t.kind = 'deadline'
                        AND t.fired_at IS NULL)))
ORDER BY b.id
""")
_INSERT_TIMER = Query.of("INSERT INTO timers (battle_id, kind, due_at, payload) VALUES (?, ?, ?, ?) RETURNING id")


def _seconds(text: str) -> dict[str, float]:
    return {str(k): float(v) for k, v in codec.decode(text).items()}


def _clock(row: tuple[Any, ...]) -> ClockRecord:
    reminders = codec.decode_list(row[3])
    quiet = None if row[13] is None or row[14] is None else (int(row[13]), int(row[14]))
    bank = None if row[15] is None else (float(row[15]), float(row[16]), float(row[17]))
    return ClockRecord(
        battle_id=row[0], deadline=row[1], policy=cast(DeadlinePolicy, row[2]),
        reminders=tuple(str(r) for r in reminders), turn_key=row[4], turn_started=row[5], due_at=row[6],
        paused_at=row[7], remaining=row[8], expired_at=row[9], zone=row[10], at_minute=row[11],
        skip_weekends=bool(row[12]), quiet=quiet, bank=bank, banks=_seconds(row[18]),
        bank_due=tuple(str(s) for s in codec.decode_list(row[19])), vacation_allowance=float(row[20]),
        vacation_used=_seconds(row[21]), vacation_turn=_seconds(row[22]),
    )


def _real(value: float | None) -> float | None:
    # PostgreSQL's driver types parameters strictly: a whole number of seconds must still go as a float.
    return None if value is None else float(value)


def check_clock(clock: ClockRecord) -> None:
    """Refuse a clock no battle could run under."""
    if clock.policy not in DEADLINE_POLICIES:
        raise ValueError(f"policy must be one of {sorted(DEADLINE_POLICIES)}, not {clock.policy!r}")
    if clock.deadline <= 0:
        raise ValueError("deadline must be positive")
    minutes = [m for m in (clock.at_minute, *(clock.quiet or ())) if m is not None]
    if any(not 0 <= m < 24 * 60 for m in minutes):
        raise ValueError("clock hours must be minutes after midnight, 0 to 1439")
    if clock.vacation_allowance < 0:
        raise ValueError("the vacation allowance cannot be negative")


def write_clock(clock: ClockRecord) -> Step:
    """Return the step that inserts or replaces a clock row, for the caller's transaction."""
    return count(
        _UPSERT, clock.battle_id, float(clock.deadline), clock.policy, codec.encode_list(list(clock.reminders)),
        clock.turn_key, _real(clock.turn_started), _real(clock.due_at), _real(clock.paused_at),
        _real(clock.remaining), _real(clock.expired_at), clock.zone, clock.at_minute, int(clock.skip_weekends),
        *(clock.quiet or (None, None)), *(_real(v) for v in (clock.bank or (None, None, None))),
        codec.encode(clock.banks), codec.encode_list(list(clock.bank_due)), float(clock.vacation_allowance),
        codec.encode(clock.vacation_used), codec.encode(clock.vacation_turn),
    )


class ClockRepo:
    """Read and replace battle clocks, together with the timers that wake the scheduler for them."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def get(self, battle_id: int) -> ClockRecord:
        """Return a battle's clock; a battle whose GM never set one gets the defaults."""
        row = await self._engine.read(single(_GET, battle_id))
        return ClockRecord(battle_id=battle_id) if row is None else _clock(row)

    async def overdue(self, before: float) -> list[int]:
        """Return active battles whose turn was due before `before` with no deadline timer left to apply it."""
        found = await self._engine.read(every(_OVERDUE, float(before)))
        return [int(row[0]) for row in found]

    async def unsettled(self) -> list[int]:
        """Return the active battles whose clock may be out of step with their turn (see _UNSETTLED)."""
        found = await self._engine.read(every(_UNSETTLED))
        return [int(row[0]) for row in found]

    async def save(self, clock: ClockRecord, *, timers: Sequence[NewTimer] | None = None) -> list[int]:
        """Store a clock; with timers, replace its pending deadline and reminders in the same transaction."""
        check_clock(clock)
        for timer in timers or ():
            if timer.kind not in TURN_TIMER_KINDS:
                raise ValueError(f"a clock schedules only {TURN_TIMER_KINDS} timers, not {timer.kind!r}")
        new_rows = [(clock.battle_id, t.kind, float(t.due_at), codec.encode(t.payload)) for t in timers or ()]

        def run() -> Program[list[int]]:
            if (yield one(_BATTLE_EXISTS, clock.battle_id)) is None:
                raise BattleNotFound(clock.battle_id)
            yield write_clock(clock)
            if timers is None:
                return []
            yield count(_CANCEL_TURN_TIMERS, clock.battle_id, *TURN_TIMER_KINDS)
            ids: list[int] = []
            for row in new_rows:
                inserted = yield one(_INSERT_TIMER, *row)
                ids.append(int(inserted[0]))
            return ids

        ids = await self._engine.write(run())
        log.debug("battle %d clock saved (turn %s, due %s, %d timer(s))", clock.battle_id, clock.turn_key,
                  clock.due_at, len(ids))
        return ids
