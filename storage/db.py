"""The Database: one backend (a SQLite file or a PostgreSQL server) and the repositories over it."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from .battles import BattleRepo
from .clocks import ClockRepo
from .copy import copy_to_new_file
from .digests import DigestRepo
from .engine import Engine, LockSpace
from .events import EventRepo
from .messages import MessageRepo
from .outbox import OutboxRepo
from .players import PlayerRepo
from .postgres import check_url, is_url
from .seats import SeatRepo
from .settings import GuildRepo, UserRepo
from .sqlite_engine import SqliteEngine
from .takebacks import TakebackRepo
from .timers import TimerRepo
from .vacations import VacationRepo
from .weblinks import WebLinkRepo

if TYPE_CHECKING:
    from .postgres.notify import ChangeListener

log = logging.getLogger(__name__)

Target = str | os.PathLike[str]


def is_postgres(target: Target) -> bool:
    """Return whether a BATTLEPOST_DB value names a server (a URL) rather than a SQLite file."""
    return isinstance(target, str) and is_url(target)


class Database:
    """Expose one repository per table over whichever backend the target names."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.battles = BattleRepo(engine)
        self.events = EventRepo(engine)
        self.guilds = GuildRepo(engine)
        self.users = UserRepo(engine)
        self.timers = TimerRepo(engine)
        self.messages = MessageRepo(engine)
        self.clocks = ClockRepo(engine)
        self.players = PlayerRepo(engine)
        self.vacations = VacationRepo(engine)
        self.outbox = OutboxRepo(engine)
        self.web_links = WebLinkRepo(engine)
        self.takebacks = TakebackRepo(engine)
        self.digests = DigestRepo(engine)
        self.seats = SeatRepo(engine)

    @classmethod
    async def open(cls, target: Target) -> Database:
        """Open a SQLite file (a path) or a PostgreSQL database (a postgresql:// URL) and migrate it."""
        if is_postgres(target):
            # Imported here so a SQLite-only bot never loads the PostgreSQL driver.
            from .postgres.engine import PostgresEngine

            engine: Engine = await PostgresEngine.open(check_url(str(target)))
        else:
            engine = await SqliteEngine.open(target)
        return cls(engine)

    @property
    def backend(self) -> str:
        """Return `sqlite` or `postgresql`."""
        return self.engine.backend

    @property
    def path(self) -> Path | None:
        """Return the SQLite file, or None on PostgreSQL."""
        return self.engine.path if isinstance(self.engine, SqliteEngine) else None

    def describe(self) -> str:
        """Say where the data lives, without any password."""
        return self.engine.describe()

    def lock(self, space: LockSpace, key: int) -> AbstractAsyncContextManager[None]:
        """Hold a lock every process sharing this database respects (a no-op for a SQLite file)."""
        return self.engine.lock(space, key)

    async def listen(self, on_change: Callable[[int, int], None]) -> ChangeListener | None:
        """Call back with (battle id, version) for each change any process commits (PostgreSQL); None on SQLite,
        whose changes only the process that made them hears of (through its table service)."""
        if self.backend != "postgresql":
            return None
        from .postgres.engine import PostgresEngine
        from .postgres.notify import ChangeListener

        assert isinstance(self.engine, PostgresEngine)
        return await ChangeListener.start(self.engine.url, on_change)

    async def close(self) -> None:
        """Close the connections; pending work queued before this call still completes."""
        await self.engine.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def schema_version(self) -> int:
        """Return the number of the last migration applied."""
        return await self.engine.schema_version()

    async def backup(self, dest: Target) -> None:
        """Write a consistent copy of the whole database to a SQLite file at dest."""
        if isinstance(self.engine, SqliteEngine):
            await self.engine.backup(dest)
            return
        await copy_to_new_file(self, dest, Database.open)
