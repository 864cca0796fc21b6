"""Battles: create, load, and change a battle's state one transaction at a time."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, cast

from . import codec
from .errors import BattleNotFound, NothingToUndo, StaleVersionError
from .events import EVENT_COLUMNS, event_from_row, next_seq
from .executor import Executor
from .importlog import INSERT_EVENT, insert_battle_with_log
from .records import (
    BATTLE_STATUSES,
    RESERVED_KINDS,
    UNDO_KIND,
    BattleRecord,
    BattleStatus,
    BattleSummary,
    ClockRecord,
    EventRecord,
    LoggedEvent,
    NewEvent,
)

log = logging.getLogger(__name__)

SUMMARY_COLUMNS = (
    "id, guild_id, channel_id, thread_id, name, ruleset, status, created_by, created_at, updated_at, version"
)

_SELECT_RECORD = f"SELECT {SUMMARY_COLUMNS}, state FROM battles WHERE id = ?"
_UPDATE_STATE = "UPDATE battles SET state = ?, status = ?, version = ?, updated_at = ? WHERE id = ?"
_SELECT_UNDOABLE = """
SELECT seq FROM events
WHERE battle_id = ? AND undone = 0 AND kind NOT IN (?, ?)
ORDER BY seq DESC LIMIT ?
"""
_SELECT_SNAPSHOT = "SELECT state_before, status_before FROM events WHERE battle_id = ? AND seq = ?"
_MARK_UNDONE = """
UPDATE events SET undone = 1
WHERE battle_id = ? AND seq >= ? AND undone = 0 AND kind NOT IN (?, ?)
"""
_SELECT_EVENTS_IN = f"""
SELECT {EVENT_COLUMNS} FROM events
WHERE battle_id = ? AND seq IN (SELECT value FROM json_each(?))
ORDER BY seq DESC
"""
# Each arm of the UNION uses its own index (an OR across two columns would scan the
# guild's battles), and only ids go through it so no state document is copied twice.
_IN_CHANNEL = f"""
SELECT {SUMMARY_COLUMNS}, state FROM battles WHERE id = (
    SELECT MAX(id) FROM (
        SELECT id FROM battles WHERE guild_id = ? AND channel_id = ? AND status != 'ended'
        UNION ALL
        SELECT id FROM battles WHERE guild_id = ? AND thread_id = ? AND status != 'ended'
    )
)
"""
_LIST_FOR_GUILD = f"""
SELECT {SUMMARY_COLUMNS} FROM battles
WHERE guild_id = ? AND (? OR status != 'ended')
ORDER BY updated_at DESC, id DESC
"""

_ACTIVE_IDS = "SELECT id FROM battles WHERE status = 'active' ORDER BY id"

_SummaryRow = tuple[int, int, int, int | None, str, str, str, int, float, float, int]


def _summary(row: _SummaryRow) -> BattleSummary:
    return BattleSummary(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        thread_id=row[3],
        name=row[4],
        ruleset=row[5],
        status=cast(BattleStatus, row[6]),
        created_by=row[7],
        created_at=row[8],
        updated_at=row[9],
        version=row[10],
    )


def _record(summary: BattleSummary, state: dict[str, Any]) -> BattleRecord:
    return BattleRecord(
        id=summary.id,
        guild_id=summary.guild_id,
        channel_id=summary.channel_id,
        thread_id=summary.thread_id,
        name=summary.name,
        ruleset=summary.ruleset,
        status=summary.status,
        created_by=summary.created_by,
        created_at=summary.created_at,
        updated_at=summary.updated_at,
        state=state,
        version=summary.version,
    )


def _record_from_row(row: tuple[Any, ...]) -> BattleRecord:
    return _record(_summary(cast(_SummaryRow, row[:11])), codec.decode(row[11]))


def _check_status(status: str) -> None:
    if status not in BATTLE_STATUSES:
        raise ValueError(f"status must be one of {sorted(BATTLE_STATUSES)}, not {status!r}")


def _load_current(
    raw: sqlite3.Connection, battle_id: int, expected_version: int
) -> tuple[BattleSummary, str]:
    """Read the battle inside the write transaction and check nobody changed it since it was loaded."""
    row = raw.execute(_SELECT_RECORD, (battle_id,)).fetchone()
    if row is None:
        raise BattleNotFound(battle_id)
    summary = _summary(row[:11])
    if summary.version != expected_version:
        raise StaleVersionError(battle_id, expected_version, summary.version)
    return summary, row[11]


class BattleRepo:
    """Store battles and their state documents with optimistic versioning."""

    def __init__(self, executor: Executor) -> None:
        self._executor = executor

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        thread_id: int | None,
        name: str,
        ruleset: str,
        created_by: int,
        state: Mapping[str, Any],
        now: float,
        status: BattleStatus = "setup",
        events: Sequence[LoggedEvent] = (),
        clock: ClockRecord | None = None,
    ) -> BattleRecord:
        """Create a battle and record its 'create' event, in one transaction.

        An import also hands in the battle's whole log (each event carrying the state before it, see
        pack_event, so every order stays undoable) and its clock: all of it is written, or nothing.
        """
        _check_status(status)
        for event in events:
            _check_status(event.status_before)
        text = codec.encode(state)
        battle = (guild_id, channel_id, thread_id, name, ruleset, status, created_by)

        def run(raw: sqlite3.Connection) -> int:
            return insert_battle_with_log(raw, battle=battle, state_text=text, log=events, clock=clock, now=now)

        battle_id = await self._executor.write(run)
        log.info("created battle %d %r in guild %d channel %d with %d logged order(s)", battle_id, name,
                 guild_id, channel_id, len(events))
        return BattleRecord(
            id=battle_id,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            name=name,
            ruleset=ruleset,
            status=status,
            created_by=created_by,
            created_at=now,
            updated_at=now,
            # Decoding what was stored gives the caller exactly what get() will return
            # (tuples come back as lists), not an alias of a dict they may keep mutating.
            state=codec.decode(text),
            version=1 + len(events),
        )

    async def get(self, battle_id: int) -> BattleRecord | None:
        """Load one battle with its state, or None when it does not exist."""
        row = await self._executor.read(lambda raw: raw.execute(_SELECT_RECORD, (battle_id,)).fetchone())
        return None if row is None else _record_from_row(row)

    async def in_channel(self, guild_id: int, channel_id: int) -> BattleRecord | None:
        """Return the newest battle not ended whose channel or thread is channel_id."""
        params = (guild_id, channel_id, guild_id, channel_id)
        row = await self._executor.read(lambda raw: raw.execute(_IN_CHANNEL, params).fetchone())
        return None if row is None else _record_from_row(row)

    async def list_for_guild(self, guild_id: int, *, include_ended: bool = False) -> list[BattleSummary]:
        """List a guild's battles, most recently changed first, without their states."""
        params = (guild_id, int(include_ended))
        rows = await self._executor.read(lambda raw: raw.execute(_LIST_FOR_GUILD, params).fetchall())
        return [_summary(row) for row in rows]

    async def commit(
        self,
        battle_id: int,
        *,
        expected_version: int,
        state: Mapping[str, Any],
        status: BattleStatus | None = None,
        event: NewEvent,
        now: float,
    ) -> BattleRecord:
        """Replace the state and record the order, if nobody changed the battle since it was loaded."""
        if event.kind in RESERVED_KINDS:
            raise ValueError(f"event kind {event.kind!r} is written by the storage layer itself")
        if status is not None:
            _check_status(status)
        text = codec.encode(state)
        outcome = codec.encode_optional(event.outcome)

        def run(raw: sqlite3.Connection) -> BattleSummary:
            before, old_state = _load_current(raw, battle_id, expected_version)
            seq = next_seq(raw, battle_id)
            raw.execute(
                INSERT_EVENT,
                (
                    battle_id,
                    seq,
                    event.actor_id,
                    event.kind,
                    event.order_text,
                    outcome,
                    int(event.hidden),
                    now,
                    before.status,
                    codec.pack_snapshot(old_state),
                ),
            )
            new_status = before.status if status is None else status
            raw.execute(_UPDATE_STATE, (text, new_status, before.version + 1, now, battle_id))
            return replace(before, status=new_status, updated_at=now, version=before.version + 1)

        after = await self._executor.write(run)
        log.debug("battle %d now at version %d (%s)", battle_id, after.version, event.kind)
        return _record(after, codec.decode(text))

    async def undo(
        self, battle_id: int, *, expected_version: int, count: int, actor_id: int, now: float
    ) -> tuple[BattleRecord, list[EventRecord]]:
        """Restore the state from before the last count orders; return it and the undone events, newest first."""
        if count < 1:
            raise ValueError("count must be at least 1")

        def run(raw: sqlite3.Connection) -> tuple[BattleSummary, str, list[EventRecord]]:
            before, old_state = _load_current(raw, battle_id, expected_version)
            seqs = [row[0] for row in raw.execute(_SELECT_UNDOABLE, (battle_id, *RESERVED_KINDS, count))]
            if len(seqs) < count:
                raise NothingToUndo(battle_id, count, len(seqs))
            oldest = seqs[-1]
            packed, status_before = raw.execute(_SELECT_SNAPSHOT, (battle_id, oldest)).fetchone()
            if packed is None:
                raise ValueError(f"event {battle_id}/{oldest} has no snapshot to restore")
            snapshot = codec.unpack_snapshot(packed)
            seq = next_seq(raw, battle_id)
            seq_list = codec.encode_list(seqs)
            outcome = codec.encode({"undone": seqs})
            # The undo keeps the state it replaced too, so the log always holds every
            # state the battle has been in (a later redo could restore it).
            raw.execute(
                INSERT_EVENT,
                (
                    battle_id,
                    seq,
                    actor_id,
                    UNDO_KIND,
                    f"undo {count}",
                    outcome,
                    0,
                    now,
                    before.status,
                    codec.pack_snapshot(old_state),
                ),
            )
            raw.execute(_MARK_UNDONE, (battle_id, oldest, *RESERVED_KINDS))
            status = before.status if status_before is None else status_before
            raw.execute(_UPDATE_STATE, (snapshot, status, before.version + 1, now, battle_id))
            undone = [event_from_row(row) for row in raw.execute(_SELECT_EVENTS_IN, (battle_id, seq_list))]
            after = replace(before, status=status, updated_at=now, version=before.version + 1)
            return after, snapshot, undone

        after, snapshot, undone = await self._executor.write(run)
        log.info("battle %d: undid %s, now at version %d", battle_id, [e.seq for e in undone], after.version)
        return _record(after, codec.decode(snapshot)), undone

    async def set_channel(self, battle_id: int, *, channel_id: int, thread_id: int | None) -> None:
        """Move a battle to another channel and/or thread."""

        def run(raw: sqlite3.Connection) -> int:
            cursor = raw.execute(
                "UPDATE battles SET channel_id = ?, thread_id = ? WHERE id = ?",
                (channel_id, thread_id, battle_id),
            )
            return cursor.rowcount

        if await self._executor.write(run) == 0:
            raise BattleNotFound(battle_id)

    async def delete(self, battle_id: int) -> bool:
        """Delete a battle with its events, timers and messages; return whether it existed."""

        def run(raw: sqlite3.Connection) -> int:
            return raw.execute("DELETE FROM battles WHERE id = ?", (battle_id,)).rowcount

        deleted = await self._executor.write(run) > 0
        if deleted:
            log.info("deleted battle %d", battle_id)
        return deleted

    async def active_ids(self) -> list[int]:
        """Return the ids of every active battle (those whose turns and deadlines are running)."""
        rows = await self._executor.read(lambda raw: raw.execute(_ACTIVE_IDS).fetchall())
        return [int(row[0]) for row in rows]

    async def count(self) -> int:
        """Return how many battles are stored."""
        row = await self._executor.read(lambda raw: raw.execute("SELECT COUNT(*) FROM battles").fetchone())
        return int(row[0])
