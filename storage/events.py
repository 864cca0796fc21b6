"""Events: the per-battle log of orders, read newest first for history and audit."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from rules.replay import Step

from . import codec
from .engine import Engine
from .errors import StorageError
from .program import Program, Query, changed, every, one, rows, single
from .records import RESERVED_KINDS, EventRecord, JsonDict, rebuild

log = logging.getLogger(__name__)

# Never state_before: the snapshot is only read by undo, inside its own transaction.
EVENT_COLUMNS = "battle_id, seq, actor_id, kind, order_text, outcome, hidden, undone, created_at"

EventList = list[EventRecord]
BattleIds = list[int]

_LAST_SEQ = Query.of("SELECT seq FROM events WHERE battle_id = ? ORDER BY seq DESC LIMIT 1")
_GET = Query.of(f"SELECT {EVENT_COLUMNS} FROM events WHERE battle_id = ? AND seq = ?")
_COUNT = Query.of("SELECT COUNT(*) FROM events WHERE battle_id = ? AND (? = 1 OR hidden = 0)")
# The filters are written as "(? = 1 OR column = 0)" so the statement text is fixed and
# the statement cache serves every combination of flags.
_LIST_NEWEST = Query.of(f"""
SELECT {EVENT_COLUMNS} FROM events
WHERE battle_id = ? AND (? = 1 OR hidden = 0) AND (? = 1 OR undone = 0)
ORDER BY seq DESC LIMIT ? OFFSET ?
""")
_LIST_OLDEST = Query.of(f"""
SELECT {EVENT_COLUMNS} FROM events
WHERE battle_id = ? AND (? = 1 OR hidden = 0) AND (? = 1 OR undone = 0)
ORDER BY seq ASC LIMIT ? OFFSET ?
""")
# Served by the events_actor index: the battles a player gave orders in, for their statistics.
_BATTLES_OF = Query.of("SELECT DISTINCT battle_id FROM events WHERE actor_id = ? ORDER BY battle_id")
_SET_HIDDEN = Query.of("UPDATE events SET hidden = ? WHERE battle_id = ? AND seq = ?")
# The first order's snapshot is the state the battle was created with (every change is an event).
_FIRST_SNAPSHOT = Query.of("""
SELECT state_before FROM events WHERE battle_id = ? AND state_before IS NOT NULL ORDER BY seq ASC LIMIT 1
""")


# The orders a stored document does not include yet: the newest `behind` orders not undone (see battles.behind).
TAIL = Query.of("""
SELECT seq, order_text, outcome FROM events
WHERE battle_id = ? AND undone = 0 AND kind NOT IN (?, ?)
ORDER BY seq DESC LIMIT ?
""")
# The newest entry at or before an event that keeps the state before it, and the orders from it to the event.
_ANCHOR = Query.of("""
SELECT seq, state_before FROM events
WHERE battle_id = ? AND seq <= ? AND state_before IS NOT NULL
ORDER BY seq DESC LIMIT 1
""")
_BETWEEN = Query.of("""
SELECT seq, order_text, outcome FROM events
WHERE battle_id = ? AND seq >= ? AND seq < ? AND undone = 0 AND kind NOT IN (?, ?)
ORDER BY seq ASC
""")
_EXISTS = Query.of("SELECT seq FROM events WHERE battle_id = ? AND seq = ?")


def steps_of(found: Sequence[tuple[Any, ...]]) -> tuple[Step, ...]:
    """Return logged orders (rows of seq, order text and outcome) as steps to replay, oldest first."""
    ordered = sorted(found, key=lambda row: int(row[0]))
    return tuple(Step.from_outcome(int(row[0]), str(row[1]), codec.decode_optional(row[2])) for row in ordered)


def tail_of(battle_id: int, behind: int) -> Program[tuple[Step, ...]]:
    """Return the orders logged after a battle's stored document, oldest first."""
    if behind <= 0:
        return ()
    found = yield rows(TAIL, battle_id, *sorted(RESERVED_KINDS), behind)
    if len(found) != behind:
        raise StorageError(f"battle {battle_id} should have {behind} orders after its stored state, "
                           f"its log has {len(found)}")
    return steps_of(found)


