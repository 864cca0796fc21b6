"""`python -m bot migrate-db`: battles played through the bot move to PostgreSQL and back, checked by replay."""

from __future__ import annotations

import concurrent.futures
import io
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import Settings
from bot.console import run_script
from bot.migrate_db import migrate_db, sample_ids
from storage import Database
from storage.copy import table_counts

SCRIPT = """\
as gm
/battle new name:"First" ruleset:strategic-e width:12 height:10
/unit add name:Eva-01 side:NERV at:B2 owner:@alice ag:45
/unit add name:Sachiel side:Angels at:K8 owner:@bob ag:38
/battle start
as alice
/move unit:Eva-01 to:D2 mode:half
/roll dice:2d10+5 purpose:"knife"
as gm
/gm undo count:1
/gm end
click End the battle
/battle new name:"Second" ruleset:strategic-e width:10 height:8
/map paint terrain:forest from:C1 to:E4
/unit add name:Eva-02 side:NERV at:B2 owner:@alice ag:52
/unit add name:Angel side:Angels at:H6 ag:38
/gm deadline hours:2
/battle start
as alice
/move unit:Eva-02 to:C3 mode:half
/act unit:Eva-02 stat:ag modifier:10
"""


async def played(tmp_path: Path) -> Path:
    """Play the script through the real bot into a SQLite file; return the file."""
    path = tmp_path / "played.sqlite3"
    script = tmp_path / "script.play"
    script.write_text(SCRIPT, encoding="utf-8")
    settings = Settings(discord_token=None, database=str(path), dev_guild_id=None, log_level="INFO", backup_dir=None)
    out = io.StringIO()
    assert await run_script(settings, str(script), as_json=True, seed=5, out_dir=str(tmp_path / "maps"),
                            stdout=out) == 0, out.getvalue()
    return path


def in_thread(argv: list[str]) -> int:
    """Run the command line from a worker thread (it starts its own event loop)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(main, argv).result()


async def test_battles_go_to_postgresql_and_back_and_replay(tmp_path: Path, postgres_url: str) -> None:
    source = await played(tmp_path)
    back = tmp_path / "back.sqlite3"
    assert in_thread(["migrate-db", "--from", str(source), "--to", postgres_url]) == 0
    assert in_thread(["migrate-db", "--from", postgres_url, "--to", str(back)]) == 0
    async with await Database.open(source) as original, await Database.open(back) as returned:
        counts = await table_counts(original)
        assert counts["battles"] == 2 and counts["events"] > 10 and counts["battle_clocks"] == 2
        assert await table_counts(returned) == counts
        for battle_id in await original.battles.all_ids():
            assert await returned.battles.get(battle_id) == await original.battles.get(battle_id)
            assert await returned.events.list(battle_id, limit=500) == await original.events.list(battle_id, limit=500)
            assert await returned.timers.pending(battle_id) == await original.timers.pending(battle_id)
            assert await returned.clocks.get(battle_id) == await original.clocks.get(battle_id)


async def test_the_report_gives_counts_and_the_replayed_sample(tmp_path: Path, postgres_url: str) -> None:
    source = await played(tmp_path)
    out = io.StringIO()
    assert await migrate_db(str(source), postgres_url, sample=20, out=out) == 0
    report = out.getvalue()
    assert "rows on both sides: guild_settings 0, user_settings 0, battles 2, events " in report
    assert "replayed 2 of 2 battles on the new database: each matches its stored state" in report
    assert "postgresql://battlepost@127.0.0.1" in report


async def test_a_target_that_holds_battles_is_refused_untouched(tmp_path: Path, postgres_url: str) -> None:
    source = await played(tmp_path)
    async with await Database.open(postgres_url) as pg:
        await pg.battles.create(guild_id=1, channel_id=2, thread_id=None, name="Keep me", ruleset="m42",
                                created_by=3, state={}, now=0.0)
        before = await table_counts(pg)
    out = io.StringIO()
    assert await migrate_db(str(source), postgres_url, out=out) == 2
    assert "already holds data (1 battles, 1 events); copy into an empty database" in out.getvalue()
    async with await Database.open(postgres_url) as pg:
        assert await table_counts(pg) == before


async def test_a_battle_that_no_longer_replays_fails_the_check(tmp_path: Path, postgres_url: str) -> None:
    """A state that its own log does not rebuild (edited by hand, or a broken copy) is caught by the replay."""
    source = await played(tmp_path)
    conn = sqlite3.connect(source)
    conn.execute("UPDATE battles SET state = replace(state, '\"Eva-02\"', '\"Eva-99\"') WHERE name = 'Second'")
    conn.commit()
    conn.close()
    out = io.StringIO()
    assert await migrate_db(str(source), postgres_url, out=out) == 1
    assert "the copy does not check out: battle #2 does not replay on the new database" in out.getvalue()
    assert "Do not switch BATTLEPOST_DB to it" in out.getvalue()


@pytest.mark.parametrize(("size", "expected"), [(0, []), (1, [9]), (3, [0, 4, 9]), (20, list(range(10)))])
def test_the_sample_spans_the_oldest_to_the_newest(size: int, expected: list[int]) -> None:
    assert sample_ids(list(range(10)), size) == expected
