"""Fixtures for the bot tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """Yield a real SQLite database in a temporary folder (the file is battlepost.sqlite3)."""
    database = await Database.open(tmp_path / "battlepost.sqlite3")
    try:
        yield database
    finally:
        await database.close()
