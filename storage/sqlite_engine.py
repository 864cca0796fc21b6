"""The SQLite backend: one file, one connection, every transaction one hop to its thread."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

from .backup import backup_file
from .engine import LockSpace
from .errors import StorageError
from .executor import Executor
from .migrate import Migration, apply_migrations, load_migrations, refuse_newer, user_version
from .program import Program

log = logging.getLogger(__name__)

T = TypeVar("T")


class SqliteEngine:
    """Run storage programs on a SQLite file through the process's single connection."""

    backend = "sqlite"

    def __init__(self, path: Path, executor: Executor) -> None:
        self.path = path
        self.executor = executor

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> SqliteEngine:
        """Open (creating if needed) the file and bring its schema up to date."""
        resolved, migrations = await asyncio.to_thread(_prepare, path)
        executor = await Executor.connect(resolved)
        try:
            version = await executor.read(lambda raw: apply_migrations(raw, migrations))
        except BaseException:
            await executor.close()
            raise
        log.info("opened %s at schema version %d", resolved, version)
        return cls(resolved, executor)

    async def read(self, program: Program[T]) -> T:
        """Run a program that only reads."""
        return await self.executor.read_program(program)

    async def write(self, program: Program[T]) -> T:
        """Run a program in one BEGIN IMMEDIATE transaction."""
        return await self.executor.write_program(program)

    @asynccontextmanager
    async def lock(self, space: LockSpace, key: int) -> AsyncIterator[None]:
        """Hold nothing: a SQLite file serves one bot process, whose own locks already serialise it."""
        yield

    async def schema_version(self) -> int:
        """Return the number of the last migration applied to this file."""
        return await self.executor.read(user_version)

    def describe(self) -> str:
        """Return the file's path."""
        return str(self.path)

    async def backup(self, dest: str | os.PathLike[str]) -> None:
        """Write a consistent copy of the file to dest without pausing writers."""
        await asyncio.to_thread(backup_file, self.path, dest)

    async def close(self) -> None:
        """Close the connection; work queued before this call still completes."""
        await self.executor.close()


def _prepare(path: str | os.PathLike[str]) -> tuple[Path, list[Migration]]:
    resolved = Path(path).resolve()
    if resolved.is_dir():
        raise StorageError(f"{resolved} is a folder; BATTLEPOST_DB must name a database file inside it.")
    migrations = load_migrations()
    if resolved.exists():
        # Read the version without the connection's settings first: a file from newer code, or a file
        # that is not a database at all, is refused before anything is written to it.
        try:
            probe = sqlite3.connect(f"{resolved.as_uri()}?mode=ro", uri=True)
            try:
                current = user_version(probe)
            finally:
                probe.close()
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"{resolved} is not a battlepost database ({exc}); nothing was changed.") from None
        refuse_newer(current, migrations)
    else:
        resolved.parent.mkdir(parents=True, exist_ok=True)
    return resolved, migrations
