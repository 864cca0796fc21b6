"""Opening a database that cannot be used: a clear reason, and nothing written anywhere."""

from __future__ import annotations

import pytest

from storage import Database, DatabaseAddressError, DatabaseUnavailable, is_postgres
from storage.postgres import redact
from tests.pgserver import ThrowawayPostgres, free_port


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://db.example.org/battlepost", "`mysql://`, which battlepost cannot use"),
        ("postgresql://db.example.org:port/battlepost", "not a usable PostgreSQL URL"),
        ("postgresql:///battlepost", "names no PostgreSQL server"),
        ("postgresql://db.example.org:5432/", "names no database"),
        ("postgresql://db.example.org:0/battlepost", "port 0"),
    ],
)
async def test_malformed_urls_are_refused_before_connecting(url: str, says: str) -> None:
    with pytest.raises(DatabaseAddressError, match=says) as info:
        await Database.open(url)
    assert "postgresql://" in str(info.value) or "5432" in str(info.value)


def test_paths_and_urls_are_told_apart() -> None:
    assert is_postgres("postgresql://u@h/db") and is_postgres("postgres://u@h/db") and is_postgres("mysql://h/db")
    assert not is_postgres("./data/battlepost.sqlite3") and not is_postgres("/srv/bp/postgresql.sqlite3")


async def test_an_unreachable_server_is_named_without_its_password() -> None:
    url = f"postgresql://battlepost:hunter2@127.0.0.1:{free_port()}/battlepost"
    with pytest.raises(DatabaseUnavailable, match="Could not reach") as info:
        await Database.open(url)
    assert "hunter2" not in str(info.value)
    assert "battlepost:***@127.0.0.1" in str(info.value)


async def test_a_missing_database_says_how_to_create_it(postgres_server: ThrowawayPostgres) -> None:
    with pytest.raises(DatabaseUnavailable, match="createdb"):
        await Database.open(postgres_server.url("no_such_db"))
    assert postgres_server.psql("SELECT count(*) FROM pg_database WHERE datname = 'no_such_db'") == "0"


async def test_an_unknown_user_is_a_refused_login(postgres_server: ThrowawayPostgres) -> None:
    url = postgres_server.url("postgres").replace("battlepost@", "nobody_here@")
    with pytest.raises(DatabaseUnavailable, match="refused the login"):
        await Database.open(url)


def test_redact_hides_only_the_password() -> None:
    assert redact("postgresql://bp:s3cret@db:5432/x?sslmode=require") == "postgresql://bp:***@db:5432/x?sslmode=require"
    assert redact("postgresql://bp@db/x") == "postgresql://bp@db/x"


async def test_a_unix_socket_url_opens_the_database(postgres_server: ThrowawayPostgres, postgres_url: str) -> None:
    """The form docs/scaling.md gives for a server on the same machine: no host, the socket folder as ?host=."""
    name = postgres_url.rsplit("/", 1)[-1]
    url = f"postgresql:///{name}?host={postgres_server.root}&port={postgres_server.port}&user=battlepost"
    async with await Database.open(url) as db:
        assert db.backend == "postgresql" and await db.schema_version() >= 1
