"""The event loop's longest callback while the largest files the limits allow are imported.

A stat-block file of 400 units (the most a battle holds) is imported into a Strategic and a Combat Action
battle through the real bot and the loopback Discord, while a LoopWatch times every callback of the loop.
Run: .venv/bin/python benchmarks/bench_imports.py
"""

from __future__ import annotations

import asyncio
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from probes import LoopWatch

from bot.client import BattleBot
from bot.heap import settle_heap
from bot.service import TableService
from loopback import LoopbackDiscord
from rules.battle import MAX_UNITS
from storage import Database
from tests.e2e.import_files import SIDE, combat_action_units, strategic_units


async def measure(ruleset: str, body: bytes, folder: Path) -> tuple[float, float, float, float]:
    """Import the file into a new battle; return the wall time, the longest loop callback, its CPU time and the
    longest garbage collection (s).

    A callback's wall time also counts the waits for the interpreter lock while the import's thread runs, and
    for the CPU on a busy machine; its CPU time is what the loop itself spent.
    """
    db = await Database.open(folder / f"{ruleset}.sqlite3")
    discord = LoopbackDiscord()
    await discord.start()
    service = TableService(db, render=False)
    bot = BattleBot(service, sync_guild_id=discord.guild.id, guild_ready_timeout=0.05, board_spacing=0.0)
    await discord.start_bot(bot)
    gm = discord.add_user("gm", manage_guild=True)
    channel = discord.channel("general")
    try:
        await discord.slash("battle new", user=gm, channel=channel,
                            options={"name": "Import", "ruleset": ruleset, "width": SIDE, "height": SIDE})
        await discord.settle()
        settle_heap()  # as the bot does once started: what startup made is out of the collector's sight
        with LoopWatch() as watch:
            started = time.perf_counter()
            reply = await discord.slash("unit import", user=gm, channel=channel,
                                        options={"file": ("units.toml", body)}, within=120)
            await discord.settle()
            wall = time.perf_counter() - started
            longest, cpu = watch.reset()
            collected = watch.reset_gc()
        assert "Imported 400 units" in str(reply), reply
    finally:
        await discord.close()
        await db.close()
    return wall, longest, cpu, collected


async def main() -> None:
    """Measure each system's largest import and print one line each."""
    logging.getLogger("discord").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as folder:
        for ruleset, body in (("strategic-e", strategic_units()), ("combat-action", combat_action_units())):
            wall, longest, cpu, collected = await measure(ruleset, body, Path(folder))
            print(f"{ruleset:14} {MAX_UNITS} units, {len(body) // 1024} KiB: {wall:6.2f} s in all, "
                  f"longest loop callback {longest * 1000:7.1f} ms ({cpu * 1000:.1f} ms CPU), "
                  f"longest collection {collected * 1000:.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
