"""Rule system plug-ins that fail to load: each is logged with its name and why, and the bot starts without it.

Each case is a real distribution on `sys.path` (a `.dist-info` folder with its `entry_points.txt` and the
modules it names) in a temporary folder, found by `importlib.metadata` as an installed package would be.
"""

from __future__ import annotations

import importlib
import logging
import sys
from pathlib import Path

import pytest

import rules.orders
import rules.plugins
import rules.system
from bot.service import TableService
from loopback import LoopbackDiscord
from loopback.logcapture import ErrorLogCapture
from rules.plugins import discover, installed
from rules.system import ruleset_ids
from storage import Database
from tests.e2e.conftest import Table, last_message, make_bot, text_of

# A system the fakes build on: the core's own pieces only, so each fake is a few lines.
SYSTEM = """
from rules.plugins import Plugin
from rules.system import HandlerTable, System
from rules.units import Unit

SYSTEM = System(id={id!r}, name={name!r}, package={package!r}, ruleset_ids=({ruleset!r},), handlers=HandlerTable(),
                unit_type=Unit, legal_orders=lambda battle, unit: iter(()))
PLUGIN = Plugin(system=SYSTEM, front_end={front_end!r})
"""

GOOD_TABLE = """id = "{ruleset}"
name = "Test Pit"
scale = "1 square = 1 pace"
square_unit = "pace"
default_terrain = "sand"
[range]
bands = []
[constants]
[[terrain]]
key = "sand"
name = "Sand"
char = "."
[turns]
initiative = "1d6"
"""


@pytest.fixture(autouse=True)
def _registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let a test register fake systems: the registries are copies, put back as they were afterwards."""
    for module, names in ((rules.system, ("_SYSTEMS", "_BY_RULESET", "_PROVIDERS")), (rules.orders, ("_SYSTEM_ORDERS",)),
                          (rules.plugins, ("_LOADED", "_FAILED", "_ENTRIES"))):
        for name in names:
            monkeypatch.setattr(module, name, type(getattr(module, name))(getattr(module, name)))


def distribution(root: Path, monkeypatch: pytest.MonkeyPatch, dist: str, entry: str,
                 files: dict[str, str]) -> None:
    """Install a fake distribution in `root`: its metadata, one `battlepost.systems` entry point and its files."""
    info = root / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[battlepost.systems]\n{entry}\n", encoding="utf-8")
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    for top in {path.split("/")[0] for path in files}:
        monkeypatch.delitem(sys.modules, top, raising=False)  # a module of the same name from another case
    monkeypatch.syspath_prepend(str(root))
    importlib.invalidate_caches()


def system_files(package: str, *, id: str, ruleset: str, table: str | None, front_end: str | None = None) -> dict[str, str]:
    """Return the files of a fake system package: its module and, if given, its ruleset's data table."""
    files = {f"{package}/__init__.py": SYSTEM.format(id=id, name=f"Fake {id}", package=package, ruleset=ruleset,
                                                      front_end=front_end)}
    if table is not None:
        files[f"{package}/data/{ruleset}.toml"] = table
    return files


def failure_of(name: str) -> rules.plugins.Failure:
    """Return the recorded failure of an entry point, failing the test if it loaded."""
    found = {f.name: f for f in rules.plugins.failures()}
    assert name in found, f"{name} did not fail; failures: {list(found)}"
    return found[name]


def left_out(caplog: pytest.LogCaptureFixture, name: str, dist: str, reason: str) -> None:
    """Check the log names the plug-in, its distribution and the reason it was left out."""
    lines = [r.getMessage() for r in caplog.records if r.name == "rules.plugins" and r.levelno == logging.ERROR]
    assert any(name in line and dist in line and reason in line for line in lines), lines