def before_event(battle_id: int, seq: int) -> Program[tuple[str, tuple[Step, ...]] | None]:
    """Return what the state before an event is rebuilt from: a stored document and the orders after it.

    Not every entry keeps the state before it: one in each run of orders does, and the state before any
    other is that one's replayed with the orders between. None when the event does not exist.
    """
    if (yield one(_EXISTS, battle_id, seq)) is None:
        return None
    anchor = yield one(_ANCHOR, battle_id, seq)
    if anchor is None:
        return None
    document = codec.unpack_snapshot(anchor[1])
    if int(anchor[0]) == seq:
        return document, ()
    found = yield rows(_BETWEEN, battle_id, int(anchor[0]), seq, *sorted(RESERVED_KINDS))
    return document, steps_of(found)


def event_from_row(row: tuple[Any, ...]) -> EventRecord:
    """Build an EventRecord from a row selected with EVENT_COLUMNS."""
    return EventRecord(
        battle_id=row[0],
        seq=row[1],
        actor_id=row[2],
        kind=row[3],
        order_text=row[4],
        outcome=codec.decode_optional(row[5]),
        hidden=bool(row[6]),
        undone=bool(row[7]),
        created_at=row[8],
    )


def next_seq(battle_id: int) -> Program[int]:
    """Return the next event number of a battle (the primary key makes this one index probe)."""
    row = yield one(_LAST_SEQ, battle_id)
    return 1 if row is None else int(row[0]) + 1


class EventRepo:
    """Read a battle's event log and toggle its hidden flags."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def list(
        self,
        battle_id: int,
        *,
        limit: int,
        offset: int = 0,
        newest_first: bool = True,
        include_hidden: bool = True,
        include_undone: bool = True,
    ) -> EventList:
        """Return one page of a battle's events."""
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must not be negative")
        sql = _LIST_NEWEST if newest_first else _LIST_OLDEST
        found = await self._engine.read(every(sql, battle_id, int(include_hidden), int(include_undone), limit, offset))
        return [event_from_row(row) for row in found]

    async def count(self, battle_id: int, *, include_hidden: bool = True) -> int:
        """Return how many events a battle has."""
        row = await self._engine.read(single(_COUNT, battle_id, int(include_hidden)))
        return int(row[0])

    async def get(self, battle_id: int, seq: int) -> EventRecord | None:
        """Return one event, or None when it does not exist."""
        row = await self._engine.read(single(_GET, battle_id, seq))
        return None if row is None else event_from_row(row)

    async def latest_seq(self, battle_id: int) -> int:
        """Return the number of a battle's newest event (0 when it has none)."""
        row = await self._engine.read(single(_LAST_SEQ, battle_id))
        return 0 if row is None else int(row[0])

    async def initial_state(self, battle_id: int) -> JsonDict | None:
        """Return the state a battle was created with, or None when no order was ever given."""
        row = await self._engine.read(single(_FIRST_SNAPSHOT, battle_id))
        return None if row is None else codec.decode(codec.unpack_snapshot(row[0]))

    async def state_before(self, battle_id: int, seq: int) -> JsonDict | None:
        """Return the state a battle was in just before one of its events, or None when it has none."""
        found = await self._engine.read(before_event(battle_id, seq))
        if found is None:
            return None
        document, steps = found
        if not steps:
            return codec.decode(document)
        # Replaying orders is the rules' work: never on the event loop.
        return codec.decode(await asyncio.to_thread(rebuild, document, steps))

    async def battles_of(self, actor_id: int) -> BattleIds:
        """Return the ids of the battles someone gave an order in, oldest first."""
        return [int(row[0]) for row in await self._engine.read(every(_BATTLES_OF, actor_id))]

    async def set_hidden(self, battle_id: int, seq: int, hidden: bool) -> bool:
        """Hide or reveal one event; return whether it exists."""
        updated = await self._engine.write(changed(_SET_HIDDEN, int(hidden), battle_id, seq))
        if updated:
            log.debug("battle %d event %d hidden=%s", battle_id, seq, hidden)
        return bool(updated)
