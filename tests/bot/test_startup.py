"""Starting the bot with settings that cannot work: one clear line, exit status 2, nothing written."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import DEFAULT_RENDER_WORKERS, ConfigError, load_settings
from bot.sharding import ShardError, ShardPlan, describe, parse_ids, plan
from storage import Database
from storage.migrate import load_migrations
from tests.fleet import ROOT
from tests.pgserver import free_port


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Run from an empty folder (no .env) with a token and no battlepost settings."""
    for key in list(os.environ):
        if key.startswith(("BATTLEPOST_", "DEV_GUILD")):
            monkeypatch.delenv(key)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(argv)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return status, err


@pytest.mark.parametrize(
    ("database", "says"),
    [
        ("mysql://db.example.org/battlepost", "cannot use: give a file path for SQLite, or a PostgreSQL URL"),
        ("postgresql://bp@db.example.org:port/battlepost", "not a usable PostgreSQL URL"),
        ("postgresql://bp@db.example.org:5432", "names no database"),
    ],
)
def test_a_malformed_database_url_stops_the_start(
    clean_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, database: str, says: str
) -> None:
    monkeypatch.setenv("BATTLEPOST_DB", database)
    status, err = run([], capsys)
    assert status == 2
    assert err.startswith("battlepost: cannot use the database:") and says in err
    assert list(clean_env.iterdir()) == []


def test_an_unreachable_server_stops_the_real_command_with_status_2(tmp_path: Path) -> None:
    env = {**os.environ, "DISCORD_TOKEN": "not-a-real-token", "PYTHONPATH": str(ROOT),
           "BATTLEPOST_DB": f"postgresql://bp:pw@127.0.0.1:{free_port()}/battlepost"}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert "Could not reach the PostgreSQL database at postgresql://bp:***@127.0.0.1" in done.stderr
    assert "Traceback" not in done.stderr and "pw@" not in done.stderr
    assert list(tmp_path.iterdir()) == []


async def test_a_schema_from_a_newer_release_stops_the_start_untouched(
    clean_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = clean_env / "battlepost.sqlite3"
    async with await Database.open(path) as db:
        await db.guilds.set_gm_role(1, 2)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {len(load_migrations()) + 1}")
    conn.close()
    before = path.read_bytes()
    monkeypatch.setenv("BATTLEPOST_DB", str(path))
    status, err = await_main([], capsys)
    assert status == 2 and "newer than this battlepost knows" in err and "Nothing was changed" in err
    assert path.read_bytes() == before


def await_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run main() from a worker thread: it starts its own event loop, which a test's running loop forbids."""
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(run, argv, capsys).result()


def test_part_of_the_shards_over_sqlite_is_refused(
    clean_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BATTLEPOST_DB", str(clean_env / "bp.sqlite3"))
    status, err = run(["--shards", "0-3", "--shard-count", "8"], capsys)
    assert status == 2
    assert "run only shards 0-3 of 8" in err and "postgresql:// URL" in err
    assert list(clean_env.iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--shards", "0-3"], "without how many there are in all"),
        (["--shards", "2-9", "--shard-count", "8"], "shard 8 does not exist when there are 8 shards"),
        (["--shards", "3-1", "--shard-count", "8"], "runs backwards"),
        (["--shards", "first", "--shard-count", "8"], "is not a list of shards"),
        (["--shard-count", "0"], "from 1 to 4096"),
        (["run", "--shards", "x", "--shard-count", "2"], "is not a list of shards"),
    ],
)
def test_bad_shard_options_are_explained(
    clean_env: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    status, err = run(argv, capsys)
    assert status == 2 and says in err and err.startswith("battlepost: --shards / --shard-count:")


def test_shard_settings_come_from_the_environment_and_the_command_line_wins(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BATTLEPOST_SHARDS", "4-7")
    monkeypatch.setenv("BATTLEPOST_SHARD_COUNT", "8")
    assert load_settings().shards == ShardPlan(ids=(4, 5, 6, 7), count=8)
    monkeypatch.setenv("BATTLEPOST_SHARDS", "9")
    with pytest.raises(ConfigError, match="shard 9 does not exist"):
        load_settings()


def test_the_command_line_wins_over_the_environment_field_by_field(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BATTLEPOST_SHARDS", "0-3")
    monkeypatch.setenv("BATTLEPOST_SHARD_COUNT", "8")
    assert load_settings(shards="4-7").shards == ShardPlan(ids=(4, 5, 6, 7), count=8)
    assert load_settings(shard_count="4").shards == ShardPlan(ids=(0, 1, 2, 3), count=4)


def test_settings_never_show_the_database_password(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BATTLEPOST_DB", "postgresql://bp:hunter2@db.example.org/battlepost")
    shown = repr(load_settings())
    assert "hunter2" not in shown and "not-a-real-token" not in shown and "bp:***@db.example.org" in shown


def test_shard_lists() -> None:
    assert parse_ids("0-3") == (0, 1, 2, 3)
    assert parse_ids("4, 6,5") == (4, 5, 6)
    assert parse_ids("0-1,6,3-3") == (0, 1, 3, 6)
    assert describe((0, 1, 2, 3, 6, 8, 9)) == "0-3,6,8-9"
    assert plan(None, None) is None
    assert plan(None, "4") == ShardPlan(ids=(0, 1, 2, 3), count=4)
    assert plan("0-3", "4") == ShardPlan(ids=(0, 1, 2, 3), count=4) and plan("0-3", "4").everything  # type: ignore[union-attr]
    assert not plan("0-3", "8").everything  # type: ignore[union-attr]
    with pytest.raises(ShardError):
        parse_ids("0-")


def test_migrate_db_refuses_to_copy_a_database_onto_itself(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, err = run(["migrate-db", "--from", "a.sqlite3", "--to", "a.sqlite3"], capsys)
    assert status == 2 and "name the same database" in err
    assert list(clean_env.iterdir()) == []


def test_a_bad_scheduler_poll_is_explained(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BATTLEPOST_SCHEDULER_POLL", "often")
    with pytest.raises(ConfigError, match="BATTLEPOST_SCHEDULER_POLL must be a number of seconds"):
        load_settings()
    monkeypatch.setenv("BATTLEPOST_SCHEDULER_POLL", "0.5")
    assert load_settings().scheduler_poll == 0.5


def test_render_workers_are_read_and_a_bad_count_is_explained(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings().render_workers == DEFAULT_RENDER_WORKERS
    monkeypatch.setenv("BATTLEPOST_RENDER_WORKERS", "0")
    assert load_settings().render_workers == 0
    monkeypatch.setenv("BATTLEPOST_RENDER_WORKERS", "3")
    assert load_settings().render_workers == 3
    for bad in ("-1", "many", "99"):
        monkeypatch.setenv("BATTLEPOST_RENDER_WORKERS", bad)
        with pytest.raises(ConfigError, match="BATTLEPOST_RENDER_WORKERS must be a whole number of processes"):
            load_settings()
