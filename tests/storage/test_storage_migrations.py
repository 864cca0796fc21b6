"""SQLite schema migrations: from empty, re-open, upgrade from older versions, failure and refusal."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage import Database, MigrationError, StorageError
from storage.migrate import Migration, apply_migrations, load_migrations, split_statements, user_version


@pytest.fixture
def backend() -> str:
    """Run this module on SQLite only: it checks the file itself (test_storage_migrations_pg.py and
    test_storage_copy.py cover PostgreSQL)."""
    return "sqlite"


MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "storage" / "migrations" / "sqlite"
MIGRATIONS = load_migrations()
EXPECTED_TABLES = {"guild_settings", "user_settings", "battles", "events", "timers", "messages"}


def schema_of(path: Path) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"
        ).fetchall()
    finally:
        conn.close()


def version_of(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return user_version(conn)
    finally:
        conn.close()


def test_migration_files_are_numbered_from_one() -> None:
    files = sorted(p.name for p in MIGRATIONS_DIR.glob("*.sql"))
    assert [m.version for m in MIGRATIONS] == list(range(1, len(files) + 1))
    assert files[0].startswith("0001_")


async def test_migrates_from_empty(db_path: Path) -> None:
    db = await Database.open(db_path)
    try:
        assert await db.schema_version() == len(MIGRATIONS)
    finally:
        await db.close()
    tables = {name for kind, name, _ in schema_of(db_path) if kind == "table"}
    assert EXPECTED_TABLES <= tables


async def test_reopening_a_migrated_file_changes_nothing(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.guilds.set_gm_role(1, 2)
    await db.close()
    before = schema_of(db_path)

    db = await Database.open(db_path)
    try:
        assert await db.schema_version() == len(MIGRATIONS)
        assert (await db.guilds.get(1)).gm_role_id == 2
    finally:
        await db.close()
    assert schema_of(db_path) == before


@pytest.mark.parametrize("start", range(len(MIGRATIONS)))
async def test_upgrades_a_file_left_at_an_older_version(tmp_path: Path, start: int) -> None:
    fresh = tmp_path / "fresh.sqlite3"
    db = await Database.open(fresh)
    await db.close()

    old = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(old, isolation_level=None)
    try:
        assert apply_migrations(conn, MIGRATIONS[:start]) == start
    finally:
        conn.close()
    assert version_of(old) == start

    db = await Database.open(old)
    try:
        assert await db.schema_version() == len(MIGRATIONS)
    finally:
        await db.close()
    assert schema_of(old) == schema_of(fresh)


def write_migrations(folder: Path, extra: dict[str, str]) -> list[Migration]:
    folder.mkdir()
    for source in MIGRATIONS_DIR.glob("*.sql"):
        (folder / source.name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    next_version = len(MIGRATIONS) + 1
    for index, (name, sql) in enumerate(extra.items()):
        (folder / f"{next_version + index:04d}_{name}.sql").write_text(sql, encoding="utf-8")
    return load_migrations(folder)


def test_runner_upgrades_step_by_step(tmp_path: Path) -> None:
    migrations = write_migrations(
        tmp_path / "migrations",
        {
            "battle_notes": "ALTER TABLE battles ADD COLUMN notes TEXT;\nCREATE INDEX battles_status ON battles (status);"
        },
    )
    conn = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    try:
        assert apply_migrations(conn, migrations[:-1]) == len(MIGRATIONS)
        conn.execute(
            "INSERT INTO battles (guild_id, channel_id, name, ruleset, created_by, created_at, updated_at,"
            " version, state) VALUES (1, 2, 'b', 'r', 3, 0.0, 0.0, 1, '{}')"
        )
        assert apply_migrations(conn, migrations) == len(MIGRATIONS) + 1
        assert conn.execute("SELECT name, notes FROM battles").fetchall() == [("b", None)]
        # Applying again is a no-op.
        assert apply_migrations(conn, migrations) == len(MIGRATIONS) + 1
    finally:
        conn.close()


def test_a_failing_migration_rolls_back_entirely(tmp_path: Path) -> None:
    migrations = write_migrations(
        tmp_path / "migrations",
        {"broken": "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);"},
    )
    conn = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    try:
        with pytest.raises(MigrationError, match="broken"):
            apply_migrations(conn, migrations)
        assert user_version(conn) == len(MIGRATIONS)
        assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'half_done'").fetchone() is None
        assert not conn.in_transaction
    finally:
        conn.close()


async def test_refuses_a_file_from_newer_code_and_writes_nothing(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.close()
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    conn.close()
    before = db_path.read_bytes()
    with pytest.raises(MigrationError, match="newer"):
        await Database.open(db_path)
    assert db_path.read_bytes() == before
    wal = db_path.with_name(db_path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0


async def test_refuses_a_file_that_is_not_a_database(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"battle notes, not a database" * 100)
    with pytest.raises(StorageError, match="not a battlepost database"):
        await Database.open(db_path)
    assert db_path.read_bytes() == b"battle notes, not a database" * 100


async def test_refuses_a_folder(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="is a folder"):
        await Database.open(tmp_path)


def test_numbering_gaps_are_rejected(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_a.sql").write_text("CREATE TABLE a (x INTEGER);", encoding="utf-8")
    (folder / "0003_c.sql").write_text("CREATE TABLE c (x INTEGER);", encoding="utf-8")
    with pytest.raises(MigrationError, match="gaps"):
        load_migrations(folder)


def test_transaction_control_is_rejected(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_a.sql").write_text("BEGIN;\nCREATE TABLE a (x INTEGER);\nCOMMIT;", encoding="utf-8")
    with pytest.raises(MigrationError, match="transaction control"):
        load_migrations(folder)


def test_split_statements_respects_strings_comments_and_triggers() -> None:
    sql = """
    -- a comment; with a semicolon
    CREATE TABLE t (x TEXT DEFAULT 'a;b');  /* block; comment */
    CREATE TRIGGER t_ins AFTER INSERT ON t BEGIN
        UPDATE t SET x = 'c;d' WHERE rowid = new.rowid;
        SELECT 1;
    END;
    INSERT INTO t (x) VALUES ('e'); INSERT INTO t (x) VALUES ('f');
    -- trailing comment
    """
    statements = split_statements(sql)
    assert len(statements) == 4
    assert statements[0].endswith("DEFAULT 'a;b');")
    assert "CREATE TRIGGER" in statements[1]
    assert statements[1].endswith("END;")
    conn = sqlite3.connect(":memory:")
    for statement in statements:
        conn.execute(statement)
    assert [row[0] for row in conn.execute("SELECT x FROM t ORDER BY rowid")] == ["c;d", "c;d"]
    conn.close()


def test_split_statements_rejects_an_unterminated_statement() -> None:
    with pytest.raises(MigrationError, match="unterminated"):
        split_statements("CREATE TABLE a (x INTEGER);\nCREATE TABLE b (y INTEGER)")


async def test_connection_pragmas(db: Database, db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()
    pragmas = await db.engine.executor.read(  # type: ignore[attr-defined]
        lambda raw: {
            name: raw.execute(f"PRAGMA {name}").fetchone()[0]
            for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
        }
    )
    assert pragmas["journal_mode"] == "wal"
    assert pragmas["synchronous"] == 1  # NORMAL
    assert pragmas["foreign_keys"] == 1
    assert pragmas["busy_timeout"] > 0


async def test_open_creates_the_parent_directory(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "c.sqlite3"
    db = await Database.open(path)
    await db.close()
    assert path.is_file()
