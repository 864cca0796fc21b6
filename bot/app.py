"""Build the services in order: database, migrations, table service, then the client."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.config import Settings
from bot.service import TableService
from storage import Database, StorageError

log = logging.getLogger(__name__)


class StartupError(Exception):
    """The bot cannot start as configured; the message says what to change. Nothing was written."""


async def open_database(target: str) -> Database:
    """Open and migrate the database BATTLEPOST_DB names, or explain why it cannot be used."""
    try:
        db = await Database.open(target)
    except StorageError as exc:
        raise StartupError(f"cannot use the database: {exc}") from None
    log.info("database %s (%s) at schema version %s", db.describe(), db.backend, await db.schema_version())
    return db


@asynccontextmanager
async def open_services(settings: Settings) -> AsyncIterator[TableService]:
    """Open the database (migrating it) and yield the table service; close it afterwards."""
    db = await open_database(settings.database)
    service = TableService(db, render_workers=settings.render_workers)
    try:
        yield service
    finally:
        service.close()
        await db.close()
