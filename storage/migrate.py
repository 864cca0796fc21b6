"""Load the numbered SQL migrations and apply the missing ones to a SQLite file in order.

Each backend has its own folder, ``migrations/sqlite/`` and ``migrations/postgresql/``, with the
same numbers and names: migration N means the same schema on both, written in each dialect.
On SQLite each file ``NNNN_name.sql`` is applied in its own ``BEGIN IMMEDIATE``
transaction together with ``PRAGMA user_version = NNNN``, so a failed migration leaves
both the schema and the recorded version exactly as they were. Statements are split
here and run one by one: ``executescript`` would commit the open transaction first.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal

from .errors import MigrationError

log = logging.getLogger(__name__)

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_LINE_COMMENT = re.compile(r"--[^\n]*")
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
# Statements that would end or nest the transaction the runner wraps around each file.
_FORBIDDEN = re.compile(r"^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|VACUUM)\b", re.IGNORECASE)

Dialect = Literal["sqlite", "postgresql"]
DIALECTS: tuple[Dialect, ...] = ("sqlite", "postgresql")


@dataclass(frozen=True)
class Migration:
    """Hold one numbered migration and its statements."""

    version: int
    name: str
    statements: tuple[str, ...]


def split_statements(sql: str) -> list[str]:
    """Split a SQL script into single statements, honouring strings, comments and triggers."""
    statements: list[str] = []
    start = 0
    for index, char in enumerate(sql):
        if char != ";":
            continue
        candidate = sql[start : index + 1]
        # complete_statement() knows about quotes, comments and CREATE TRIGGER ... END;
        # so a semicolon inside any of those does not end the statement.
        if sqlite3.complete_statement(candidate):
            if _has_code(candidate):
                statements.append(candidate.strip())
            start = index + 1
    if _has_code(sql[start:]):
        raise MigrationError(f"unterminated statement at the end of the script: {sql[start:].strip()[:60]!r}")
    return statements


def _has_code(text: str) -> bool:
    stripped = _BLOCK_COMMENT.sub("", _LINE_COMMENT.sub("", text))
    return bool(stripped.replace(";", "").strip())


def _parse(name: str, sql: str) -> Migration:
    match = _FILE_NAME.match(name)
    if match is None:
        raise MigrationError(f"migration file name {name!r} is not NNNN_name.sql")
    statements = split_statements(sql)
    for statement in statements:
        if _FORBIDDEN.match(_LINE_COMMENT.sub("", statement)):
            raise MigrationError(f"{name}: transaction control is not allowed in a migration")
    return Migration(version=int(match.group(1)), name=match.group(2), statements=tuple(statements))


def migrations_folder(dialect: Dialect) -> Traversable:
    """Return the packaged folder of one backend's migrations."""
    return resources.files(__package__ or "storage").joinpath("migrations", dialect)


def load_migrations(directory: Traversable | Path | None = None, *, dialect: Dialect = "sqlite") -> list[Migration]:
    """Read the migration files in version order and check they are numbered 1..N."""
    folder: Traversable | Path = migrations_folder(dialect) if directory is None else directory
    migrations = sorted(
        (
            _parse(entry.name, entry.read_text(encoding="utf-8"))
            for entry in folder.iterdir()
            if entry.name.endswith(".sql")
        ),
        key=lambda m: m.version,
    )
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"migrations must be numbered 1..N without gaps; found {migration.version} at {expected}"
            )
    return migrations


def user_version(raw: sqlite3.Connection) -> int:
    """Return the schema version recorded in the database header."""
    return int(raw.execute("PRAGMA user_version").fetchone()[0])


def refuse_newer(current: int, migrations: Sequence[Migration]) -> None:
    """Refuse a database whose schema comes from newer code: this code would misread it."""
    latest = migrations[-1].version if migrations else 0
    if current > latest:
        raise MigrationError(
            f"the database's schema version is {current}, newer than this battlepost knows ({latest}); "
            "it was written by a newer release. Upgrade battlepost, or point BATTLEPOST_DB at another "
            "database. Nothing was changed."
        )


def apply_migrations(raw: sqlite3.Connection, migrations: Sequence[Migration]) -> int:
    """Apply every migration newer than the file's version; return the final version."""
    current = user_version(raw)
    refuse_newer(current, migrations)
    for migration in migrations:
        if migration.version > current:
            current = _apply_one(raw, migration)
    return current


def _apply_one(raw: sqlite3.Connection, migration: Migration) -> int:
    if raw.in_transaction:
        raise MigrationError("migrations must start outside a transaction")
    raw.execute("BEGIN IMMEDIATE")
    try:
        # Another process may have migrated between our version check and the lock.
        current = user_version(raw)
        if current >= migration.version:
            raw.execute("COMMIT")
            return current
        for statement in migration.statements:
            raw.execute(statement)
        _check_foreign_keys(raw, migration)
        # PRAGMA takes no bound parameters; the value is an int parsed from the file name.
        raw.execute(f"PRAGMA user_version = {int(migration.version)}")
        raw.execute("COMMIT")
    except BaseException as exc:
        if raw.in_transaction:
            raw.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise MigrationError(f"migration {migration.version:04d}_{migration.name} failed: {exc}") from exc
        raise
    log.info("applied migration %04d_%s", migration.version, migration.name)
    return migration.version


def _check_foreign_keys(raw: sqlite3.Connection, migration: Migration) -> None:
    violations: Iterable[tuple[object, ...]] = raw.execute("PRAGMA foreign_key_check").fetchall()
    first = next(iter(violations), None)
    if first is not None:
        raise MigrationError(
            f"migration {migration.version:04d}_{migration.name} left a foreign key violation: {first!r}"
        )
