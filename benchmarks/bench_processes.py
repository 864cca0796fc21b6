"""Load test: 2 and 4 bot processes share the shards and one PostgreSQL; one is killed and restarted mid-run.

Every process is a real `python -m bot --shards ... --shard-count 8` run against a loopback Discord in this
process, over a throwaway PostgreSQL server started here. One simulated player per battle keeps sending
/roll orders (each with a purpose of its own, so every order can be found in the log); every battle's
turns are made a few seconds long, with the "hold" policy, so reminders and deadlines keep firing through
the run. A third of the way in, one process is killed with SIGKILL; it is started again later.

Reported per run: acknowledged orders per second, p50/p95 of an order from the player's interaction to
the bot's answer, orders refused while their shard was down (the player saw "interaction failed"),
orders in flight at the kill (answer never came), and then, from the database and every process's log:
orders lost (acknowledged but not in the log: must be 0), doubled (in the log twice: must be 0), timers
fired twice (must be 0) and timers due by the end of the load that never fired (must be 0; the run waits
for the schedulers to catch up, and says how long that took). A timer the killed process had claimed but
not yet applied is counted apart: a deadline is armed again (at the restart, or by another process a
minute later), a reminder stays lost.

Run: .venv/bin/python benchmarks/bench_processes.py [--seconds 25] [--processes 2 4] [--battles 32]
The default run takes under two minutes; use --seconds 120 for a longer one.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import resource
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

# After PYTHONPATH, so the same scripts can measure another checkout of the product: PYTHONPATH=/that/checkout.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from loopback import InteractionError, LoopbackDiscord
from loopback.models import LoopbackChannel, LoopbackGuild, LoopbackUser
from storage import Database
from tests.fleet import TOKEN, BotProcess, errors_in, fired_timers, hurry_turn
from tests.pgserver import ThrowawayPostgres

SHARD_COUNT = 8
TURN_SECONDS = (4.0, 9.0)  # each battle's turns last this long (uniformly drawn), so timers keep coming
POLL = 1.0  # each process's scheduler looks for due timers this often


def pct(values: list[float], q: float) -> float:
    """Return the q-th percentile of values, in milliseconds."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))] * 1000 if ordered else 0.0


@dataclass
class Table:
    """One battle: its server, channel, GM and player, and what the player saw."""

    guild: LoopbackGuild
    channel: LoopbackChannel
    gm: LoopbackUser
    player: LoopbackUser
    battle_id: int = 0
    acked: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    refused: int = 0
    latencies: list[float] = field(default_factory=list)


def shard_ranges(processes: int) -> list[str]:
    """Split the shards into equal ranges, one per process: `0-3`, `4-7`."""
    per = SHARD_COUNT // processes
    return [f"{i * per}-{(i + 1) * per - 1}" for i in range(processes)]


async def set_up(discord: LoopbackDiscord, battles: int) -> list[Table]:
    """Make two servers per shard with battle channels, then a started battle in each channel."""
    guilds = [discord.add_guild(f"Server {s}.{k}", shard=(s, SHARD_COUNT)) for s in range(SHARD_COUNT) for k in range(2)]
    tables: list[Table] = []
    for n in range(battles):
        guild = guilds[n % len(guilds)]
        tables.append(Table(guild, discord.add_channel(guild, f"battle-{n}"),
                            discord.add_user(f"gm{n}", guild=guild, manage_guild=True),
                            discord.add_user(f"player{n}", guild=guild)))

    async def start(table: Table) -> None:
        steps: list[tuple[str, dict[str, object]]] = [
            ("battle new", {"name": f"Load {table.channel.name}", "ruleset": "strategic-e", "width": 12, "height": 10}),
            ("unit add", {"name": "Eva-01", "side": "NERV", "at": "C3", "owner": table.player, "ag": 45}),
            ("unit add", {"name": "Sachiel", "side": "Angels", "at": "J8", "ag": 38}),
            ("gm policy", {"policy": "hold"}),
            ("battle start", {}),
        ]
        for command, options in steps:
            reply = await discord.slash(command, user=table.gm, channel=table.channel, options=options, within=60)
            if reply.ephemeral:
                raise RuntimeError(f"setup of {table.channel.name} refused: {reply.content} {reply.embeds}")

    await asyncio.gather(*(start(t) for t in tables))
    return tables


