"""Bot processes for the multi-process tests and the load benchmark: real `python -m bot --shards ...` runs.

Each process is started through the loopback's launcher, so it runs the bot's own command line against
the stand-in of the test process, over a shared PostgreSQL database. Its log (discord.py's and ours, at
INFO) goes to a file per start, so a process killed and started again leaves both logs behind.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO

from bot.clock import plan
from loopback import launch
from storage import Database

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "fleet-token"
# The scheduler's log line for each timer it handled (bot.scheduler.Scheduler.run_due).
FIRED = re.compile(r"timer (\d+) \((\w+)\) of battle (\d+): (\w+)")


@dataclass
class BotProcess:
    """One bot process running some shards; start, kill (SIGKILL) and stop (SIGINT) it."""

    name: str
    shards: str
    shard_count: int
    base_url: str
    database: str
    workdir: Path
    poll: float | None = None
    render_workers: int = 0
    starts: int = 0
    proc: subprocess.Popen[bytes] | None = None
    _log: IO[bytes] | None = field(default=None, repr=False)

    def log_path(self, start: int) -> Path:
        """Return the log file of the given start (1 for the first)."""
        return self.workdir / f"{self.name}.{start}.log"

    def start(self) -> None:
        """Start the process (again)."""
        self.starts += 1
        env = {k: v for k, v in os.environ.items() if not k.startswith(("BATTLEPOST_", "DISCORD_", "DEV_GUILD"))}
        env.update({
            "DISCORD_TOKEN": TOKEN, "BATTLEPOST_DB": self.database, "LOG_LEVEL": "INFO",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            # Maps in each bot's own process unless asked: the tests start many bots, and the worker pool has
            # tests of its own.
            "BATTLEPOST_RENDER_WORKERS": str(self.render_workers),
            # Several bots on one host cannot all serve the web view on its default port; its tests start their own.
            "BATTLEPOST_WEB": "off",
        })
        if self.poll is not None:
            env["BATTLEPOST_SCHEDULER_POLL"] = str(self.poll)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path(self.starts).open("wb")
        # cwd is the work folder, so a developer's .env never leaks into the test.
        self.proc = subprocess.Popen(
            [sys.executable, "-m", launch.__name__, self.base_url, "bot", "--shards", self.shards,
             "--shard-count", str(self.shard_count)],
            cwd=self.workdir, env=env, stdout=self._log, stderr=subprocess.STDOUT,
        )

    @property
    def alive(self) -> bool:
        """Return whether the process is running."""
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """Kill the process at once, as a crash or an OOM kill would."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self._close_log()

    def stop(self, timeout: float = 20.0) -> int:
        """Ask the process to stop (Ctrl-C) and wait; kill it if it does not; return its exit status."""
        if self.proc is None:
            return 0
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._close_log()
        return int(self.proc.returncode)

    async def shut_down(self, patience: float = 20.0) -> int:
        """Stop the process from async code: the loopback in this event loop keeps answering it meanwhile."""
        return await asyncio.to_thread(self.stop, patience)

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def logs(self) -> str:
        """Return the text of every log this process wrote, oldest start first."""
        return "\n".join(self.log_path(n).read_text(errors="replace") for n in range(1, self.starts + 1)
                         if self.log_path(n).exists())


def fired_timers(processes: list[BotProcess]) -> Counter[int]:
    """Count, per timer id, how many times any process handled it."""
    return Counter(int(match.group(1)) for p in processes for match in FIRED.finditer(p.logs()))


def errors_in(processes: list[BotProcess]) -> list[str]:
    """Return the ERROR and CRITICAL log lines (and tracebacks) of every process."""
    return [line for p in processes for line in p.logs().splitlines()
            if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")]


async def hurry_turn(db: Database, battle_id: int, *, span: float, now: float) -> list[int]:
    """Make the battle's current turn last `span` seconds from now, as if its GM had set so short a deadline.

    Its reminders (at "50%" by default) and deadline are rescheduled as the bot would; turns after it get
    the same short deadline. Return the ids of the timers scheduled.
    """
    clock = await db.clocks.get(battle_id)
    hurried = replace(clock, deadline=span, turn_started=now, due_at=now + span, paused_at=None, remaining=None,
                      expired_at=None)
    return await db.clocks.save(hurried, timers=plan(hurried, after=now))
