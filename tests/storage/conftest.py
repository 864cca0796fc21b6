"""Fixtures for the storage tests: every test runs against a real SQLite file and a real PostgreSQL database."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from storage import BattleRecord, Database

NewBattle = Callable[..., Awaitable[BattleRecord]]
MakeState = Callable[..., dict[str, Any]]

BACKENDS = ("sqlite", "postgresql")


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


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Run the test once per storage backend."""
    return str(request.param)


@pytest.fixture
def db_target(backend: str, request: pytest.FixtureRequest) -> str:
    """Return what BATTLEPOST_DB would hold: a SQLite file path, or the URL of an empty PostgreSQL database."""
    if backend == "sqlite":
        return str(request.getfixturevalue("db_path"))
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
async def db(db_target: str) -> AsyncIterator[Database]:
    database = await Database.open(db_target)
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
