"""The Database: one connection, its migrations, and the repositories over it."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from types import TracebackType

from .backup import backup_file
from .battles import BattleRepo
from .clocks import ClockRepo
from .events import EventRepo
from .executor import Executor
from .messages import MessageRepo
from .migrate import Migration, apply_migrations, load_migrations, user_version
from .settings import GuildRepo, UserRepo
from .timers import TimerRepo

log = logging.getLogger(__name__)


class Database:
    """Own the process's single SQLite connection and expose one repository per table."""

    def __init__(self, path: Path, executor: Executor) -> None:
        self.path = path
        self._executor = executor
        self.battles = BattleRepo(executor)
        self.events = EventRepo(executor)
        self.guilds = GuildRepo(executor)
        self.users = UserRepo(executor)
        self.timers = TimerRepo(executor)
        self.messages = MessageRepo(executor)
        self.clocks = ClockRepo(executor)

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> Database:
        """Open (creating if needed) the database file and bring its schema up to date."""
        resolved, migrations = await asyncio.to_thread(_prepare, path)
        executor = await Executor.connect(resolved)
        try:
            version = await executor.read(lambda raw: apply_migrations(raw, migrations))
        except BaseException:
            await executor.close()
            raise
        log.info("opened %s at schema version %d", resolved, version)
        return cls(resolved, executor)

    async def close(self) -> None:
        """Close the connection; pending work queued before this call still completes."""
        await self._executor.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def schema_version(self) -> int:
        """Return the number of the last migration applied to this file."""
        return await self._executor.read(user_version)

    async def backup(self, dest: str | os.PathLike[str]) -> None:
        """Write a consistent copy of the database to dest without pausing writers."""
        await asyncio.to_thread(backup_file, self.path, dest)


def _prepare(path: str | os.PathLike[str]) -> tuple[Path, list[Migration]]:
    resolved = Path(path).resolve()
    resolved.parent.mkdir(parents=True, exist_ok=True)
    return resolved, load_migrations()
