"""Fixtures for every test: fail on logged errors, the loopback Discord, and a throwaway PostgreSQL."""

from collections.abc import Iterator

import pytest

from loopback.pytest_fixtures import *  # noqa: F403
from rules.systems import install as _install_systems
from tests.pgserver import ThrowawayPostgres

# Every test plays the shipped rule systems; front ends register them the same way at startup.
_install_systems()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[ThrowawayPostgres]:
    """Start one PostgreSQL server for the whole run (only if a test asks for it) and stop it after."""
    server = ThrowawayPostgres().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: ThrowawayPostgres) -> Iterator[str]:
    """Return the URL of a fresh, empty database, dropped after the test."""
    url = postgres_server.create_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)
