"""Apply the numbered PostgreSQL migrations, one transaction each, under a lock every process respects."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import asyncpg

from ..errors import MigrationError
from ..migrate import Migration, refuse_newer
from .locks import MIGRATIONS, lock_ids

log = logging.getLogger(__name__)

# PostgreSQL has no user_version header: one row in this table plays its part. It is created with
# the first migration, inside the same transaction, so an empty database stays empty until then.
_VERSION_EXISTS = "SELECT to_regclass('battlepost_schema') IS NOT NULL"
_VERSION = "SELECT version FROM battlepost_schema"
_CREATE_VERSION = "CREATE TABLE battlepost_schema (version INTEGER NOT NULL CHECK (version >= 0))"
_INSERT_VERSION = "INSERT INTO battlepost_schema (version) VALUES ($1)"
_UPDATE_VERSION = "UPDATE battlepost_schema SET version = $1"
_LOCK = "SELECT pg_advisory_xact_lock($1, $2)"


async def schema_version(conn: asyncpg.Connection) -> int:
    """Return the number of the last migration applied to this database (0 when it is empty)."""
    if not await conn.fetchval(_VERSION_EXISTS):
        return 0
    return int(await conn.fetchval(_VERSION))


async def apply_migrations(conn: asyncpg.Connection, migrations: Sequence[Migration]) -> int:
    """Apply every migration newer than the database's version; return the final version."""
    while True:
        # Several processes starting together: the first migrates, the others wait here and then
        # find the work done. A newer schema is refused inside the transaction, so nothing is written.
        async with conn.transaction():
            await conn.execute(_LOCK, *lock_ids(MIGRATIONS, 0))
            current = await schema_version(conn)
            refuse_newer(current, migrations)
            if current >= len(migrations):
                return current
            migration = migrations[current]
            try:
                for statement in migration.statements:
                    await conn.execute(statement)
                if current == 0:
                    await conn.execute(_CREATE_VERSION)
                    await conn.execute(_INSERT_VERSION, migration.version)
                else:
                    await conn.execute(_UPDATE_VERSION, migration.version)
            except asyncpg.PostgresError as exc:
                raise MigrationError(f"migration {migration.version:04d}_{migration.name} failed: {exc}") from exc
        log.info("applied migration %04d_%s", migration.version, migration.name)