async def player(discord: LoopbackDiscord, table: Table, stop: asyncio.Event) -> None:
    """Keep rolling until told to stop; after a failed interaction wait a moment, as a person would."""
    n = 0
    while not stop.is_set():
        purpose = f"{table.channel.name}-{n}"
        n += 1
        started = time.perf_counter()
        try:
            reply = await discord.slash("roll", user=table.player, channel=table.channel, dice="1d100",
                                        purpose=purpose, within=30)
        except InteractionError as exc:
            if "closed before it answered" in str(exc):
                table.unknown.append(purpose)
            else:
                table.refused += 1
            await asyncio.sleep(0.5)
            continue
        if reply.ephemeral:
            raise RuntimeError(f"a roll was refused: {reply.content} {reply.embeds}")
        table.latencies.append(time.perf_counter() - started)
        table.acked.append(purpose)


async def hurry_all(url: str, tables: list[Table], rng: random.Random) -> None:
    """Make every battle's turns a few seconds long, from now on."""
    async with await Database.open(url) as db:
        for table in tables:
            record = await db.battles.in_channel(table.guild.id, table.channel.id)
            assert record is not None
            table.battle_id = record.id
            await hurry_turn(db, record.id, span=rng.uniform(*TURN_SECONDS), now=time.time())


async def drain_timers(url: str, ended: float, limit: float = 60.0) -> float:
    """Wait until every timer due by the end of the load has fired (the schedulers lag under full load)."""
    started = time.perf_counter()
    conn = await asyncpg.connect(url)
    try:
        while time.perf_counter() - started < limit:
            if not await conn.fetchval("SELECT COUNT(*) FROM timers WHERE fired_at IS NULL AND due_at <= $1", ended):
                break
            await asyncio.sleep(0.2)
    finally:
        await conn.close()
    return time.perf_counter() - started


async def audit(url: str, tables: list[Table], processes: list[BotProcess], ended: float) -> dict[str, int]:
    """Count lost and doubled orders and timers from the database and the processes' logs."""
    lost = doubled = unknown_landed = 0
    async with await Database.open(url) as db:
        for table in tables:
            events = await db.events.list(table.battle_id, limit=1_000_000, newest_first=False)
            landed = Counter(e.order_text.rsplit("purpose:", 1)[-1] for e in events if e.kind == "roll")
            lost += sum(1 for p in table.acked if landed[p] == 0)
            doubled += sum(1 for n in landed.values() if n > 1)
            unknown_landed += sum(1 for p in table.unknown if landed[p])
    conn = await asyncpg.connect(url)
    try:
        conn_rows = [tuple(r) for r in await conn.fetch("SELECT id, due_at, fired_at, kind FROM timers")]
    finally:
        await conn.close()
    fired = fired_timers(processes)
    claimed = {row[0] for row in conn_rows if row[2] is not None}
    missed = sum(1 for row in conn_rows if row[2] is None and row[1] <= ended)
    # A process killed between claiming a timer and logging it leaves a claim without a log line.
    return {
        "lost": lost, "doubled": doubled, "unknown_landed": unknown_landed,
        "timers_fired": len(claimed), "timers_twice": sum(1 for n in fired.values() if n > 1),
        "timers_unlogged": len(claimed - set(fired)), "timers_missed": missed,
        "unlogged_deadlines": sum(1 for row in conn_rows if row[0] in claimed - set(fired) and row[3] == "deadline"),
    }


