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


def encode_floor(images: list[Image.Image]) -> tuple[str, list[float]]:
    """Return the fastest encoder of these images and its time for each."""
    best: tuple[str, list[float]] | None = None
    for name in encoders(images[0]):
        times = []
        for image in images:
            run = encoders(image)[name]
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        if best is None or sorted(times)[len(times) // 2] < sorted(best[1])[len(best[1]) // 2]:
            best = (name, times)
    assert best is not None
    return best


def _minimal_schema(raw: object) -> None:
    connection = raw  # a sqlite3.Connection on the executor's thread
    connection.execute("CREATE TABLE IF NOT EXISTS doc (id INTEGER PRIMARY KEY, version INTEGER, body TEXT)")  # type: ignore[attr-defined]
    connection.execute("CREATE TABLE IF NOT EXISTS log (doc INTEGER, seq INTEGER, body TEXT, blob BLOB, "  # type: ignore[attr-defined]
                       "PRIMARY KEY (doc, seq))")
    connection.execute("INSERT OR IGNORE INTO doc VALUES (1, 1, '')")  # type: ignore[attr-defined]


async def sqlite_floor(folder: Path, *, state: int, entry: int, snapshot: int, count: int) -> list[float]:
    """Time `count` minimal transactions: update a `state`-long document and log an `entry` + `snapshot` row."""
    executor = await Executor.connect(folder / "floor.sqlite3")
    try:
        await executor.write(_minimal_schema)
        body = "x" * state
        text = "y" * entry
        blob = os.urandom(snapshot)
        times: list[float] = []
        for seq in range(1, count + 1):
            def step(raw: object, seq: int = seq) -> None:
                raw.execute("UPDATE doc SET body = ?, version = version + 1 WHERE id = 1", (body,))  # type: ignore[attr-defined]
                raw.execute("INSERT INTO log VALUES (1, ?, ?, ?)", (seq, text, blob))  # type: ignore[attr-defined]
            start = time.perf_counter()
            await executor.write(step)
            times.append(time.perf_counter() - start)
        return times
    finally:
        await executor.close()


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
