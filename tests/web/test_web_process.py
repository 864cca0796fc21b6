"""Running the web view: its settings, alone as `python -m bot web`, and live across processes."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.config import ConfigError, load_settings
from bot.service import Actor, TableService
from bot.webfront import issue_links
from rules.battle import Battle
from rules.coords import Cell
from rules.orders import AddUnit, Move, Start
from storage import Database
from tests.web.conftest import free_port
from web.server import start

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Run from an empty folder (no .env) with no battlepost settings."""
    for key in list(os.environ):
        if key.startswith("BATTLEPOST_"):
            monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_web_view_is_on_by_default_and_can_be_moved_or_turned_off(clean_env: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings()
    assert settings.web == ("127.0.0.1", 8080) and settings.web_url == "http://127.0.0.1:8080"
    monkeypatch.setenv("BATTLEPOST_WEB", "0.0.0.0:9000")
    monkeypatch.setenv("BATTLEPOST_WEB_URL", "https://battles.example.org/")
    settings = load_settings()
    assert settings.web == ("0.0.0.0", 9000) and settings.web_url == "https://battles.example.org"
    monkeypatch.setenv("BATTLEPOST_WEB", "off")
    monkeypatch.delenv("BATTLEPOST_WEB_URL")
    assert load_settings().web is None and load_settings().web_url == ""


@pytest.mark.parametrize(("name", "value", "says"), [
    ("BATTLEPOST_WEB", "8080", "BATTLEPOST_WEB must be host:port"),
    ("BATTLEPOST_WEB", "localhost:http", "BATTLEPOST_WEB must be host:port"),
    ("BATTLEPOST_WEB", "localhost:70000", "BATTLEPOST_WEB must be host:port"),
    ("BATTLEPOST_WEB_URL", "battles.example.org", "BATTLEPOST_WEB_URL must be an http:// or https:// address"),
    ("BATTLEPOST_WEB_URL", "javascript:alert(1)", "BATTLEPOST_WEB_URL must be an http:// or https:// address"),
])
def test_bad_web_settings_are_explained(clean_env: Path, monkeypatch: pytest.MonkeyPatch, name: str, value: str,
                                        says: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=says):
        load_settings()


async def test_the_web_view_alone_shows_orders_given_in_another_process(tmp_path: Path) -> None:
    db_path = tmp_path / "battlepost.sqlite3"
    db = await Database.open(db_path)
    service = TableService(db, render=False)
    gm = Actor(user_id=1, guild_id=10, name="gm", manage_guild=True)
    created = await service.create_battle(gm, channel_id=20, thread_id=None, name="Hill 60", ruleset="strategic-e",
                                          width=8, height=6)
    record = created.record
    for order in (AddUnit(name="Eva-01", side="NERV", at=Cell.parse("B2"), owner=1), Start()):
        record = (await service.execute(gm, record, order, render=False)).record
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    link = next(x.url for x in await issue_links(service, gm, record, base) if x.audience == "public")
    env = {**os.environ, "BATTLEPOST_DB": str(db_path), "BATTLEPOST_WEB": f"127.0.0.1:{port}", "PYTHONPATH": str(ROOT)}
    web = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "web", cwd=tmp_path, env=env,
                                               stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(200):  # until it listens
                try:
                    async with http.get(link) as answer:
                        page = await answer.text()
                        break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.1)
            else:
                raise AssertionError("python -m bot web did not start")
            assert 'data-name="Eva-01"' in page and 'data-square="B2"' in page
            async with http.get(f"{link}/events") as stream:
                await stream.content.readuntil(b"\n\n")
                record = (await service.execute(gm, record, Move(unit="Eva-01", to=Cell.parse("C3")),
                                                render=False)).record
                change = (await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 30)).decode()
            assert f'"version": {record.version}' in change
            async with http.get(f"{link}/frame.json") as answer:
                frame = (await answer.json())["board"]
            assert 'data-square="C3"' in frame and 'data-square="B2"' not in frame
        assert Battle.from_dict(record.state).unit("Eva-01").cell == Cell.parse("C3")
    finally:
        web.send_signal(signal.SIGTERM)
        out, _ = await asyncio.wait_for(web.communicate(), 30)
        await db.close()
    assert web.returncode == 0, out.decode()
    assert b"Traceback" not in out


async def test_on_postgresql_an_order_of_another_process_reaches_an_open_page_by_its_notice(postgres_url: str) -> None:
    # Two services over one database stand for two bot processes: the web view runs beside the first, the order
    # is given through the second. The web view looks at versions only once an hour here, so only the
    # database's notice can bring the order in time.
    first = await Database.open(postgres_url)
    second = await Database.open(postgres_url)
    watching, ordering = TableService(first, render=False), TableService(second, render=False)
    gm = Actor(user_id=1, guild_id=10, name="gm", manage_guild=True)
    created = await ordering.create_battle(gm, channel_id=20, thread_id=None, name="Hill 60", ruleset="strategic-e",
                                           width=8, height=6)
    record = created.record
    for order in (AddUnit(name="Eva-01", side="NERV", at=Cell.parse("B2"), owner=1), Start()):
        record = (await ordering.execute(gm, record, order, render=False)).record
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    link = next(x.url for x in await issue_links(watching, gm, record, base) if x.audience == "public")
    stop = await start(watching, host="127.0.0.1", port=port, base_url=base, poll=3600, slow_poll=3600)
    try:
        async with aiohttp.ClientSession() as http, http.get(f"{link}/events") as stream:
            hello = (await stream.content.readuntil(b"\n\n")).decode()
            assert f'"version": {record.version}' in hello
            record = (await ordering.execute(gm, record, Move(unit="Eva-01", to=Cell.parse("C3")), render=False)).record
            # Generous: the notice comes within milliseconds; without it nothing would come for an hour.
            change = (await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 30)).decode()
            assert change.startswith("event: change") and f'"version": {record.version}' in change
            async with http.get(f"{link}/frame.json") as answer:
                frame = (await answer.json())["board"]
            assert 'data-square="C3"' in frame and 'data-square="B2"' not in frame
    finally:
        await stop()
        await first.close()
        await second.close()


async def test_a_sqlite_file_sends_no_notices_its_own_process_tells_the_web_view(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "battlepost.sqlite3")
    try:
        heard: list[tuple[int, int]] = []
        assert await db.listen(lambda battle, version: heard.append((battle, version))) is None
    finally:
        await db.close()
