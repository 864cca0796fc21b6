"""The PostgreSQL backend: a pool of connections shared by several bot processes.

Every process keeps two small pools. Programs run on the query pool, one transaction each. Locks
(``pg_advisory_xact_lock`` inside an open transaction) hold a connection of the lock pool for as long
as the block runs; keeping them apart means a task holding a battle's lock can always get a query
connection, so a burst of orders on many battles can never leave every connection waiting on a lock.
A killed process's connections close, and PostgreSQL releases its locks and rolls back its
unfinished transactions.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, TypeVar, cast

import asyncpg

from ..engine import LockSpace
from ..errors import DatabaseUnavailable
from ..migrate import load_migrations
from ..program import Program
from .locks import lock_ids
from .migrate import apply_migrations, schema_version
from .url import check_url, redact

log = logging.getLogger(__name__)

T = TypeVar("T")

# Per process: at most QUERY_POOL + LOCK_POOL connections (docs/scaling.md sizes the server by it).
QUERY_POOL = 6
LOCK_POOL = 10
CONNECT_TIMEOUT = 10.0
_LOCK = "SELECT pg_advisory_xact_lock($1, $2)"


def _rowcount(status: str) -> int:
    # asyncpg reports "UPDATE 3", "DELETE 0", "INSERT 0 1": the count is the last word.
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


async def drive(conn: asyncpg.Connection, program: Program[T]) -> T:
    """Run every step of a program on this connection and return what the program returns."""
    result: Any = None
    try:
        while True:
            step = program.send(result)
            sql = step.query.postgres
            if step.want == "one":
                record = await conn.fetchrow(sql, *step.params)
                result = None if record is None else tuple(record)
            elif step.want == "rows":
                result = [tuple(record) for record in await conn.fetch(sql, *step.params)]
            else:
                result = _rowcount(await conn.execute(sql, *step.params))
    except StopIteration as stop:
        return cast(T, stop.value)
    finally:
        program.close()


async def connect(url: str) -> asyncpg.Connection:
    """Open one connection, turning every way of failing into a message a GM can act on."""
    where = redact(url)
    try:
        return await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
    except asyncpg.InvalidCatalogNameError as exc:
        raise DatabaseUnavailable(
            f"The PostgreSQL server at {where} has no such database ({exc}). Create it first, e.g. "
            "`createdb battlepost`, then start battlepost again."
        ) from None
    except (asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError) as exc:
        raise DatabaseUnavailable(
            f"The PostgreSQL server at {where} refused the login ({exc}). Check the user and password in "
            "BATTLEPOST_DB."
        ) from None
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
        reason = str(exc) or type(exc).__name__
        raise DatabaseUnavailable(
            f"Could not reach the PostgreSQL database at {where} ({reason}). Check that the server is "
            "running and that the URL's host, port and database name are right."
        ) from None


class PostgresEngine:
    """Run storage programs on a PostgreSQL database that several bot processes share."""

    backend = "postgresql"

    def __init__(self, url: str, queries: asyncpg.Pool, locks: asyncpg.Pool) -> None:
        self.url = url
        self._queries = queries
        self._locks = locks

    @classmethod
    async def open(cls, url: str) -> PostgresEngine:
        """Connect, bring the schema up to date, and open the pools."""
        check_url(url)
        conn = await connect(url)
        try:
            version = await apply_migrations(conn, load_migrations(dialect="postgresql"))
        finally:
            await conn.close()
        queries = await asyncpg.create_pool(url, min_size=1, max_size=QUERY_POOL, timeout=CONNECT_TIMEOUT)
        try:
            locks = await asyncpg.create_pool(url, min_size=0, max_size=LOCK_POOL, timeout=CONNECT_TIMEOUT)
        except BaseException:
            await queries.close()
            raise
        log.info("opened %s at schema version %d", redact(url), version)
        return cls(url, queries, locks)

    async def read(self, program: Program[T]) -> T:
        """Run a program that only reads, on a pooled connection."""
        async with self._queries.acquire() as conn:
            return await drive(cast(asyncpg.Connection, conn), program)

    async def write(self, program: Program[T]) -> T:
        """Run a program as one transaction on a pooled connection."""
        async with self._queries.acquire() as conn, conn.transaction():
            return await drive(cast(asyncpg.Connection, conn), program)

    @asynccontextmanager
    async def lock(self, space: LockSpace, key: int) -> AsyncIterator[None]:
        """Hold a transaction-scoped advisory lock for as long as the block runs."""
        async with self._locks.acquire() as conn, conn.transaction():
            await conn.execute(_LOCK, *lock_ids(int(space), key))
            yield

    async def schema_version(self) -> int:
        """Return the number of the last migration applied."""
        async with self._queries.acquire() as conn:
            return await schema_version(cast(asyncpg.Connection, conn))

    def describe(self) -> str:
        """Return the URL without its password."""
        return redact(self.url)

    async def close(self) -> None:
        """Close both pools, waiting for connections in use to be released."""
        try:
            await self._locks.close()
        finally:
            await self._queries.close()
