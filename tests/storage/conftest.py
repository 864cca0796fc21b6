"""Fixtures for the storage tests: every test gets a real SQLite file under tmp_path."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from storage import BattleRecord, Database

NewBattle = Callable[..., Awaitable[BattleRecord]]
MakeState = Callable[..., dict[str, Any]]


def build_state(turn: int = 0, **extra: Any) -> dict[str, Any]:
    """Build a small state document shaped like the rules layer's."""
    return {
        "schema_version": 3,
        "turn": turn,
        "units": [
            {"id": "Eva-01", "cell": "G7", "wounds": 2},
            {"id": "Horde-3", "cell": "B2", "magnitude": 40},
        ],
        **extra,
    }


@pytest.fixture
def make_state() -> MakeState:
    """Return the state-document builder."""
    return build_state


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "battlepost.sqlite3"


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(db_path)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def new_battle(db: Database) -> NewBattle:
    """Return a factory creating a battle with sensible defaults."""

    async def create(**overrides: Any) -> BattleRecord:
        values: dict[str, Any] = {
            "guild_id": 100,
            "channel_id": 200,
            "thread_id": None,
            "name": "Hill 60",
            "ruleset": "strategic-e",
            "created_by": 1,
            "state": build_state(),
            "now": 1_000.0,
        }
        values.update(overrides)
        return await db.battles.create(**values)

    return create
