"""A bot killed outright leaves no map worker behind: its worker processes end when their parent is gone.

The bot runs as its own process (`python -m bot`) against the loopback Discord of this test, with one map
worker. After it has drawn a map, it is killed with SIGKILL, as an OOM kill or a crash would; every
process it had started (the map worker, and multiprocessing's resource tracker if one runs) must end too.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

from loopback import LoopbackDiscord
from tests.e2e.conftest import text_of
from tests.fleet import TOKEN, BotProcess

# How long the children of a killed bot may take to notice; the test polls and passes as soon as they are gone.
PATIENCE = 30.0


def children_of(pid: int) -> dict[int, str]:
    """Return the live processes whose parent is pid, with their command lines."""
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # ended while we looked
            continue
        # The command name in parentheses may hold spaces; the fields after its closing bracket do not.
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        if int(parent) == pid and state != "Z":
            found[int(entry.name)] = command
    return found


def alive(pid: int) -> bool:
    """Return whether pid is a live process (a zombie waiting for its reaper is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


async def test_a_killed_bot_leaves_no_map_worker_running(loopback: LoopbackDiscord, tmp_path: Path) -> None:
    guild = loopback.add_guild("Workers")
    gm = loopback.add_user("gm", guild=guild, manage_guild=True)
    channel = guild.channel("general")
    bot = BotProcess("bot", "0", 1, loopback.server.base_url, str(tmp_path / "battles.db"), tmp_path,
                     render_workers=1)
    started: dict[int, str] = {}
    bot.start()
    try:
        await loopback.serve_processes(TOKEN, 1)
        for command, options in (("battle new", {"name": "Workers", "ruleset": "strategic-e", "width": 12,
                                                 "height": 10}),
                                 ("unit add", {"name": "Eva-01", "side": "NERV", "at": "C3", "ag": 45}),
                                 ("map show", {})):
            reply = await loopback.slash(command, user=gm, channel=channel, options=options, within=60)
            assert not reply.ephemeral, text_of(reply)
        assert bot.proc is not None
        started = children_of(bot.proc.pid)
        workers = [pid for pid, command in started.items() if "multiprocessing" in command]
        assert workers, f"the bot drew its map in a worker process: {started}"
        bot.kill()
        deadline = time.monotonic() + PATIENCE
        while left := {pid: command for pid, command in started.items() if alive(pid)}:
            assert time.monotonic() < deadline, f"still running after the bot was killed: {left}"
            await asyncio.sleep(0.1)
    finally:
        await bot.shut_down()
        for pid in started:  # a failed run must not leave its orphans to the next test
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