def test_a_plugin_whose_import_fails_is_logged_and_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    distribution(tmp_path, monkeypatch, "battlepost-broken", "broken = broken_pit:PLUGIN",
                 {"broken_pit/__init__.py": "import a_module_nobody_installed\n"})
    before = set(ruleset_ids())
    with caplog.at_level(logging.INFO, logger="rules.plugins"):
        found = discover()
    assert [f.name for f in found.failed] == ["broken"]
    failure = failure_of("broken")
    assert failure.distribution == "battlepost-broken"
    assert "ModuleNotFoundError" in failure.reason and "a_module_nobody_installed" in failure.reason
    left_out(caplog, "'broken'", "battlepost-broken", "a_module_nobody_installed")
    assert set(ruleset_ids()) == before
    assert {"strategic", "combat_action", "surface", "m42"} <= {d.plugin.system.id for d in installed()}


def test_a_plugin_whose_ruleset_id_is_taken_is_logged_and_left_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    distribution(tmp_path, monkeypatch, "battlepost-clash", "clash = clash_pit:PLUGIN",
                 system_files("clash_pit", id="clash", ruleset="m42", table=GOOD_TABLE.format(ruleset="m42")))
    with caplog.at_level(logging.INFO, logger="rules.plugins"):
        discover()
    failure = failure_of("clash")
    assert failure.reason == "the ruleset id `m42` is already taken by M42 Movement & Terrain"
    left_out(caplog, "'clash'", "battlepost-clash", "`m42` is already taken")
    assert rules.system.system_of("m42").id == "m42"  # the shipped system still plays its ruleset
    assert "clash" not in {s.id for s in rules.system.registered()}


def test_a_plugin_whose_system_id_is_taken_is_logged_and_left_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    distribution(tmp_path, monkeypatch, "battlepost-twin", "twin = twin_pit:PLUGIN",
                 system_files("twin_pit", id="surface", ruleset="twin", table=GOOD_TABLE.format(ruleset="twin")))
    with caplog.at_level(logging.INFO, logger="rules.plugins"):
        discover()
    assert "the system id `surface` is already taken by Surface Combat" == failure_of("twin").reason
    assert "twin" not in ruleset_ids()


@pytest.mark.parametrize(("table", "reason"), [
    ('id = "sandy"\nname = "Test Pit\n', "sandy.toml is not valid TOML"),
    (GOOD_TABLE.format(ruleset="sandy").replace('default_terrain = "sand"', 'default_terrain = "lava"'),
     "default terrain `lava` is not in the terrain table"),
    (GOOD_TABLE.format(ruleset="elsewhere"), "sandy.toml says its id is `elsewhere`"),
    (None, "FileNotFoundError"),
    (GOOD_TABLE.format(ruleset="sandy") + 'turn_mode = "whenever"\n', "`turn_mode` must be one of"),
])
def test_a_plugin_whose_data_table_is_malformed_is_logged_and_left_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        table: str | None, reason: str) -> None:
    distribution(tmp_path, monkeypatch, "battlepost-sandy", "sandy = sandy_pit:PLUGIN",
                 system_files("sandy_pit", id="sandy", ruleset="sandy", table=table))
    with caplog.at_level(logging.INFO, logger="rules.plugins"):
        discover()
    assert reason in failure_of("sandy").reason
    left_out(caplog, "'sandy'", "battlepost-sandy", reason)
    assert "sandy" not in ruleset_ids()


def test_an_entry_point_that_names_no_plugin_is_logged_and_left_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    distribution(tmp_path, monkeypatch, "battlepost-odd", "odd = odd_pit:PLUGIN",
                 {"odd_pit/__init__.py": "PLUGIN = 'a system, honestly'\n"})
    discover()
    assert failure_of("odd").reason == "`odd_pit:PLUGIN` is a str, not a rules.plugins.Plugin"


