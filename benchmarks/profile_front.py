"""Where a /move and a /turn end spend their CPU, through the loopback Discord, on the realistic 60-unit battle.

Each /move (a player's Half move) and each /turn end (the due unit's player ending its turn, confirming the
question about unused points as a player would) is timed until everything it sets off is done: the board, the
pings, the replies. CPU counts the bot's process and its map worker. With --profile, the event loop's thread
and every worker thread's job are profiled by CPU time (not wall time, so waiting on the GIL is left out):
FILE holds the loop's profile and FILE.threads the threads'. Read them with `python -m pstats FILE`.

Run: .venv/bin/python benchmarks/profile_front.py [--orders N] [--profile FILE] [--only move|end|both]
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures.thread as futures_thread
import cProfile
import logging
import pstats
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_orders as bo
import realistic
from probes import LoopWatch, Series, Timer, pct

from bot.client import BattleBot
from loopback import LoopbackDiscord
from rules.battle import Battle


class Profiles:
    """Profile the loop's thread while switched on, and each job a worker thread runs meanwhile."""

    def __init__(self) -> None:
        self.loop = cProfile.Profile(time.thread_time)
        self.jobs: list[cProfile.Profile] = []
        self.on = False
        submit = futures_thread.ThreadPoolExecutor.submit
        profiles = self

        def profiled(executor: Any, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            def job(*a: Any, **kw: Any) -> Any:
                if not profiles.on:
                    return fn(*a, **kw)
                one = cProfile.Profile(time.thread_time)
                try:
                    return one.runcall(fn, *a, **kw)
                finally:
                    profiles.jobs.append(one)
            return submit(executor, job, *args, **kwargs)

        futures_thread.ThreadPoolExecutor.submit = profiled  # type: ignore[method-assign]

    def start(self) -> None:
        """Switch profiling on."""
        self.on = True
        self.loop.enable()

    def stop(self) -> None:
        """Switch profiling off."""
        self.loop.disable()
        self.on = False

    def dump(self, path: str) -> None:
        """Write the loop's profile to `path` and the threads' jobs to `path`.threads."""
        self.loop.dump_stats(path)
        if self.jobs:
            joined = pstats.Stats(self.jobs[0])
            for one in self.jobs[1:]:
                joined.add(one)
            joined.dump_stats(path + ".threads")


async def settled(bench: bo.Bench) -> None:
    """Wait until the bot's background work for the last order is done and the stand-in has gone quiet."""
    await bench.service.drain()
    await bench.discord.server.activity.settle(0.02, 10)
    await bench.service.drain()


async def move(bench: bo.Bench, place: bo.Place, series: Series) -> None:
    """Send one /move as its unit's player, timed until everything it set off is done."""
    battle, order = await bench.choose(place, "move", bench.service)
    user = bench.owner(battle, order)
    options = {"unit": order.unit, "to": str(getattr(order, "to", "")), "mode": getattr(order, "mode", "")}
    async with Timer(series, bench.watch) as timer:
        reply = await bench.discord.slash("move", user=user, channel=place.channel, options=options)
        timer.answered()
        await settled(bench)
    if reply.messages and reply.messages[-1].ephemeral:
        raise RuntimeError(f"/move {options} was refused: {reply.messages[-1].content}")


async def turn_end(bench: bo.Bench, place: bo.Place, series: Series) -> None:
    """End the first due unit's turn as its player, confirming the question about unused points."""
    record = await bench.db.battles.get(place.record.id)
    assert record is not None
    due = realistic.due_units(Battle.from_dict(record.state))
    if not due:
        raise RuntimeError("no unit is due")
    user = bench.users.get(due[0].owner or 0, bench.gm_user)
    async with Timer(series, bench.watch) as timer:
        reply = await bench.discord.slash("turn end", user=user, channel=place.channel, options={"unit": due[0].name})
        last = reply.messages[-1] if reply.messages else None
        if last is not None and last.ephemeral:
            confirm = [c for c in last.custom_ids() if c.startswith("bp:ok:")]
            if not confirm:
                raise RuntimeError(f"/turn end was refused: {last.content}")
            await bench.discord.click(reply, confirm[0], user=user)
        timer.answered()
        await settled(bench)


def line(label: str, series: Series) -> str:
    """Format one command's CPU per order, wall time and longest loop callback."""
    return (f"{label:<10} n={series.orders} cpu/order {series.cpu_ms():6.2f} ms  p50 {pct(series.wall, 50):6.1f}"
            f"  p95 {pct(series.wall, 95):6.1f}  longest callback {max(series.stalls, default=0) * 1000:5.1f} ms")


async def run(args: argparse.Namespace) -> None:
    """Build the battle, start the bot, warm up, then time (and profile) the commands in turn."""
    setup = bo.Setup(render_workers=args.render_workers)
    profiles = Profiles() if args.profile else None
    with tempfile.TemporaryDirectory() as tmp, LoopWatch() as watch:
        async with LoopbackDiscord(quiet_after_reply=False, timeout=60.0) as discord:
            bench = bo.Bench(setup, Path(tmp), discord, watch)
            await bench.open()
            template = await bench.battle(name="template")
            await discord.start_bot(BattleBot(bench.service, guild_ready_timeout=0.05, scheduler_poll=None,
                                              tune_heap=True))
            try:
                [place] = await bench.copies(template, 1)
                warm = Series()
                for _ in range(4):
                    await move(bench, place, warm)
                    await turn_end(bench, place, warm)
                moves, ends = Series(), Series()
                for _ in range(args.orders):
                    for kind, one, series in (("move", move, moves), ("end", turn_end, ends)):
                        watched = profiles is not None and args.only in (kind, "both")
                        if watched:
                            profiles.start()
                        await one(bench, place, series)
                        if watched:
                            profiles.stop()
                print(line("/move", moves))
                print(line("/turn end", ends))
                if profiles is not None:
                    profiles.dump(args.profile)
            finally:
                await discord.stop_bot()
                bench.service.close()
                bench.quiet.close()
                await bench.db.close()


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--orders", type=int, default=30, help="orders of each command timed")
    parser.add_argument("--profile", metavar="FILE", help="write CPU profiles to FILE and FILE.threads")
    parser.add_argument("--only", choices=["move", "end", "both"], default="both", help="which command to profile")
    parser.add_argument("--render-workers", type=int, default=1, help="processes drawing maps (0: a thread)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
