"""Build the services in order: database, migrations, table service, then the client."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.config import Settings
from bot.service import TableService
from storage import Database

log = logging.getLogger(__name__)


@asynccontextmanager
async def open_services(settings: Settings) -> AsyncIterator[TableService]:
    """Open the database (migrating it) and yield the table service; close it afterwards."""
    db = await Database.open(settings.db_path)
    log.info("database %s at schema version %s", settings.db_path, await db.schema_version())
    try:
        yield TableService(db)
    finally:
        await db.close()
