"""Copy a whole database to an empty one on either backend: SQLite to PostgreSQL, back, or to a backup file.

Rows go across as they are stored (the state documents, snapshots and outcomes byte for byte), with
their ids: persistent buttons carry battle ids, so a battle keeps its number on the new backend. Each
battle travels in one transaction with its events, timers, clock and messages; the id counters are
carried too, so an id a deleted battle once had is never handed out again. If anything fails, what was
copied is removed again, so the target is left as empty as it was found.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

from .engine import Engine
from .errors import StorageError
from .program import Program, Query, count, every, one, rows

log = logging.getLogger(__name__)


class Side(Protocol):
    """One end of a copy: a database's engine, what it is called, and how to close it (a `Database` is one)."""

    @property
    def engine(self) -> Engine: ...

    @property
    def backend(self) -> str: ...

    def describe(self) -> str: ...

    async def close(self) -> None: ...

# Every table, parents first; the twin migrations give them the same columns in the same order.
COLUMNS: dict[str, tuple[str, ...]] = {
    "guild_settings": ("guild_id", "gm_role_id", "settings"),
    "user_settings": ("user_id", "notify", "settings"),
    "battles": ("id", "guild_id", "channel_id", "thread_id", "name", "ruleset", "status", "created_by",
                "created_at", "updated_at", "version", "state", "turn_key", "behind"),
    "events": ("battle_id", "seq", "actor_id", "kind", "order_text", "outcome", "hidden", "undone", "created_at",
               "status_before", "state_before"),
    "timers": ("id", "battle_id", "kind", "due_at", "payload", "fired_at"),
    "messages": ("battle_id", "kind", "channel_id", "message_id"),
    "battle_clocks": ("battle_id", "deadline", "policy", "reminders", "turn_key", "turn_started", "due_at",
                      "paused_at", "remaining", "expired_at", "zone", "at_minute", "skip_weekends", "quiet_from",
                      "quiet_to", "bank_start", "bank_per_turn", "bank_cap", "banks", "bank_due",
                      "vacation_allowance",
                      "vacation_used", "vacation_turn"),
    "battle_players": ("battle_id", "user_id", "remind", "muted_turn", "turn_key", "reminded", "stall_told",
                       "reminded_since"),
    "battle_posting": ("battle_id", "side_threads", "stall_after", "fallback_told", "threads", "gm_thread"),
    "vacations": ("id", "guild_id", "user_id", "starts", "ends", "created_at"),
    "web_links": ("token_hash", "battle_id", "audience", "created_at"),
    "takebacks": ("battle_id", "newest_seq", "order_seq", "user_id", "count", "reason", "status", "asked_at",
                  "decided_by", "decided_at"),
    "digests": ("user_id", "enabled", "next_at", "sent_at"),
    "seats": ("battle_id", "user_id", "units", "sides", "status", "released_by", "released_at", "candidate",
              "taken_by", "taken_at"),
    "seat_rules": ("battle_id", "approval", "disorder_after"),
    "absences": ("battle_id", "user_id", "missed", "missed_total", "disorder_since"),
}
PER_BATTLE = ("events", "timers", "messages", "battle_clocks", "battle_players", "battle_posting", "web_links",
              "takebacks", "seats", "seat_rules", "absences")
SETTINGS = ("guild_settings", "user_settings", "vacations", "digests")
# Tables whose id the database hands out, and so whose counter must be carried over.
COUNTED = ("battles", "timers", "vacations")


def _select(table: str, where: str = "") -> Query:
    return Query.of(f"SELECT {', '.join(COLUMNS[table])} FROM {table}{where}")


def _insert(table: str) -> Query:
    columns = ", ".join(COLUMNS[table])
    marks = ", ".join("?" * len(COLUMNS[table]))
    # PostgreSQL's identity columns take a given id only when told to.
    override = " OVERRIDING SYSTEM VALUE" if table in COUNTED else ""
    return Query.of(f"INSERT INTO {table} ({columns}) VALUES ({marks})",
                    postgres=f"INSERT INTO {table} ({columns}){override} VALUES ({marks})")


_SELECT_BATTLE = _select("battles", " WHERE id = ?")
_SELECT_OF_BATTLE = {t: _select(t, " WHERE battle_id = ?") for t in PER_BATTLE}
_SELECT_ALL = {t: _select(t) for t in SETTINGS}
_INSERT = {t: _insert(t) for t in COLUMNS}
_COUNT = {t: Query.of(f"SELECT COUNT(*) FROM {t}") for t in COLUMNS}
_CLEAR = {t: Query.of(f"DELETE FROM {t}") for t in COLUMNS}
_BATTLE_IDS = Query.of("SELECT id FROM battles ORDER BY id")
_MAX_ID = {t: Query.of(f"SELECT COALESCE(MAX(id), 0) FROM {t}") for t in COUNTED}
_SQLITE_COUNTER = Query.of("SELECT seq FROM sqlite_sequence WHERE name = ?")
_SQLITE_FORGET_COUNTER = Query.of("DELETE FROM sqlite_sequence WHERE name = ?")
_SQLITE_SET_COUNTER = Query.of("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)")
_PG_COUNTER = Query.of("SELECT COALESCE(pg_sequence_last_value(pg_get_serial_sequence(?, 'id')), 0)")
_PG_SET_COUNTER = Query.of("SELECT setval(pg_get_serial_sequence(?, 'id'), ?, true)")

