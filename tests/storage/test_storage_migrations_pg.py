"""PostgreSQL schema migrations, and the promise that both backends share one numbering and one schema."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from storage import Database, MigrationError
from storage.migrate import DIALECTS, load_migrations
from storage.postgres.migrate import apply_migrations
from tests.pgserver import ThrowawayPostgres

ROOT = Path(__file__).resolve().parents[2] / "storage" / "migrations"
PG_MIGRATIONS = load_migrations(dialect="postgresql")
SCHEMA_QUERY = """
SELECT 'column', table_name || '.' || column_name, data_type || ' ' || is_nullable || ' ' || COALESCE(column_default, '')
FROM information_schema.columns WHERE table_schema = 'public'
UNION ALL
SELECT 'index', indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'
UNION ALL
SELECT 'check', conrelid::regclass::text || '.' || conname, pg_get_constraintdef(oid)
FROM pg_constraint WHERE connamespace = 'public'::regnamespace
ORDER BY 1, 2
"""


async def schema_of(url: str) -> list[tuple[str, str, str]]:
    conn = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await conn.fetch(SCHEMA_QUERY)]
    finally:
        await conn.close()


async def version_row(url: str) -> list[int]:
    conn = await asyncpg.connect(url)
    try:
        return [r[0] for r in await conn.fetch("SELECT version FROM battlepost_schema")]
    finally:
        await conn.close()


def test_both_backends_number_and_name_their_migrations_alike() -> None:
    names = {d: sorted(p.name for p in (ROOT / d).glob("*.sql")) for d in DIALECTS}
    assert names["sqlite"] == names["postgresql"]
    assert [m.version for m in PG_MIGRATIONS] == list(range(1, len(names["sqlite"]) + 1))
    assert not list(ROOT.glob("*.sql")), "migrations belong in a backend's folder"


async def test_both_backends_have_the_same_tables_and_columns(tmp_path: Path, postgres_url: str) -> None:
    """A row copied from one backend to the other has a column to go to, in the same order."""
    sqlite_path = tmp_path / "twin.sqlite3"
    async with await Database.open(sqlite_path):
        pass
    conn = sqlite3.connect(sqlite_path)
    try:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        sqlite_columns = {t: [r[1] for r in conn.execute(f"PRAGMA table_info({t})")] for t in tables}
    finally:
        conn.close()
    async with await Database.open(postgres_url):
        pass
    pg = await asyncpg.connect(postgres_url)
    try:
        rows = await pg.fetch(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' "
            "AND table_name != 'battlepost_schema' ORDER BY table_name, ordinal_position")
    finally:
        await pg.close()
    pg_columns: dict[str, list[str]] = {}
    for row in rows:
        pg_columns.setdefault(row[0], []).append(row[1])
    assert pg_columns == sqlite_columns


async def test_migrates_from_empty(postgres_url: str) -> None:
    db = await Database.open(postgres_url)
    try:
        assert await db.schema_version() == len(PG_MIGRATIONS)
        assert db.backend == "postgresql"
    finally:
        await db.close()
    tables = {name.split(".")[0] for kind, name, _ in await schema_of(postgres_url) if kind == "column"}
    assert {"guild_settings", "user_settings", "battles", "events", "timers", "messages", "battle_clocks"} <= tables
    assert await version_row(postgres_url) == [len(PG_MIGRATIONS)]


async def test_reopening_changes_nothing(postgres_url: str) -> None:
    async with await Database.open(postgres_url) as db:
        await db.guilds.set_gm_role(1, 2)
    before = await schema_of(postgres_url)
    async with await Database.open(postgres_url) as db:
        assert (await db.guilds.get(1)).gm_role_id == 2
    assert await schema_of(postgres_url) == before
    assert await version_row(postgres_url) == [len(PG_MIGRATIONS)]


@pytest.mark.parametrize("start", range(len(PG_MIGRATIONS)))
async def test_upgrades_a_database_left_at_an_older_version(
    postgres_server: ThrowawayPostgres, postgres_url: str, start: int
) -> None:
    fresh = postgres_server.create_database()
    try:
        async with await Database.open(fresh):
            pass
        conn = await asyncpg.connect(postgres_url)
        try:
            assert await apply_migrations(conn, PG_MIGRATIONS[:start]) == start
        finally:
            await conn.close()
        async with await Database.open(postgres_url) as db:
            assert await db.schema_version() == len(PG_MIGRATIONS)
        assert await schema_of(postgres_url) == await schema_of(fresh)
    finally:
        postgres_server.drop_database(fresh)


async def test_a_failing_migration_rolls_back_entirely(postgres_url: str, tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    for source in (ROOT / "postgresql").glob("*.sql"):
        (folder / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    broken = len(PG_MIGRATIONS) + 1
    (folder / f"{broken:04d}_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);", encoding="utf-8")
    migrations = load_migrations(folder, dialect="postgresql")
    conn = await asyncpg.connect(postgres_url)
    try:
        with pytest.raises(MigrationError, match="broken"):
            await apply_migrations(conn, migrations)
        assert await conn.fetchval("SELECT version FROM battlepost_schema") == len(PG_MIGRATIONS)
        assert await conn.fetchval("SELECT to_regclass('half_done')") is None
        assert not conn.is_in_transaction()
    finally:
        await conn.close()


async def test_refuses_a_database_from_newer_code_and_writes_nothing(postgres_url: str) -> None:
    async with await Database.open(postgres_url) as db:
        await db.guilds.set_gm_role(7, 8)
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("UPDATE battlepost_schema SET version = $1", len(PG_MIGRATIONS) + 5)
    finally:
        await conn.close()
    before = await schema_of(postgres_url)
    with pytest.raises(MigrationError, match="newer"):
        await Database.open(postgres_url)
    assert await schema_of(postgres_url) == before
    assert await version_row(postgres_url) == [len(PG_MIGRATIONS) + 5]


async def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    opened = await asyncio.gather(*(Database.open(postgres_url) for _ in range(4)))
    try:
        assert [await db.schema_version() for db in opened] == [len(PG_MIGRATIONS)] * 4
    finally:
        for db in opened:
            await db.close()
    assert await version_row(postgres_url) == [len(PG_MIGRATIONS)]
