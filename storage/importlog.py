"""Write a new battle, with its whole log and clock when imported, inside one transaction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from . import codec
from .clocks import check_clock, write_clock
from .program import Program, Query, count, one
from .records import CREATE_KIND, RESERVED_KINDS, BattleStatus, ClockRecord, LoggedEvent, NewEvent

_INSERT_BATTLE = Query.of("""
INSERT INTO battles (guild_id, channel_id, thread_id, name, ruleset, status, created_by,
                     created_at, updated_at, version, state)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id
""")
_INSERT_CREATE_EVENT = Query.of("""
INSERT INTO events (battle_id, seq, actor_id, kind, order_text, outcome, hidden, undone, created_at)
VALUES (?, 1, ?, ?, ?, NULL, 0, 0, ?)
""")
INSERT_EVENT = Query.of("""
INSERT INTO events (battle_id, seq, actor_id, kind, order_text, outcome, hidden, undone, created_at,
                    status_before, state_before)
VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)
""")


def pack_event(event: NewEvent, state_before: Mapping[str, Any], status_before: BattleStatus,
               created_at: float | None = None) -> LoggedEvent:
    """Encode one order of a log and the state before it (and when it was first given, if it was before now)."""
    if event.kind in RESERVED_KINDS:
        raise ValueError(f"event kind {event.kind!r} is written by the storage layer itself")
    return LoggedEvent(
        actor_id=event.actor_id, kind=event.kind, order_text=event.order_text,
        outcome=codec.encode_optional(event.outcome), hidden=event.hidden, status_before=status_before,
        snapshot=codec.pack_state(state_before), created_at=created_at,
    )


def insert_battle_with_log(
    *,
    battle: tuple[int, int, int | None, str, str, BattleStatus, int],
    state_text: str,
    log: Sequence[LoggedEvent],
    clock: ClockRecord | None,
    now: float,
    begun: float | None = None,
) -> Program[int]:
    """Insert the battle (guild, channel, thread, name, ruleset, status, creator), its log and clock; return its id.

    An imported log keeps its dates: each event's own `created_at`, and `begun` for the battle's creation.
    """
    guild_id, channel_id, thread_id, name, ruleset, status, created_by = battle
    row = yield one(_INSERT_BATTLE, guild_id, channel_id, thread_id, name, ruleset, status, created_by, now, now,
                    1 + len(log), state_text)
    battle_id = int(row[0])
    yield count(_INSERT_CREATE_EVENT, battle_id, created_by, CREATE_KIND, CREATE_KIND, now if begun is None else begun)
    for seq, e in enumerate(log, start=2):
        at = now if e.created_at is None else e.created_at
        yield count(INSERT_EVENT, battle_id, seq, e.actor_id, e.kind, e.order_text, e.outcome, int(e.hidden), at,
                    e.status_before, e.snapshot)
    if clock is not None:
        check_clock(clock)
        yield write_clock(replace(clock, battle_id=battle_id))
    return battle_id