async def run(server: ThrowawayPostgres, count: int, battles: int, seconds: float, workdir: Path) -> dict[str, float]:
    """Run one load test with `count` processes and return its figures."""
    url = server.create_database()
    rng = random.Random(count)
    cpu_here, cpu_children = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    async with LoopbackDiscord(timeout=60, quiet_after_reply=False) as discord:
        processes = [BotProcess(f"p{count}-{i}", shards, SHARD_COUNT, discord.server.base_url, url,
                                workdir / f"run{count}", poll=POLL)
                     for i, shards in enumerate(shard_ranges(count))]
        try:
            t0 = time.perf_counter()
            for process in processes:
                process.start()
            await discord.serve_processes(TOKEN, SHARD_COUNT, limit=120)
            t1 = time.perf_counter()
            tables = await set_up(discord, battles)
            await hurry_all(url, tables, rng)
            print(f"(processes up in {t1 - t0:.1f} s, battles set up in {time.perf_counter() - t1:.1f} s)", flush=True)
            stop = asyncio.Event()
            players = [asyncio.create_task(player(discord, t, stop)) for t in tables]
            began = time.perf_counter()
            await asyncio.sleep(seconds / 3)
            victim = processes[0]
            victim.kill()
            killed_at = time.perf_counter() - began
            await asyncio.sleep(seconds / 6)
            victim.start()
            first, last = (int(x) for x in victim.shards.split("-"))
            await discord.wait_for_shards(set(range(first, last + 1)), limit=120)
            restarted_at = time.perf_counter() - began
            await asyncio.sleep(max(0.0, seconds - (time.perf_counter() - began)))
            stop.set()
            await asyncio.gather(*players)
            elapsed = time.perf_counter() - began
            ended = time.time()
            drained = await drain_timers(url, ended)
        finally:
            stopping = time.perf_counter()
            codes = await asyncio.gather(*(process.shut_down() for process in processes))
            print(f"(processes stopped in {time.perf_counter() - stopping:.1f} s with exit status {codes})", flush=True)
        figures = await audit(url, tables, processes, ended)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    bots_cpu = (children.ru_utime + children.ru_stime) - (cpu_children.ru_utime + cpu_children.ru_stime)
    acked = sum(len(t.acked) for t in tables)
    latencies = [x for t in tables for x in t.latencies]
    server.drop_database(url)
    return {
        "processes": count, "battles": battles, "seconds": elapsed, "acked": acked, "per_s": acked / elapsed,
        "p50": pct(latencies, 50), "p95": pct(latencies, 95), "refused": sum(t.refused for t in tables),
        "in_flight": sum(len(t.unknown) for t in tables), "killed_at": killed_at, "back_at": restarted_at,
        "errors": len(errors_in(processes)), "drain": drained,
        "cpu_bots": bots_cpu, "cpu_here": time.process_time() - cpu_here,
        "rearmed": sum(p.logs().count("arming it again") + p.logs().count("was missing; armed again") for p in processes),
        **figures,
    }


def report(r: dict[str, float]) -> str:
    """Format one run as a block of lines."""
    return "\n".join([
        f"{int(r['processes'])} processes, {int(r['battles'])} battles, {r['seconds']:.0f} s "
        f"(process 0 killed at {r['killed_at']:.0f} s, back at {r['back_at']:.0f} s)",
        f"  orders acknowledged {int(r['acked'])}  ({r['per_s']:.0f}/s)   p50 {r['p50']:.1f} ms   p95 {r['p95']:.1f} ms",
        f"  refused while down {int(r['refused'])}   in flight at the kill {int(r['in_flight'])} "
        f"(of which landed {int(r['unknown_landed'])})",
        f"  lost {int(r['lost'])}   doubled {int(r['doubled'])}",
        f"  timers fired {int(r['timers_fired'])}   fired twice {int(r['timers_twice'])}   "
        f"due by the end but never fired {int(r['timers_missed'])} (the last fired {r['drain']:.1f} s after the load)",
        f"  claimed by the killed process, never applied {int(r['timers_unlogged'])} "
        f"({int(r['unlogged_deadlines'])} deadlines, the rest reminders)   deadlines armed again {int(r['rearmed'])}",
        f"  errors logged by the processes {int(r['errors'])}",
        f"  CPU: bot processes {r['cpu_bots']:.0f} s, loopback Discord and players {r['cpu_here']:.0f} s "
        f"(PostgreSQL not counted)",
    ])


async def main(counts: list[int], battles: int, seconds: float) -> None:
    """Start PostgreSQL, run each load test and print the figures."""
    logging.basicConfig(level=logging.WARNING)
    server = ThrowawayPostgres().start()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-processes-") as tmp:
            for count in counts:
                print(report(await run(server, count, battles, seconds, Path(tmp))), flush=True)
    finally:
        server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, nargs="+", default=[2, 4], help="process counts to run (divide 8)")
    parser.add_argument("--battles", type=int, default=32, help="battles played at once")
    parser.add_argument("--seconds", type=float, default=25.0, help="length of each run's load")
    args = parser.parse_args()
    if any(SHARD_COUNT % c for c in args.processes):
        parser.error(f"each process count must divide the {SHARD_COUNT} shards")
    asyncio.run(main(args.processes, args.battles, args.seconds))