Rows = list[tuple[Any, ...]]
Progress = Callable[[int, int], None]


async def table_counts(db: Side) -> dict[str, int]:
    """Return how many rows each table holds."""

    def run() -> Program[dict[str, int]]:
        counts: dict[str, int] = {}
        for table, query in _COUNT.items():
            row = yield one(query)
            counts[table] = int(row[0])
        return counts

    return await db.engine.read(run())


def _read_battle(battle_id: int) -> Program[dict[str, Rows]]:
    found: dict[str, Rows] = {"battles": [(yield one(_SELECT_BATTLE, battle_id))]}
    for table, query in _SELECT_OF_BATTLE.items():
        found[table] = yield rows(query, battle_id)
    return found


def _write_rows(tables: dict[str, Rows]) -> Program[None]:
    for table in COLUMNS:
        for row in tables.get(table, ()):
            yield count(_INSERT[table], *row)


def _read_counter(backend: str, table: str) -> Program[int]:
    highest = yield one(_MAX_ID[table])
    if backend == "sqlite":
        row = yield one(_SQLITE_COUNTER, table)
        counter = 0 if row is None else int(row[0])
    else:
        counter = int((yield one(_PG_COUNTER, table))[0])
    return max(counter, int(highest[0]))


def _write_counter(backend: str, table: str, value: int) -> Program[None]:
    if backend == "sqlite":
        yield count(_SQLITE_FORGET_COUNTER, table)
        yield count(_SQLITE_SET_COUNTER, table, value)
    elif value >= 1:
        yield one(_PG_SET_COUNTER, table, value)


def _clear() -> Program[None]:
    for table in reversed(COLUMNS):
        yield count(_CLEAR[table])


async def copy_database(source: Side, target: Side, *, progress: Progress | None = None) -> dict[str, int]:
    """Copy every row of source into the empty target; return the row counts, checked equal on both sides."""
    held = {table: n for table, n in (await table_counts(target)).items() if n}
    if held:
        summary = ", ".join(f"{n} {table}" for table, n in held.items())
        raise StorageError(
            f"{target.describe()} already holds data ({summary}); copy into an empty database so nothing is "
            "mixed or overwritten. Nothing was copied."
        )
    expected = await table_counts(source)
    try:
        settings = {t: await source.engine.read(every(_SELECT_ALL[t])) for t in SETTINGS}
        await target.engine.write(_write_rows(settings))
        ids = [int(row[0]) for row in await source.engine.read(every(_BATTLE_IDS))]
        for done, battle_id in enumerate(ids, start=1):
            tables = await source.engine.read(_read_battle(battle_id))
            await target.engine.write(_write_rows(tables))
            if progress is not None:
                progress(done, len(ids))
        for table in COUNTED:
            value = await source.engine.read(_read_counter(source.backend, table))
            await target.engine.write(_write_counter(target.backend, table, value))
        copied = await table_counts(target)
        if copied != expected:
            raise StorageError(f"the copy does not add up: the source holds {expected}, the target {copied}")
    except BaseException:
        # Leave the target as empty as it was found, so the copy can simply be run again.
        await target.engine.write(_clear())
        raise
    log.info("copied %s to %s: %s", source.describe(), target.describe(), copied)
    return copied


async def copy_to_new_file(source: Side, dest: str | os.PathLike[str],
                           open_file: Callable[[Path], Awaitable[Side]]) -> dict[str, int]:
    """Write a standalone SQLite copy of a database (the backup of a PostgreSQL database), opened by `open_file`."""
    final, partial = await asyncio.to_thread(_fresh_partial, dest)
    target = await open_file(partial)
    try:
        counts = await copy_database(source, target)
    except BaseException:
        await target.close()
        await asyncio.to_thread(_fresh_partial, dest)
        raise
    await target.close()
    # Only a complete copy ever appears under the destination name.
    await asyncio.to_thread(os.replace, partial, final)
    return counts


def _fresh_partial(dest: str | os.PathLike[str]) -> tuple[Path, Path]:
    final = Path(dest).resolve()
    partial = final.with_name(final.name + ".partial")
    for leftover in (partial, partial.with_name(partial.name + "-wal"), partial.with_name(partial.name + "-shm")):
        leftover.unlink(missing_ok=True)
    return final, partial


async def next_ids(db: Side) -> dict[str, int]:
    """Return the highest id each counted table has ever handed out (what the copy carries over)."""
    return {table: await db.engine.read(_read_counter(db.backend, table)) for table in COUNTED}

