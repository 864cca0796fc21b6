"""Copying a whole database between backends: SQLite to PostgreSQL and back, every row and id kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from storage import ClockRecord, Database, NewEvent, NewTimer, StorageError
from storage.copy import COLUMNS, copy_database, next_ids, table_counts
from tests.storage.backends import run_sql
from tests.storage.conftest import build_state


async def populate(db: Database) -> dict[str, Any]:
    """Fill a database with one of everything: orders, an undo, hidden rolls, timers, clocks, settings."""
    await db.guilds.set_gm_role(100, 555)
    await db.guilds.update_settings(100, ruleset="m42", dice={"manual": True})
    await db.users.set_notify(42, "dm")
    await db.users.set_zone(42, "America/New_York")
    await db.vacations.add(100, 42, 50.0, 90.0, now=1.0)
    battles = []
    for n in range(3):
        record = await db.battles.create(guild_id=100, channel_id=10 + n, thread_id=20 + n if n else None,
                                         name=f"Battle ☂ {n}", ruleset="strategic-e", created_by=1,
                                         state=build_state(0, pad="x" * 5000), now=2.0 + n)
        for turn in range(1, 5):
            record = await db.battles.commit(
                record.id, expected_version=record.version, state=build_state(turn, big=2**62),
                status="active" if turn == 2 else None,
                event=NewEvent(7, "move", f"move {turn}", {"rolls": [turn, 0.5]}, hidden=turn == 3), now=10.0 + turn,
            )
        record, _ = await db.battles.undo(record.id, expected_version=record.version, count=1, actor_id=7, now=20.0)
        await db.clocks.save(ClockRecord(battle_id=record.id, deadline=3600.0, policy="hold", reminders=("10m",),
                                         turn_key=f"1|side|{n}", turn_started=5.0, due_at=3605.0,
                                         zone="Europe/Berlin", at_minute=1200, quiet=(1320, 420),
                                         bank=(3600.0, 60.0, 7200.0), banks={"A": 3000.0}, bank_due=("A",),
                                         vacation_used={"42": 60.0}),
                             timers=[NewTimer("deadline", 3605.0, {"turn": n}), NewTimer("reminder", 3005.0, {})])
        fired = await db.timers.schedule(record.id, "reminder", 1.0, {"old": True})
        await db.timers.mark_fired(fired, 2.0)
        await db.messages.set(record.id, "status_board", 10 + n, 9000 + n)
        battles.append(record.id)
    # The newest battle is deleted: its id must stay used up after a copy.
    doomed = await db.battles.create(guild_id=100, channel_id=9, thread_id=None, name="Doomed", ruleset="m42",
                                     created_by=1, state=build_state(), now=1.0)
    await db.battles.delete(doomed.id)
    return {"battles": battles, "deleted": doomed.id}


async def everything(db: Database, battles: list[int]) -> list[Any]:
    """Read back everything through the repositories, as the bot would."""
    seen: list[Any] = [await db.guilds.get(100), await db.users.get_notify(42), await db.users.get_zone(42),
                       await db.vacations.of_user(100, 42, 0.0)]
    for battle_id in battles:
        seen += [
            await db.battles.get(battle_id),
            await db.events.list(battle_id, limit=100),
            await db.events.initial_state(battle_id),
            await db.timers.pending(battle_id),
            await db.clocks.get(battle_id),
            await db.messages.get(battle_id, "status_board"),
        ]
        seen += [await db.timers.get(t.id) for t in await db.timers.pending(battle_id)]
    return seen


async def test_sqlite_to_postgresql_and_back_keeps_every_row(tmp_path: Path, postgres_url: str) -> None:
    source = await Database.open(tmp_path / "source.sqlite3")
    made = await populate(source)
    original = await everything(source, made["battles"])
    counts = await table_counts(source)
    async with await Database.open(postgres_url) as pg:
        assert await copy_database(source, pg) == counts
        assert await everything(pg, made["battles"]) == original
        assert await next_ids(pg) == await next_ids(source)
        back = await Database.open(tmp_path / "back.sqlite3")
        try:
            assert await copy_database(pg, back) == counts
            assert await everything(back, made["battles"]) == original
            # Undo still restores the exact snapshot carried across twice.
            battle = await back.battles.get(made["battles"][0])
            assert battle is not None
            restored, _ = await back.battles.undo(battle.id, expected_version=battle.version, count=1, actor_id=1,
                                                  now=30.0)
            assert restored.state == build_state(2, big=2**62)
            # A deleted battle's id is never handed out again, on either side of the copy.
            for db in (pg, back):
                fresh = await db.battles.create(guild_id=1, channel_id=1, thread_id=None, name="new", ruleset="m42",
                                                created_by=1, state={}, now=40.0)
                assert fresh.id == made["deleted"] + 1 > max(made["battles"]) + 1
        finally:
            await back.close()
    await source.close()
    assert set(counts) == set(COLUMNS)
    assert counts["battles"] == 3 and counts["events"] == 3 * 6 and counts["timers"] == 9


async def test_a_target_with_data_is_refused_untouched(tmp_path: Path, postgres_url: str) -> None:
    source = await Database.open(tmp_path / "source.sqlite3")
    made = await populate(source)
    async with await Database.open(postgres_url) as pg:
        await pg.users.set_notify(1, "dm")
        with pytest.raises(StorageError, match=r"already holds data \(1 user_settings\)"):
            await copy_database(source, pg)
        assert await table_counts(pg) == {**dict.fromkeys(COLUMNS, 0), "user_settings": 1}
        assert await pg.battles.get(made["battles"][0]) is None
    await source.close()


async def test_a_copy_that_fails_halfway_leaves_the_target_empty(tmp_path: Path, postgres_url: str) -> None:
    source = await Database.open(tmp_path / "source.sqlite3")
    await populate(source)

    def stop_after_the_first(done: int, total: int) -> None:
        if done == 1:
            raise RuntimeError("the network went away")

    async with await Database.open(postgres_url) as pg:
        with pytest.raises(RuntimeError, match="network"):
            await copy_database(source, pg, progress=stop_after_the_first)
        assert await table_counts(pg) == dict.fromkeys(COLUMNS, 0)
        assert await copy_database(source, pg) == await table_counts(source)
    await source.close()


async def test_a_postgresql_backup_is_a_sqlite_file(tmp_path: Path, postgres_url: str) -> None:
    async with await Database.open(postgres_url) as pg:
        made = await populate(pg)
        original = await everything(pg, made["battles"])
        dest = tmp_path / "backups" / "nightly.sqlite3"
        dest.parent.mkdir()
        await pg.backup(dest)
    assert not dest.with_name(dest.name + ".partial").exists()
    async with await Database.open(dest) as copy:
        assert copy.backend == "sqlite"
        assert await everything(copy, made["battles"]) == original
        assert (await run_sql(copy, "PRAGMA integrity_check"))[0][0] == "ok"
