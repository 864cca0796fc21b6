"""`python -m bot migrate-db --from A --to B`: move every battle between SQLite and PostgreSQL, then check it.

The copy itself is the storage layer's (rows, ids and id counters as they are). This command then checks
the result two ways: the row count of every table matches on both sides, and a sample of battles
spread over the whole database reads back the same on both sides and replays, order by order with its
recorded dice, to exactly its stored state, the same check an import of an exported battle passes.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import TextIO

from bot.app import StartupError, open_database
from bot.archive import ArchiveError, export_document, read_import
from bot.archive_replay import rebuild
from storage import Database, EventRecord, StorageError
from storage.copy import copy_database

log = logging.getLogger(__name__)

DEFAULT_SAMPLE = 20
PAGE = 500


class CheckFailed(Exception):
    """The copy was made but does not match its source."""


def sample_ids(ids: list[int], size: int) -> list[int]:
    """Pick up to `size` ids spread evenly from first to last (the oldest and newest battles included)."""
    if size <= 0 or not ids:
        return []
    if size >= len(ids):
        return list(ids)
    if size == 1:
        return [ids[-1]]
    step = (len(ids) - 1) / (size - 1)
    return sorted({ids[round(i * step)] for i in range(size)})


async def _all_events(db: Database, battle_id: int) -> list[EventRecord]:
    events: list[EventRecord] = []
    while True:
        page = await db.events.list(battle_id, limit=PAGE, offset=len(events), newest_first=False)
        events += page
        if len(page) < PAGE:
            return events


async def check_battle(source: Database, target: Database, battle_id: int) -> None:
    """Check one copied battle reads the same on both sides and replays to its stored state."""
    original, copied = await source.battles.get(battle_id), await target.battles.get(battle_id)
    if copied is None or copied != original:
        raise CheckFailed(f"battle #{battle_id} differs between the two databases")
    events = await _all_events(target, battle_id)
    if events != await _all_events(source, battle_id):
        raise CheckFailed(f"the log of battle #{battle_id} differs between the two databases")
    clock = await target.clocks.get(battle_id)
    if clock != await source.clocks.get(battle_id):
        raise CheckFailed(f"the turn clock of battle #{battle_id} differs between the two databases")
    try:
        # Reading the state replays the orders logged after its stored document, which may already fail.
        initial = await target.events.initial_state(battle_id) or copied.state
        document = export_document(copied, clock, events, initial, time.time())
        plan = read_import(json.dumps(document).encode())
        rebuild(plan.initial_state, plan.orders, plan.final_state)
    except ArchiveError as exc:
        raise CheckFailed(f"battle #{battle_id} does not replay on the new database: {exc.message}") from None
    except StorageError as exc:
        raise CheckFailed(f"battle #{battle_id} does not replay on the new database: {exc}") from None


async def migrate_db(source_target: str, dest_target: str, *, sample: int = DEFAULT_SAMPLE,
                     out: TextIO | None = None) -> int:
    """Copy one database into another (empty) one and check the copy; return the exit status."""
    say = out or sys.stdout
    complain = out or sys.stderr
    if source_target.strip() == dest_target.strip():
        raise StartupError("--from and --to name the same database; give the new, empty one as --to.")
    source = await open_database(source_target)
    try:
        target = await open_database(dest_target)
        try:
            return await _copy_and_check(source, target, sample, say, complain)
        finally:
            await target.close()
    finally:
        await source.close()


async def _copy_and_check(source: Database, target: Database, sample: int, say: TextIO, complain: TextIO) -> int:
    print(f"copying {source.describe()} ({source.backend}) to {target.describe()} ({target.backend})", file=say)
    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if done == total or done % 500 == 0:
            print(f"  {done}/{total} battles", file=say)

    try:
        counts = await copy_database(source, target, progress=progress)
    except StorageError as exc:
        print(f"battlepost: {exc}", file=complain)
        return 2
    print("rows on both sides: " + ", ".join(f"{table} {n}" for table, n in counts.items()), file=say)
    ids = await target.battles.all_ids()
    chosen = sample_ids(ids, sample)
    try:
        for battle_id in chosen:
            await check_battle(source, target, battle_id)
    except CheckFailed as exc:
        print(f"battlepost: the copy does not check out: {exc}. Do not switch BATTLEPOST_DB to it.", file=complain)
        return 1
    print(f"replayed {len(chosen)} of {len(ids)} battles on the new database: each matches its stored state", file=say)
    print(f"done in {time.perf_counter() - started:.1f} s; point BATTLEPOST_DB at {target.describe()} to use it",
          file=say)
    return 0