async def test_the_bot_starts_without_the_plugins_that_fail(
        loopback: LoopbackDiscord, logged_errors: ErrorLogCapture, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    distribution(tmp_path / "a", monkeypatch, "battlepost-broken", "broken = broken_pit:PLUGIN",
                 {"broken_pit/__init__.py": "raise RuntimeError('the pit flooded')\n"})
    # Its rules load, its front end does not: the system is playable with the shared commands only.
    distribution(tmp_path / "b", monkeypatch, "battlepost-frontless", "frontless = frontless_pit:PLUGIN",
                 {**system_files("frontless_pit", id="frontless", ruleset="frontless",
                                 table=GOOD_TABLE.format(ruleset="frontless"), front_end="frontless_discord"),
                  "frontless_discord/__init__.py": "import discord.no_such_part\n"})
    db = await Database.open(tmp_path / "battlepost.sqlite3")
    service = TableService(db)
    gm = loopback.add_user("gm", manage_guild=True)
    channel = loopback.add_channel(loopback.guild, "battle")
    await loopback.start_bot(make_bot(service))
    try:
        assert "broken" in {f.name for f in rules.plugins.failures()}
        errors = [r.getMessage() for r in logged_errors.take()]
        assert any("frontless_discord" in e and "'frontless'" in e and "battlepost-frontless" in e
                   and "no_such_part" in e for e in errors), errors
        reply = await loopback.slash("battle new", user=gm, channel=channel,
                                     options={"name": "Shared Only", "ruleset": "frontless", "width": 4, "height": 4})
        assert "New battle: Shared Only" in text_of(reply)
        info = await loopback.slash("battle info", user=gm, channel=channel, options={})
        assert "Shared Only" in text_of(info)  # the shared replies stand in for the front end that failed
        assert any("frontless_discord" in r.getMessage() and r.levelno == logging.WARNING for r in caplog.records)
        assert "frontless_discord" not in sys.modules
    finally:
        await loopback.stop_bot()
        await db.close()


async def test_a_battle_whose_system_is_gone_is_read_only_and_its_deadline_waits(table: Table) -> None:
    other = table.discord.add_channel(table.discord.guild, "second-front")
    await table.setup_battle()
    await table.gm_slash("gm policy", policy="hold")
    await table.gm_slash("gm deadline", hours=2)
    await table.slash("battle start")
    await table.slash("battle new", channel=other, name="Second Front", ruleset="strategic-p", width=8, height=8)
    await table.slash("unit add", channel=other, name="Mari", side="Euro", at="A1", owner=table.bob)
    await table.slash("unit add", channel=other, name="Asuka", side="Nerv", at="H8", owner=table.alice)
    await table.discord.slash("gm policy", user=table.gm, channel=other, options={"policy": "hold"})
    await table.discord.slash("gm deadline", user=table.gm, channel=other, options={"hours": 1.0})
    await table.slash("battle start", channel=other)
    gone = await table.db.battles.in_channel(table.discord.guild.id, table.channel.id)
    assert gone is not None
    # The ruleset's system is uninstalled while the bot is down; the other battle's system stays.
    del rules.system._BY_RULESET["strategic-e"]
    table.clock.advance(days=1)
    await table.restart()
    fired = [f for f in await table.tick() if f.timer.kind == "deadline"]
    assert [f.action for f in fired if f.timer.battle_id != gone.id] == ["held"]  # the other battle plays on
    assert [f.action for f in fired if f.timer.battle_id == gone.id] == ["stale"]  # left alone, not applied
    reply = await table.slash("move", unit="Eva-01", to="D4", user=table.alice)
    message = last_message(reply)
    assert message.ephemeral and "`strategic-e`" in message.content and "read-only" in message.content
    after = await table.db.battles.get(gone.id)
    assert after is not None and (after.version, after.state_text) == (gone.version, gone.state_text)


def test_metadata_that_lists_no_system_says_how_to_mend_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    # An egg-info written before the entry points existed, first on the path, shadows battlepost's metadata.
    stale = tmp_path / "battlepost.egg-info"
    stale.mkdir()
    (stale / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: battlepost\nVersion: 0.1.0\n", encoding="utf-8")
    (stale / "entry_points.txt").write_text("[console_scripts]\nbattlepost = bot.__main__:main\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    with caplog.at_level(logging.INFO, logger="rules.plugins"):
        found = discover()
    assert found.loaded == () and found.failed == ()
    [error] = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert "no rule system is installed" in error and "reinstall battlepost" in error
