"""Online backup: a consistent, readable copy taken while a writer keeps committing."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from storage import Database, NewEvent

if TYPE_CHECKING:
    from tests.storage.conftest import MakeState, NewBattle


@pytest.fixture
def backend() -> str:
    """Run this module on SQLite only: it checks the file itself (test_storage_migrations_pg.py and
    test_storage_copy.py cover PostgreSQL)."""
    return "sqlite"


def check_copy(path: Path) -> dict[int, int]:
    """Check a backup file's integrity and invariants; return each battle's version."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        versions: dict[int, int] = {}
        rows = conn.execute(
            "SELECT b.id, b.version, json_extract(b.state, '$.turn'), COUNT(e.seq)"
            " FROM battles b JOIN events e ON e.battle_id = b.id GROUP BY b.id"
        )
        for battle_id, version, turn, events in rows:
            # Every commit adds one version and one event, and writes turn = version - 1:
            # a copy caught halfway through a transaction would break one of these.
            assert events == version
            assert turn == version - 1
            versions[battle_id] = version
        return versions
    finally:
        conn.close()


async def test_backup_while_a_writer_runs(
    db: Database, new_battle: NewBattle, make_state: MakeState, tmp_path: Path
) -> None:
    battles = [await new_battle(name=f"b{i}", channel_id=i, state=make_state(0)) for i in range(5)]
    stop = asyncio.Event()
    warmed_up = asyncio.Event()
    commits = 0

    async def writer() -> None:
        nonlocal commits
        versions = {b.id: b.version for b in battles}
        while not stop.is_set():
            for battle_id, version in versions.items():
                record = await db.battles.commit(
                    battle_id,
                    expected_version=version,
                    state=make_state(version, pad="x" * 20_000),
                    event=NewEvent(1, "move", "move", None),
                    now=float(version),
                )
                versions[battle_id] = record.version
                commits += 1
                if commits >= 20:
                    warmed_up.set()

    task = asyncio.create_task(writer())
    await warmed_up.wait()
    copies = [tmp_path / "backups" / f"copy{i}.sqlite3" for i in range(3)]
    for copy in copies:
        await db.backup(copy)
    stop.set()
    await task

    live = {b.id: b.version for b in await db.battles.list_for_guild(100, include_ended=True)}
    for copy in copies:
        assert copy.is_file()
        assert not copy.with_name(copy.name + ".partial").exists()
        versions = check_copy(copy)
        assert set(versions) == set(live)
        assert all(1 < versions[i] <= live[i] for i in live)

    # The copy opens as a normal database (on a scratch copy, since opening turns on WAL).
    scratch = tmp_path / "scratch.sqlite3"
    shutil.copyfile(copies[-1], scratch)
    restored = await Database.open(scratch)
    try:
        assert await restored.battles.count() == len(battles)
        loaded = await restored.battles.get(battles[0].id)
        assert loaded is not None and loaded.state["pad"] == "x" * 20_000
    finally:
        await restored.close()


async def test_backup_replaces_an_older_copy(db: Database, new_battle: NewBattle, tmp_path: Path) -> None:
    dest = tmp_path / "nightly.sqlite3"
    await new_battle(name="first")
    await db.backup(dest)
    await new_battle(name="second")
    await db.backup(dest)
    conn = sqlite3.connect(dest)
    try:
        assert [r[0] for r in conn.execute("SELECT name FROM battles ORDER BY id")] == ["first", "second"]
    finally:
        conn.close()
