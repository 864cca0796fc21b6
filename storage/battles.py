"""Battles: create, load, and change a battle's state one transaction at a time."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, NamedTuple, TypeVar, cast

from rules.replay import Step

from . import codec
from .changes import NOTIFY_CHANGE, payload
from .engine import Engine
from .errors import BattleNotFound, NothingToUndo, StaleVersionError, StorageError
from .events import EVENT_COLUMNS, before_event, event_from_row, next_seq, tail_of
from .importlog import INSERT_EVENT, insert_battle_with_log
from .outbox import Post, enqueue
from .program import Program, Query, changed, every, one, rows, single
from .program import count as step_count
from .records import (
    BATTLE_STATUSES,
    NO_TURN,
    RESERVED_KINDS,
    UNDO_KIND,
    BattleRecord,
    BattleStatus,
    BattleSummary,
    ClockRecord,
    Committed,
    EventRecord,
    LoggedEvent,
    NewEvent,
    Turn,
    rebuild,
)

log = logging.getLogger(__name__)

SUMMARY_COLUMNS = (
    "id, guild_id, channel_id, thread_id, name, ruleset, status, created_by, created_at, updated_at, version"
)

# The state document is written whole at most every CHECKPOINT_EVERY orders: in between, an order writes its
# log entry and the battle row's version, and `behind` counts the orders the document does not include yet.
# Reading a battle replays those on the document (a few orders, off the event loop); the live battle of an
# active table is kept in memory, so its orders never read it back.
CHECKPOINT_EVERY = 8

_SELECT_RECORD = Query.of(f"SELECT {SUMMARY_COLUMNS}, state, behind FROM battles WHERE id = ?")
# Inside a write, PostgreSQL must lock the row it checks the version of: otherwise two
# transactions read the same version and the loser fails on the event's key, not as stale.
# SQLite's BEGIN IMMEDIATE already holds the whole database.
_SELECT_HEAD_FOR_WRITE = Query.of(
    f"SELECT {SUMMARY_COLUMNS}, behind FROM battles WHERE id = ?",
    postgres=f"SELECT {SUMMARY_COLUMNS}, behind FROM battles WHERE id = ? FOR UPDATE",
)
_SELECT_DOCUMENT = Query.of("SELECT state FROM battles WHERE id = ?")
_WRITE_DOCUMENT = Query.of("UPDATE battles SET state = ?, behind = 0 WHERE id = ? AND version = ? AND behind > 0")
_UPDATE_STATE = Query.of(
    "UPDATE battles SET state = ?, status = ?, version = ?, updated_at = ?, turn_key = ?, behind = 0 WHERE id = ?")
_UPDATE_BEHIND = Query.of(
    "UPDATE battles SET status = ?, version = ?, updated_at = ?, turn_key = ?, behind = ? WHERE id = ?")
_SELECT_UNDOABLE = Query.of("""
SELECT seq FROM events
WHERE battle_id = ? AND undone = 0 AND kind NOT IN (?, ?)
ORDER BY seq DESC LIMIT ?
""")
_SELECT_STATUS_BEFORE = Query.of("SELECT status_before FROM events WHERE battle_id = ? AND seq = ?")
_MARK_UNDONE = Query.of("""
UPDATE events SET undone = 1
WHERE battle_id = ? AND seq >= ? AND undone = 0 AND kind NOT IN (?, ?)
""")
# Every event from the oldest undone one on; the caller keeps those it just undid.
_SELECT_EVENTS_FROM = Query.of(f"""
SELECT {EVENT_COLUMNS} FROM events
WHERE battle_id = ? AND seq >= ?
ORDER BY seq DESC
""")
# Each arm of the UNION uses its own index (an OR across two columns would scan the
# guild's battles), and only ids go through it so no state document is copied twice.
_HERE = """
    SELECT MAX(id) FROM (
        SELECT id FROM battles WHERE guild_id = ? AND channel_id = ? AND status != 'ended'
        UNION ALL
        SELECT id FROM battles WHERE guild_id = ? AND thread_id = ? AND status != 'ended'
    ) AS here
