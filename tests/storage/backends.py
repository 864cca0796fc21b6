"""Reach under the storage interface, per backend, for the few tests that must break or inspect it."""

from __future__ import annotations

import sqlite3

import asyncpg

from storage import Database
from storage.postgres.engine import PostgresEngine
from storage.sqlite_engine import SqliteEngine

SQLITE_REFUSE = (
    "CREATE TEMP TRIGGER refuse_update BEFORE UPDATE ON battles BEGIN SELECT RAISE(ABORT, 'refused'); END"
)
POSTGRES_REFUSE = (
    "CREATE FUNCTION refuse_update() RETURNS trigger LANGUAGE plpgsql AS "
    "$$ BEGIN RAISE EXCEPTION 'refused'; END $$;"
    "CREATE TRIGGER refuse_update BEFORE UPDATE ON battles FOR EACH ROW EXECUTE FUNCTION refuse_update();"
)


async def run_sql(db: Database, sql: str) -> list[tuple[object, ...]]:
    """Run raw SQL on the database behind the interface and return its rows."""
    engine = db.engine
    if isinstance(engine, SqliteEngine):
        return await engine.executor.read(lambda raw: raw.execute(sql).fetchall())
    assert isinstance(engine, PostgresEngine)
    conn = await asyncpg.connect(engine.url)
    try:
        if ";" in sql.rstrip(";"):
            await conn.execute(sql)
            return []
        return [tuple(r) for r in await conn.fetch(sql)]
    finally:
        await conn.close()


async def refuse_battle_updates(db: Database) -> type[Exception]:
    """Make every UPDATE of a battle row fail; return the exception the backend raises for it."""
    if isinstance(db.engine, SqliteEngine):
        await run_sql(db, SQLITE_REFUSE)
        return sqlite3.IntegrityError
    await run_sql(db, POSTGRES_REFUSE)
    return asyncpg.RaiseError


async def allow_battle_updates(db: Database) -> None:
    """Undo refuse_battle_updates."""
    if isinstance(db.engine, SqliteEngine):
        await run_sql(db, "DROP TRIGGER temp.refuse_update")
    else:
        await run_sql(db, "DROP TRIGGER refuse_update ON battles; DROP FUNCTION refuse_update();")


async def integrity_problems(db: Database) -> list[str]:
    """Return what a consistency check of the backend finds wrong (nothing, for a sound database)."""
    if isinstance(db.engine, SqliteEngine):
        rows = await run_sql(db, "PRAGMA integrity_check")
        return [str(r[0]) for r in rows if r[0] != "ok"]
    orphans = await run_sql(
        db, "SELECT e.battle_id, e.seq FROM events e LEFT JOIN battles b ON b.id = e.battle_id WHERE b.id IS NULL"
    )
    return [f"event {r[0]}/{r[1]} has no battle" for r in orphans]
