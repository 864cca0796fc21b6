"""The floor an order is measured against: what the same work costs done the least way possible.

Three parts, each measured in the same run as the order it is compared with:

* encoding the same image: the fastest of Pillow's PNG writer at its fastest levels and a bare level-1
  deflate of the raw pixels (what any compressed PNG of those pixels must at least do);
* one minimal SQLite transaction of the same size: one row updated with a document as long as the battle's
  state and one row inserted as long as the order's log entry, in one hop to the connection's thread;
* the round trip of the smallest discord.py bot that answers a slash command with an embed, against the
  same loopback Discord.
"""

from __future__ import annotations

import io
import os
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

from storage.executor import Executor


def encoders(image: Image.Image) -> dict[str, Callable[[], int]]:
    """Return ways to encode the image, each returning the number of bytes it made."""
    raw = image.tobytes()

    def pillow(level: int) -> Callable[[], int]:
        def run() -> int:
            buf = io.BytesIO()
            image.save(buf, format="PNG", compress_level=level)
            return len(buf.getvalue())
        return run

    return {
        "pillow png level 1": pillow(1),
        "pillow png level 0": pillow(0),
        "deflate level 1 of the pixels": lambda: len(zlib.compress(raw, 1)),
    }


def _minimal_schema(raw: object) -> None:
    connection = raw  # a sqlite3.Connection on the executor's thread
    connection.execute("CREATE TABLE IF NOT EXISTS doc (id INTEGER PRIMARY KEY, version INTEGER, body TEXT)")  # type: ignore[attr-defined]
    connection.execute("CREATE TABLE IF NOT EXISTS log (doc INTEGER, seq INTEGER, body TEXT, blob BLOB, "  # type: ignore[attr-defined]
                       "PRIMARY KEY (doc, seq))")
    connection.execute("INSERT OR IGNORE INTO doc VALUES (1, 1, '')")  # type: ignore[attr-defined]


class SqliteFloor:
    """One minimal SQLite transaction at a time: a document updated and a log row inserted, in one hop."""

    def __init__(self, executor: Executor) -> None:
        self._executor = executor
        self._seq = 0

    @classmethod
    async def open(cls, folder: Path) -> SqliteFloor:
        """Open the floor's own database file in folder."""
        executor = await Executor.connect(folder / "floor.sqlite3")
        await executor.write(_minimal_schema)
        return cls(executor)

    async def once(self, *, state: int, entry: int, snapshot: int) -> float:
        """Time one transaction updating a `state`-long document and logging an `entry` + `snapshot` row."""
        self._seq += 1
        body, text, blob = "x" * state, "y" * entry, os.urandom(snapshot)

        def step(raw: object, seq: int = self._seq) -> None:
            raw.execute("UPDATE doc SET body = ?, version = version + 1 WHERE id = 1", (body,))  # type: ignore[attr-defined]
            raw.execute("INSERT INTO log VALUES (1, ?, ?, ?)", (seq, text, blob))  # type: ignore[attr-defined]
        start = time.perf_counter()
        await self._executor.write(step)
        return time.perf_counter() - start

    async def close(self) -> None:
        """Close the floor's database."""
        await self._executor.close()


def fastest_encode(image: Image.Image) -> tuple[str, float]:
    """Return the fastest way to encode this one image and its time."""
    best: tuple[str, float] | None = None
    for name, run in encoders(image).items():
        start = time.perf_counter()
        run()
        spent = time.perf_counter() - start
        if best is None or spent < best[1]:
            best = (name, spent)
    assert best is not None
    return best


class FloorCog(commands.Cog):
    """One slash command that answers with an embed at once."""

    @app_commands.command(name="ping", description="Answer with an embed")
    async def ping(self, interaction: discord.Interaction) -> None:
        """Answer with a small embed."""
        embed = discord.Embed(title="Pong", description="An answer with an embed.")
        await interaction.response.send_message(embed=embed)


class FloorBot(commands.Bot):
    """The smallest discord.py bot answering a slash command with an embed."""

    def __init__(self) -> None:
        wanted = discord.Intents.none()
        wanted.guilds = True  # what battlepost asks for too
        super().__init__(command_prefix=commands.when_mentioned, intents=wanted, guild_ready_timeout=0.05)

    async def setup_hook(self) -> None:
        """Load the command and sync it."""
        await self.add_cog(FloorCog())
        await self.tree.sync()