"""
_IN_CHANNEL = Query.of(f"SELECT {SUMMARY_COLUMNS}, state, behind FROM battles WHERE id = ({_HERE})")
_IN_CHANNEL_SUMMARY = Query.of(f"SELECT {SUMMARY_COLUMNS} FROM battles WHERE id = ({_HERE})")
_LIST_FOR_GUILD = Query.of(f"""
SELECT {SUMMARY_COLUMNS} FROM battles
WHERE guild_id = ? AND (? = 1 OR status != 'ended')
ORDER BY updated_at DESC, id DESC
""")

_ACTIVE_IDS = Query.of("SELECT id FROM battles WHERE status = 'active' ORDER BY id")
_ALL_IDS = Query.of("SELECT id FROM battles ORDER BY id")
_BEHIND_IDS = Query.of("SELECT id FROM battles WHERE behind > 0 ORDER BY id")
_SET_CHANNEL = Query.of("UPDATE battles SET channel_id = ?, thread_id = ? WHERE id = ?")
_DELETE = Query.of("DELETE FROM battles WHERE id = ?")
_COUNT = Query.of("SELECT COUNT(*) FROM battles")

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


def _record(summary: BattleSummary, state_text: str) -> BattleRecord:
    return BattleRecord.of(summary, state_text)


def _record_from_row(row: tuple[Any, ...] | None) -> Program[BattleRecord | None]:
    """Return the battle of a row read with its document and `behind`, with the orders logged after it."""
    if row is None:
        return None
    summary = _summary(cast(_SummaryRow, row[:11]))
    tail = yield from tail_of(summary.id, int(row[12]))
    return BattleRecord.of(summary, row[11], tail)


_Found = TypeVar("_Found", BattleRecord, BattleRecord | None, BattleRecord | BattleSummary | None)


async def _replayed(found: _Found) -> _Found:
    """Return a battle read with orders after its document with those replayed already, off the event loop."""
    if isinstance(found, BattleRecord) and found.tail:
        await asyncio.to_thread(lambda: found.state_text)
    return found


def _get(battle_id: int) -> Program[BattleRecord | None]:
    # Summary, document and the orders after it from one program, so they always belong together.
    return (yield from _record_from_row((yield one(_SELECT_RECORD, battle_id))))


def _in_channel(guild_id: int, channel_id: int) -> Program[BattleRecord | None]:
    return (yield from _record_from_row((yield one(_IN_CHANNEL, guild_id, channel_id, guild_id, channel_id))))


def _in_channel_unless(guild_id: int, channel_id: int, known: Mapping[int, int]
                       ) -> Program[BattleRecord | BattleSummary | None]:
    row = yield one(_IN_CHANNEL_SUMMARY, guild_id, channel_id, guild_id, channel_id)
    if row is None:
        return None
    summary = _summary(row)
    if known.get(summary.id) == summary.version:
        return summary
    # Read whole by id in the same program (SQLite runs it in one hop; nothing else writes in between here).
    return (yield from _get(summary.id))


_SELECT_SUMMARY = Query.of(f"SELECT {SUMMARY_COLUMNS} FROM battles WHERE id = ?")


def _get_unless(battle_id: int, version: int | None) -> Program[BattleRecord | BattleSummary | None]:
    if version is not None:
        row = yield one(_SELECT_SUMMARY, battle_id)
        if row is None:
            return None
        summary = _summary(row)
        if summary.version == version:
            return summary
    return (yield from _get(battle_id))


def _check_status(status: str) -> None:
    if status not in BATTLE_STATUSES:
        raise ValueError(f"status must be one of {sorted(BATTLE_STATUSES)}, not {status!r}")


def _load_current(battle_id: int, expected_version: int) -> Program[tuple[BattleSummary, int]]:
    """Read the battle's row (not its document) inside the write transaction and check nobody changed it since.

    Returns its summary and how many orders its stored document is behind.
    """
    row = yield one(_SELECT_HEAD_FOR_WRITE, battle_id)
    if row is None:
        raise BattleNotFound(battle_id)
    summary = _summary(row[:11])
    if summary.version != expected_version:
        raise StaleVersionError(battle_id, expected_version, summary.version)
    return summary, int(row[11])


_SELECT_SUMMARY_FOR_WRITE = Query.of(
    f"SELECT {SUMMARY_COLUMNS} FROM battles WHERE id = ?",
    postgres=f"SELECT {SUMMARY_COLUMNS} FROM battles WHERE id = ? FOR UPDATE",
)
_REVEAL_EVENT = Query.of("UPDATE events SET hidden = 0 WHERE battle_id = ? AND seq = ? AND hidden = 1")
_BUMP_VERSION = Query.of("UPDATE battles SET version = ?, updated_at = ? WHERE id = ?")


class CommitStep(NamedTuple):
    """One order to commit: the state after it, its log entry, the status it left (None: unchanged) and its turn.

    `replayable` says the state after it is exactly what applying the logged order with its logged dice to the
    state before gives (an order the rules resolved), so the document need not be written for it; its state
    may then be given as a function making the document, called only if it is written or read.
    """

    state: Mapping[str, Any] | Callable[[], Mapping[str, Any]]
    event: NewEvent
    status: BattleStatus | None = None
    turn_key: str | Literal[Turn.UNKNOWN] | None = Turn.UNKNOWN
    replayable: bool = False


class _Text:
    """The document of a state after an order, encoded once and only when something needs it."""

    __slots__ = ("_state", "_text")

    def __init__(self, state: Mapping[str, Any] | Callable[[], Mapping[str, Any]]) -> None:
        self._state = state
        self._text: str | None = None

    def text(self) -> str:
        """Return the encoded document (encoding it on first use)."""
        if self._text is None:
            state = self._state
            self._text = codec.encode(state() if callable(state) else state)
        return self._text

    def record(self, summary: BattleSummary) -> BattleRecord:
        """Return the battle after the order, its document encoded on first read when it was not written."""
        if self._text is not None:
            return _record(summary, self._text)
        return BattleRecord.of(summary, "", source=self.text)


@dataclass(frozen=True)
class _UndoPlan:
    """What an undo restores: the orders it takes back, the states it replaces and restores, and the status."""

    seqs: list[int]
    current: BattleRecord
    before: tuple[str, tuple[Step, ...]]
    status_before: str | None

    @property
    def oldest(self) -> int:
        """Return the oldest order taken back."""
        return self.seqs[-1]

    def texts(self) -> tuple[str, str]:
        """Return the state the undo replaces and the one it restores (replaying logged orders where needed)."""
        document, steps = self.before
        return self.current.state_text, rebuild(document, steps) if steps else document


def _undo_plan(battle_id: int, expected_version: int, wanted: int) -> Program[_UndoPlan]:
    current = yield from _get(battle_id)
    if current is None:
        raise BattleNotFound(battle_id)
    if current.version != expected_version:
        raise StaleVersionError(battle_id, expected_version, current.version)
    found = yield rows(_SELECT_UNDOABLE, battle_id, *sorted(RESERVED_KINDS), wanted)
    seqs = [int(row[0]) for row in found]
    if len(seqs) < wanted:
        raise NothingToUndo(battle_id, wanted, len(seqs))
    before = yield from before_event(battle_id, seqs[-1])
    if before is None:
        raise StorageError(f"event {battle_id}/{seqs[-1]} has no state before it to restore")
    status = yield one(_SELECT_STATUS_BEFORE, battle_id, seqs[-1])
    return _UndoPlan(seqs, current, before, None if status is None else status[0])


class BattleRepo:
    """Store battles and their state documents with optimistic versioning."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

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
        begun: float | None = None,
    ) -> BattleRecord:
        """Create a battle and record its 'create' event, in one transaction.

        An import also hands in the battle's whole log (each event carrying the state before it, see
        pack_event, so every order stays undoable) and its clock: all of it is written, or nothing.
        """
        _check_status(status)
        for event in events:
            _check_status(event.status_before)
        text = codec.encode(state)
        now = float(now)
        battle = (guild_id, channel_id, thread_id, name, ruleset, status, created_by)
        battle_id = await self._engine.write(
            insert_battle_with_log(battle=battle, state_text=text, log=events, clock=clock, now=now, begun=begun))
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
            # The state as stored: its `state` is what get() will return (tuples come back as lists),
            # not an alias of a dict the caller may keep changing.
            document=text,
            version=1 + len(events),
        )

    async def get(self, battle_id: int) -> BattleRecord | None:
        """Load one battle with its state, or None when it does not exist."""
        return await _replayed(await self._engine.read(_get(battle_id)))

    async def get_unless(self, battle_id: int, version: int | None) -> BattleRecord | BattleSummary | None:
        """Load one battle, without its state when it is still at `version` (the caller has that one).

        One read: the version is looked up, and the state is read only when it changed.
        """
        return await _replayed(await self._engine.read(_get_unless(battle_id, version)))

    async def in_channel(self, guild_id: int, channel_id: int) -> BattleRecord | None:
        """Return the newest battle not ended whose channel or thread is channel_id."""
        return await _replayed(await self._engine.read(_in_channel(guild_id, channel_id)))

    async def in_channel_unless(self, guild_id: int, channel_id: int, known: Mapping[int, int]
                                ) -> BattleRecord | BattleSummary | None:
        """Return a channel's battle as in_channel does, without its state when it is at the version `known`
        gives for its id (the caller keeps that state)."""
        return await _replayed(await self._engine.read(_in_channel_unless(guild_id, channel_id, known)))

    async def list_for_guild(self, guild_id: int, *, include_ended: bool = False) -> list[BattleSummary]:
        """List a guild's battles, most recently changed first, without their states."""
        found = await self._engine.read(every(_LIST_FOR_GUILD, guild_id, int(include_ended)))
        return [_summary(cast(_SummaryRow, tuple(row))) for row in found]

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
        committed = await self.commit_order(battle_id, expected_version=expected_version, state=state, status=status,
                                            event=event, now=now)
        return committed.record

    async def commit_order(
        self,
        battle_id: int,
        *,
        expected_version: int,
        state: Mapping[str, Any],
        status: BattleStatus | None = None,
        event: NewEvent,
        now: float,
        turn_key: str | Literal[Turn.UNKNOWN] | None = Turn.UNKNOWN,
        posts: Sequence[Post] = (),
        owed: list[int] | None = None,
    ) -> Committed:
        """Replace the state and record the order, in one transaction; return the battle and the order's number.

        `posts` are what the order leaves the bot owing Discord, written to the outbox in the same transaction;
        their ids are appended to `owed`.

        Refused (StaleVersionError) if anybody changed the battle since it was loaded at `expected_version`.
        `turn_key` is the turn the new state is in (None: no turn running), kept so that startup can tell
        which clocks may be out of step without reading any state.
        """
        done = await self.commit_orders(battle_id, expected_version=expected_version,
                                        steps=[CommitStep(state, event, status, turn_key)], now=now, posts=posts, owed=owed)
        return done[0]

    async def commit_orders(
        self,
        battle_id: int,
        *,
        expected_version: int,
        steps: Sequence[CommitStep],
        now: float,
        posts: Sequence[Post] = (),
        owed: list[int] | None = None,
    ) -> list[Committed]:
        """Record orders given together (an order and the end of turn it left), one transaction for all of them.

        Each order is logged, so each can be undone on its own; the battle's version goes up by one per order.
        The state document is written when it would otherwise fall CHECKPOINT_EVERY orders behind, when the
        status changes, or for a change that is not a replayable order; the first order logged after a written
        document keeps that document as the state before it. Returns the battle after each order with that
        order's number.
        """
        if not steps:
            raise ValueError("at least one order to commit")
        for step in steps:
            if step.event.kind in RESERVED_KINDS:
                raise ValueError(f"event kind {step.event.kind!r} is written by the storage layer itself")
            if step.status is not None:
                _check_status(step.status)
        texts = [_Text(step.state) for step in steps]
        outcomes = [codec.encode_optional(step.event.outcome) for step in steps]
        now = float(now)

        replayable = all(step.replayable and step.status is None for step in steps)
        if not replayable:
            texts[-1].text()  # encoded here, not inside the transaction: the document is written whatever it finds

        def run() -> Program[list[tuple[BattleSummary, int]]]:
            before, behind = yield from _load_current(battle_id, expected_version)
            first = yield from next_seq(battle_id)
            # Only the first order after a written document keeps the state before it, and the first after a
            # change that does not replay; the state before any other is rebuilt by replaying the orders since
            # the nearest that does (see events.before_event).
            snapshot: bytes | None = None
            if behind == 0:
                document = yield one(_SELECT_DOCUMENT, battle_id)
                snapshot = codec.pack_snapshot(document[0])
            done: list[tuple[BattleSummary, int]] = []
            summary = before
            for i, (step, outcome) in enumerate(zip(steps, outcomes, strict=True)):
                if i > 0:
                    snapshot = None if steps[i - 1].replayable else codec.pack_snapshot(texts[i - 1].text())
                event = step.event
                yield step_count(INSERT_EVENT, battle_id, first + i, event.actor_id, event.kind, event.order_text,
                                 outcome, int(event.hidden), now, summary.status, snapshot)
                status = summary.status if step.status is None else step.status
                summary = replace(summary, status=status, updated_at=now, version=summary.version + 1)
                done.append((summary, first + i))
            turn_key = steps[-1].turn_key
            turn = None if turn_key is Turn.UNKNOWN else (turn_key or NO_TURN)
            if replayable and behind + len(steps) < CHECKPOINT_EVERY:
                yield step_count(_UPDATE_BEHIND, summary.status, summary.version, now, turn, behind + len(steps),
                                 battle_id)
            else:
                yield step_count(_UPDATE_STATE, texts[-1].text(), summary.status, summary.version, now, turn,
                                 battle_id)
            yield one(NOTIFY_CHANGE, payload(battle_id, summary.version))
            if owed is not None:
                owed.clear()  # a program run again (a busy database) starts its list afresh
            for post in posts:
                post_id = yield from enqueue(post, now)
                if owed is not None:
                    owed.append(post_id)
            return done

        done = await self._engine.write(run())
        log.debug("battle %d now at version %d (%s, order %d)", battle_id, done[-1][0].version,
                  "+".join(step.event.kind for step in steps), done[-1][1])
        return [Committed(text.record(summary), seq) for (summary, seq), text in zip(done, texts, strict=True)]

    async def undo(
        self, battle_id: int, *, expected_version: int, count: int, actor_id: int, now: float,
        text: str | None = None, note: Mapping[str, Any] | None = None,
    ) -> tuple[BattleRecord, list[EventRecord]]:
        """Restore the state from before the last count orders; return it and the undone events, newest first.

        `text` is the undo's line in the log (`undo N` by default) and `note` more to log with it (a takeback
        says whose it was and who approved it).
        """
        if count < 1:
            raise ValueError("count must be at least 1")
        wanted = count
        now = float(now)
        # Read what the undo needs, rebuild the two states off the event loop (replaying orders is the rules'
        # work), then write them if nobody changed the battle meanwhile: the version says so.
        plan = await self._engine.read(_undo_plan(battle_id, expected_version, wanted))
        current, restored = await asyncio.to_thread(plan.texts)

        def run() -> Program[tuple[BattleSummary, list[EventRecord]]]:
            before, _behind = yield from _load_current(battle_id, expected_version)
            seq = yield from next_seq(battle_id)
            outcome = codec.encode({**(note or {}), "undone": plan.seqs})
            # The undo keeps the state it replaced too, so the log always holds every
            # state the battle has been in (a later redo could restore it).
            yield step_count(
                INSERT_EVENT,
                battle_id,
                seq,
                actor_id,
                UNDO_KIND,
                text or f"undo {wanted}",
                outcome,
                0,
                now,
                before.status,
                codec.pack_snapshot(current),
            )
            yield step_count(_MARK_UNDONE, battle_id, plan.oldest, *sorted(RESERVED_KINDS))
            status = before.status if plan.status_before is None else plan.status_before
            # The turn of the state restored is not known here: startup looks at this battle's clock again.
            yield step_count(_UPDATE_STATE, restored, status, before.version + 1, now, None, battle_id)
            yield one(NOTIFY_CHANGE, payload(battle_id, before.version + 1))
            chosen = set(plan.seqs)
            since = yield rows(_SELECT_EVENTS_FROM, battle_id, plan.oldest)
            undone = [event_from_row(row) for row in since if row[1] in chosen]
            after = replace(before, status=cast(BattleStatus, status), updated_at=now, version=before.version + 1)
            return after, undone

        after, undone = await self._engine.write(run())
        log.info("battle %d: undid %s, now at version %d", battle_id, [e.seq for e in undone], after.version)
        return _record(after, restored), undone

    async def write_document(self, battle_id: int, *, version: int, document: str) -> bool:
        """Write a battle's whole state as it stands at `version`, when its stored document is orders behind.

        Nothing else changes (the same state, the same version); returns whether it was written, which it is not
        when the battle moved on since or its document was already whole.
        """
        return bool(await self._engine.write(changed(_WRITE_DOCUMENT, document, battle_id, version)))

    async def reveal(self, battle_id: int, seq: int, *, now: float) -> int | None:
        """Make a hidden event public and give the battle a new version, so whoever shows its log reads it again.

        Returns the new version, or None when the event does not exist or is not hidden (nothing changes).
        The state stays as it was; watchers on other processes are told like for an order.
        """

        def run() -> Program[int | None]:
            row = yield one(_SELECT_SUMMARY_FOR_WRITE, battle_id)
            if row is None:
                raise BattleNotFound(battle_id)
            before = _summary(row)
            shown = yield step_count(_REVEAL_EVENT, battle_id, seq)
            if not shown:
                return None
            yield step_count(_BUMP_VERSION, before.version + 1, float(now), battle_id)
            yield one(NOTIFY_CHANGE, payload(battle_id, before.version + 1))
            return before.version + 1

        version = await self._engine.write(run())
        if version is not None:
            log.info("battle %d: event %d revealed, now at version %d", battle_id, seq, version)
        return version

    async def set_channel(self, battle_id: int, *, channel_id: int, thread_id: int | None) -> None:
        """Move a battle to another channel and/or thread."""
        if await self._engine.write(changed(_SET_CHANNEL, channel_id, thread_id, battle_id)) == 0:
            raise BattleNotFound(battle_id)

    async def delete(self, battle_id: int) -> bool:
        """Delete a battle with its events, timers and messages; return whether it existed."""
        deleted = await self._engine.write(changed(_DELETE, battle_id)) > 0
        if deleted:
            log.info("deleted battle %d", battle_id)
        return deleted

    async def active_ids(self) -> list[int]:
        """Return the ids of every active battle (those whose turns and deadlines are running)."""
        found = await self._engine.read(every(_ACTIVE_IDS))
        return [int(row[0]) for row in found]

    async def behind_ids(self) -> list[int]:
        """Return the ids of the battles whose stored document does not include their newest orders yet."""
        found = await self._engine.read(every(_BEHIND_IDS))
        return [int(row[0]) for row in found]

    async def all_ids(self) -> list[int]:
        """Return the id of every battle, ended ones too, oldest first."""
        found = await self._engine.read(every(_ALL_IDS))
        return [int(row[0]) for row in found]

    async def count(self) -> int:
        """Return how many battles are stored."""
        row = await self._engine.read(single(_COUNT))
        return int(row[0])
