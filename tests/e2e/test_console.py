"""The console runs the same command tree as Discord: a script gives the same results both ways."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.console import ConsoleError, parse_duration, run_script, split_command
from bot.service import TableService
from loopback import LoopbackDiscord
from storage import Database
from tests.e2e.conftest import last_message, make_bot, rng_factory

SCRIPT = """\
# the GM sets up
as gm
/battle new name:"Siege of Hakone" ruleset:strategic-e width:12 height:10
/map paint terrain:forest from:D1 to:F4
/unit add name:Eva-01 side:NERV at:B2 owner:@alice ag:45
/unit add name:Sachiel side:Angels at:K8 owner:@bob ag:38
/battle start
as alice
/move unit:Eva-01 to:D2 mode:half
/move unit:Sachiel to:J8
/act unit:Eva-01 stat:ag modifier:10
as gm
/map show full:true
"""


def settings_for(db: Path) -> Settings:
    """Return settings that point at a database file."""
    return Settings(discord_token=None, database=str(db), dev_guild_id=None, log_level="INFO", backup_dir=None)


def scrub(outcome: dict[str, Any] | None) -> Any:
    """Drop user ids, which differ between two runs, from an outcome."""
    if outcome is None:
        return None
    text = json.dumps(outcome, sort_keys=True)
    data = json.loads(text)
    data["order"] = " ".join(t for t in data["order"].split() if not t.startswith("owner:"))
    for effect in data["effects"]:
        effect.pop("owner", None)
    return data


async def run_through_discord(db_path: Path, seed: int) -> list[dict[str, Any]]:
    """Play the script as typed slash commands against the loopback Discord."""
    results = []
    async with LoopbackDiscord() as discord:
        gm = discord.add_user("gm", manage_guild=True)
        alice = discord.add_user("alice")
        bob = discord.add_user("bob")
        channel = discord.add_channel(discord.guild, "battle")
        db = await Database.open(db_path)
        service = TableService(db, rng_factory=rng_factory(seed))
        await discord.start_bot(make_bot(service))
        calls: list[tuple[Any, str, dict[str, Any]]] = [
            (gm, "battle new", {"name": "Siege of Hakone", "ruleset": "strategic-e", "width": 12, "height": 10}),
            (gm, "map paint", {"terrain": "forest", "from": "D1", "to": "F4"}),
            (gm, "unit add", {"name": "Eva-01", "side": "NERV", "at": "B2", "owner": alice, "ag": 45}),
            (gm, "unit add", {"name": "Sachiel", "side": "Angels", "at": "K8", "owner": bob, "ag": 38}),
            (gm, "battle start", {}),
            (alice, "move", {"unit": "Eva-01", "to": "D2", "mode": "half"}),
            (alice, "move", {"unit": "Sachiel", "to": "J8"}),
            (alice, "act", {"unit": "Eva-01", "stat": "ag", "modifier": 10}),
            (gm, "map show", {"full": True}),
        ]
        seen = 0
        for user, command, options in calls:
            reply = await discord.slash(command, user=user, channel=channel, options=options)
            message = last_message(reply)
            record = await db.battles.in_channel(discord.guild.id, channel.id)
            outcome = None
            if record is not None:
                # The order's own outcome: a turn that then ended by itself is logged after it.
                events = [e for e in await db.events.list(record.id, limit=1000, newest_first=False) if e.seq > seen]
                if events:
                    seen = events[-1].seq
                    outcome = events[0].outcome if events[0].kind != "create" else None
            results.append({"ephemeral": message.ephemeral, "outcome": outcome,
                            "files": [f.data for f in message.files]})
        await discord.stop_bot()
        await db.close()
    return results


async def test_console_and_discord_agree(tmp_path: Path) -> None:
    out = io.StringIO()
    status = await run_script(settings_for(tmp_path / "console.sqlite3"), str(write(tmp_path, SCRIPT)),
                              as_json=True, seed=5, out_dir=str(tmp_path / "maps"), stdout=out)
    assert status == 0
    console = [json.loads(line) for line in out.getvalue().splitlines()]
    discord = await run_through_discord(tmp_path / "discord.sqlite3", seed=5)
    assert len(console) == len(discord) == 9
    assert [c["ok"] for c in console] == [True] * 6 + [False, True, True]
    assert "Sachiel is not yours" in console[6]["content"]
    for c, d in zip(console, discord, strict=True):
        assert c["ephemeral"] == d["ephemeral"], c["command"]
        assert scrub(c["outcome"]) == scrub(d["outcome"]), c["command"]
        assert [Path(f).read_bytes() for f in c["files"]] == d["files"], c["command"]
    # Eva-01 stands in forest (DTV 2): -5 per point on Agility tests (001:L42), so 45 - 10 + 10.
    test = console[7]["outcome"]["tests"][0]
    assert test["target"] == 45
    assert {"label": "Difficult terrain (DTV 2)", "value": -10, "source": "DTV"} in test["breakdown"]["modifiers"]
    assert console[5]["outcome"]["effects"][0] == {"type": "moved", "unit": "Eva-01", "frm": "B2", "to": "D2", "cost": 2}


def write(tmp: Path, text: str) -> Path:
    """Write a script file."""
    path = tmp / "script.play"
    path.write_text(text, encoding="utf-8")
    return path


async def test_console_reports_lines_it_cannot_read(tmp_path: Path) -> None:
    out = io.StringIO()
    script = "/battle new name:x ruleset:strategic-e width:ten height:5\nhello\n/nope\n"
    status = await run_script(settings_for(tmp_path / "c.sqlite3"), str(write(tmp_path, script)), as_json=True,
                              seed=1, out_dir=str(tmp_path / "maps"), stdout=out)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert status == 1
    assert "width must be a whole number" in lines[0]["error"]
    assert "lines are slash commands" in lines[1]["error"]
    assert "/nope is not a command" in lines[2]["error"]


def test_split_command_reads_discord_style_lines() -> None:
    words, options = split_command('/battle new name:"Siege of Hakone" width:30')
    assert words == ["battle", "new"] and options == {"name": "Siege of Hakone", "width": "30"}


async def test_the_console_survives_every_line_discord_would_not_send(tmp_path: Path) -> None:
    script = "\n".join([
        "as gm",
        '/battle new name:"Survivors" ruleset:strategic-e width:12 height:10',
        "/battle new ruleset:strategic-e width:12 height:10",   # a required option (name) missing
        '/battle new name:"Too big" ruleset:strategic-e width:5000 height:10',  # out of range
        "/turn mode mode:sideways",                             # not one of the choices
        "in two words",                                         # not a channel's name
        "/nope",                                                # no such command
        "wait a while",                                         # not a duration
        "click Launch",                                         # no such button
        "/unit add name:Eva-01 side:NERV at:B2 owner:@alice ag:45",
        "/battle info",
        "as alice",
        "/gm end",                                              # hidden from a member without Manage Server
        '/unit add name:"unclosed side:NERV at:B2',             # a quote left open
    ])
    out = io.StringIO()
    status = await run_script(settings_for(tmp_path / "c.sqlite3"), str(write(tmp_path, script)), as_json=True,
                              seed=1, out_dir=str(tmp_path / "maps"), stdout=out)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert status == 1 and len(lines) == 12, "every line answers once and the script runs to its end"
    assert [line["ok"] for line in lines] == [True, False, False, False, False, False, False, False, True, True,
                                              False, False]
    hidden = lines[10]["error"]
    assert "Discord does not show /gm to alice: it needs the Manage Server permission" in hidden
    assert "default_member_permissions" not in hidden and "No closing quotation" in lines[11]["error"]
    errors = [line["error"] for line in lines[1:8]]
    assert "missing required option" in errors[0] and "width" in errors[1] and "sideways" in errors[2]
    assert "a channel name is one word" in errors[3] and "/nope is not a command" in errors[4]
    assert "wait for how long?" in errors[5] and "no button `Launch`" in errors[6]
    assert "Eva-01" in lines[9]["content"] + json.dumps(lines[9]["embeds"])


async def test_a_console_battle_resumes_and_its_clock_can_be_moved_on(tmp_path: Path) -> None:
    db = tmp_path / "saved.sqlite3"
    first = "\n".join([
        "as gm",
        '/battle new name:"Long Game" ruleset:strategic-e width:12 height:10',
        "/unit add name:Eva-01 side:NERV at:B2 owner:@alice ag:45",
        "/unit add name:Sachiel side:Angels at:K8 ag:38",
        "/gm deadline hours:24",
        "/gm policy policy:hold",
        "/battle start",
    ])
    out = io.StringIO()
    assert await run_script(settings_for(db), str(write(tmp_path, first)), as_json=True, seed=2,
                            out_dir=str(tmp_path / "maps"), stdout=out) == 0
    second = "\n".join([
        "as alice",
        "/move unit:Eva-01 to:C2 mode:half",
        "wait 25h",
        "as gm",
        "/turn status",
    ])
    out = io.StringIO()
    assert await run_script(settings_for(db), str(write(tmp_path, second)), as_json=True, seed=3,
                            out_dir=str(tmp_path / "maps"), stdout=out) == 0
    moved, waited, status = (json.loads(x) for x in out.getvalue().splitlines())
    assert moved["ok"] and moved["outcome"]["effects"][0]["to"] == "C2", "alice still commands yesterday's Eva-01"
    # Past the whole day at once: both reminders come too late to send, then the deadline holds NERV.
    assert waited["content"] == "3 timer(s) fell due: stale, stale, held."
    assert any("Deadline passed" in post for post in waited["posts"])
    assert "Angels phase" in json.dumps(status["embeds"]), "the deadline held NERV and passed the turn on"


async def test_the_console_shows_side_threads_mutes_and_stall_reports(tmp_path: Path) -> None:
    script = "\n".join([
        "as gm",
        '/battle new name:"Quiet Front" ruleset:strategic-e width:12 height:10',
        "/unit add name:Eva-01 side:NERV at:B2 owner:@alice ag:45",
        "/unit add name:Sachiel side:Angels at:K8 ag:38",
        "/gm side-threads on:true",
        '/gm roll dice:1d100 purpose:"Operation Yashima" side:NERV',
        "/gm stall-after reminders:2",
        "as alice",
        "/turn reminders how:every hours:3",
        "as gm",
        "/battle start",
        "wait 6h",
    ])
    out = io.StringIO()
    assert await run_script(settings_for(tmp_path / "c.sqlite3"), str(write(tmp_path, script)), as_json=True,
                            seed=5, out_dir=str(tmp_path / "maps"), stdout=out) == 0
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    threads, rolled, started, waited = lines[3], lines[4], lines[7], lines[8]
    assert "NERV: <#" in json.dumps(threads["embeds"])
    [secret] = rolled["posts"]
    assert secret == "in #Quiet Front \u00b7 NERV: Hidden roll for NERV"
    assert "Mute this turn" in " ".join(started["posts"])
    stalls = [p for p in waited["posts"] if "has not acted after 2 reminders" in p]
    assert len(stalls) == 1 and len([p for p in waited["posts"] if "\u23f0" in p]) == 2


def test_wait_times_are_read_once() -> None:
    """`wait` reads `1d 2h`; 100,000 digits with no unit are refused at once, quoting only the start."""
    assert parse_duration("1d 2h") == 26 * 3600 and parse_duration("90m") == 5400
    with pytest.raises(ConsoleError, match="wait for how long") as refused:
        parse_duration("1" * 100_000 + "x")
    assert len(str(refused.value)) < 200
