"""Load test: 2 and 4 bot processes share the shards and one PostgreSQL; one is killed and restarted mid-run.

Every process is a real `python -m bot --shards ... --shard-count 8` run against a loopback Discord in this
process, with its map worker, over a throwaway PostgreSQL server started here. Each battle (12x10, two
units on opposing sides, both the player's) has one simulated player who plays moves and turn ends in turn:
a /move of the unit due, then /turn end of it, confirming the question about its unused action point as a
player would (the command and its Confirm are one order). The player reads whose turn it is from the
database, as a person reads the channel; that reading is the load generator's, not the bots'. Every
battle's turns are made a few seconds long, with the "hold" policy, so reminders and deadlines keep
firing (mostly while a process is down). A third of the way in, one process is killed with SIGKILL; it
is started again later.

Reported per run: acknowledged orders per second, CPU per acknowledged order summed over every process
started (each bot and its map worker, read from /proc while they run; the killed process as last read,
at most a quarter of a second before the kill; the restarted one's start counted in), from the players'
first order to their last, beside PostgreSQL's and this process's (the loopback and the players);
p50/p95 of an order from the player's interaction to the bot's public result, orders refused while their
shard was down (the player saw "interaction failed"),
orders the rules refused because the turn moved on between the player's reading and the order (a deadline),
orders in flight at the kill (answer never came), and then, from the database and every process's log:
orders lost (acknowledged but not in the log, which must hold each battle's acknowledged orders in the order
given: must be 0), doubled (in the log with no order given for it: must be 0; a move in flight at the kill
that landed can leave its unit a point short, so the player's next move ends its turn by the rules: such
turn ends are counted apart), timers
fired twice (must be 0) and timers due by the end of the load that never fired (must be 0; the run waits
for the schedulers to catch up, and says how long that took). A timer the killed process had claimed but
not yet applied is counted apart: a deadline is armed again (at the restart, or by another process a
minute later), a reminder stays lost.

Run: .venv/bin/python benchmarks/bench_processes.py [--seconds 25] [--processes 2 4] [--battles 32]
The default run takes under two minutes; use --seconds 120 for a longer one. Another checkout of the product
is measured when PYTHONPATH names it (its bots, tests' helpers and rules); the first line says which ran.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

# After PYTHONPATH, so the same scripts can measure another checkout of the product: PYTHONPATH=/that/checkout.
sys.path.append(str(Path(__file__).resolve().parent.parent))

sys.path.insert(0, str(Path(__file__).resolve().parent))

import realistic
from probes import descendants, process_cpu

from bot.config import DEFAULT_RENDER_WORKERS
from loopback import InteractionError, LoopbackDiscord
from loopback.models import LoopbackChannel, LoopbackGuild, LoopbackUser
from rules import orders as o
from rules import turns
from rules.battle import Battle
from rules.systems import install as install_systems
from rules.turnorders import EndTurn
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
    ruled_out: int = 0  # refused by the rules: the turn moved on before the order came
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    ends: int = 0


class CpuLedger:
    """Add up the CPU of processes read from /proc while they run, each by the most it was seen to have used."""

    def __init__(self, pids: Callable[[], list[int]]) -> None:
        self.pids = pids
        self.seen: dict[tuple[int, str], float] = {}

    def sample(self) -> float:
        """Read every process now; return the CPU seconds of all processes seen so far."""
        for pid in self.pids():
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                continue  # it ended while we looked
            # The start time (field 22) tells a process from a later one given the same id.
            key = (pid, stat.rsplit(")", 1)[-1].split()[19])
            self.seen[key] = max(self.seen.get(key, 0.0), process_cpu(pid))
        return sum(self.seen.values())

    async def watch(self, stop: asyncio.Event, every: float = 0.25) -> None:
        """Sample until told to stop."""
        while not stop.is_set():
            self.sample()
            try:
                await asyncio.wait_for(stop.wait(), every)
            except TimeoutError:
                pass


def postgres_pids(server: ThrowawayPostgres) -> list[int]:
    """Return the PostgreSQL server's processes: the postmaster and its children."""
    try:
        root = int((server.data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return []
    return [root, *descendants(root)]


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
            ("unit add", {"name": "Sachiel", "side": "Angels", "at": "J8", "owner": table.player, "ag": 38}),
            ("gm policy", {"policy": "hold"}),
            ("battle start", {}),
        ]
        for command, options in steps:
            reply = await discord.slash(command, user=table.gm, channel=table.channel, options=options, within=60)
            # A busy bot defers and posts its result after; a refusal stays private.
            await realistic.public(discord, reply, f"/{command} in the setup of {table.channel.name}", within=60)

    await asyncio.gather(*(start(t) for t in tables))
    return tables


async def player(discord: LoopbackDiscord, db: Database, table: Table, stop: asyncio.Event) -> None:
    """Play moves and turn ends in turn until told to stop; after a failed interaction wait a moment, as a person would."""
    rng = random.Random(table.battle_id)
    moved = ""  # the unit just moved: its turn is ended next
    while not stop.is_set():
        record = await db.battles.get(table.battle_id)
        assert record is not None
        battle = Battle.from_dict(record.state)
        due = realistic.due_units(battle)
        if not due:
            await asyncio.sleep(0.05)  # a round being closed, or the battle waiting on a deadline
            continue
        unit = next((u for u in due if u.name == moved), due[0])
        choices = [] if unit.name == moved or turns.actions_left(battle, unit.name) < 1 else realistic.moves_of(
            battle, unit)
        order: o.Order = rng.choice(choices) if choices else EndTurn(unit=unit.name)
        started = time.perf_counter()
        try:
            await realistic.give(discord, order, user=table.player, channel=table.channel, within=30,
                                 gone=lambda: not discord.server.gateway.sessions_for(table.guild.id))
        except InteractionError as exc:
            if "closed before it answered" in str(exc):
                table.unknown.append(str(order))
            else:
                table.refused += 1
            await asyncio.sleep(0.5)
            continue
        except ConnectionError:
            # The killed process's connection broke while the interaction was being sent: it never arrived.
            table.refused += 1
            await asyncio.sleep(0.5)
            continue
        except realistic.Refused:
            table.ruled_out += 1  # the turn moved on (a deadline) between the reading and the order
            continue
        table.latencies.append(time.perf_counter() - started)
        table.acked.append(str(order))
        if isinstance(order, EndTurn):
            table.ends += 1
            moved = ""
        else:
            table.moves += 1
            moved = unit.name


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
    lost = doubled = unknown_landed = auto_ended = 0
    async with await Database.open(url) as db:
        for table in tables:
            events = await db.events.list(table.battle_id, limit=1_000_000, newest_first=False)
            logged = [e.order_text for e in events
                      if e.actor_id == table.player.id and e.kind in ("move", "end-turn") and not e.undone]
            # The acknowledged orders must appear in the log in the order given; anything else the player's
            # is an order in flight at the kill that landed, or a double.
            at, extra = 0, []
            for text in table.acked:
                try:
                    found = logged.index(text, at)
                except ValueError:
                    lost += 1
                    continue
                extra += range(at, found)
                at = found + 1
            extra += range(at, len(logged))
            pending = list(table.unknown)
            for k in extra:
                text = logged[k]
                unit = text.split("unit:", 1)[-1].split(" ", 1)[0]
                if text in pending:
                    pending.remove(text)
                    unknown_landed += 1
                elif text.startswith("end-turn") and k and logged[k - 1].startswith(f"move unit:{unit} "):
                    # The rules ended the turn a move left with no points (after a move in flight at the kill).
                    auto_ended += 1
                else:
                    doubled += 1
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
        "lost": lost, "doubled": doubled, "unknown_landed": unknown_landed, "auto_ended": auto_ended,
        "timers_fired": len(claimed), "timers_twice": sum(1 for n in fired.values() if n > 1),
        "timers_unlogged": len(claimed - set(fired)), "timers_missed": missed,
        "unlogged_deadlines": sum(1 for row in conn_rows if row[0] in claimed - set(fired) and row[3] == "deadline"),
    }


async def run(server: ThrowawayPostgres, count: int, battles: int, seconds: float, workdir: Path) -> dict[str, float]:
    """Run one load test with `count` processes and return its figures."""
    url = server.create_database()
    rng = random.Random(count)
    bots = CpuLedger(descendants)  # every process started here: the bots and their map workers
    database = CpuLedger(lambda: postgres_pids(server))
    sampling = asyncio.Event()
    sampler = asyncio.gather(bots.watch(sampling), database.watch(sampling))
    async with LoopbackDiscord(timeout=60, quiet_after_reply=False) as discord:
        processes = [BotProcess(f"p{count}-{i}", shards, SHARD_COUNT, discord.server.base_url, url,
                                workdir / f"run{count}", poll=POLL, render_workers=DEFAULT_RENDER_WORKERS)
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
            reader = await Database.open(url)
            players = [asyncio.create_task(player(discord, reader, t, stop)) for t in tables]
            began = time.perf_counter()
            cpu_began = bots.sample(), database.sample(), time.process_time()
            await asyncio.sleep(seconds / 3)
            victim = processes[0]
            bots.sample()
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
            cpu_load = (bots.sample() - cpu_began[0], database.sample() - cpu_began[1],
                        time.process_time() - cpu_began[2])
            await reader.close()
            ended = time.time()
            drained = await drain_timers(url, ended)
        finally:
            bots.sample()
            stopping = time.perf_counter()
            codes = await asyncio.gather(*(process.shut_down() for process in processes))
            print(f"(processes stopped in {time.perf_counter() - stopping:.1f} s with exit status {codes})", flush=True)
        figures = await audit(url, tables, processes, ended)
    sampling.set()
    await sampler
    acked = sum(len(t.acked) for t in tables)
    latencies = [x for t in tables for x in t.latencies]
    server.drop_database(url)
    return {
        "processes": count, "battles": battles, "seconds": elapsed, "acked": acked, "per_s": acked / elapsed,
        "p50": pct(latencies, 50), "p95": pct(latencies, 95), "refused": sum(t.refused for t in tables),
        "in_flight": sum(len(t.unknown) for t in tables), "killed_at": killed_at, "back_at": restarted_at,
        "errors": len(errors_in(processes)), "drain": drained,
        "cpu_bots": cpu_load[0], "cpu_pg": cpu_load[1], "cpu_here": cpu_load[2],
        "cpu_bots_all": bots.sample(), "ruled_out": sum(t.ruled_out for t in tables),
        "moves": sum(t.moves for t in tables), "ends": sum(t.ends for t in tables),
        "rearmed": sum(p.logs().count("arming it again") + p.logs().count("was missing; armed again") for p in processes),
        **figures,
    }


def report(r: dict[str, float]) -> str:
    """Format one run as a block of lines."""
    return "\n".join([
        f"{int(r['processes'])} processes, {int(r['battles'])} battles, {r['seconds']:.0f} s "
        f"(process 0 killed at {r['killed_at']:.0f} s, back at {r['back_at']:.0f} s)",
        f"  orders acknowledged {int(r['acked'])} ({int(r['moves'])} moves, {int(r['ends'])} turn ends)  "
        f"({r['per_s']:.1f}/s)   p50 {r['p50']:.1f} ms   p95 {r['p95']:.1f} ms",
        f"  CPU per order {1000 * r['cpu_bots'] / max(1, r['acked']):.1f} ms summed over every bot process and map "
        f"worker ({r['cpu_bots']:.1f} s during the load, {r['cpu_bots_all']:.1f} s in the whole run);",
        f"    beside them PostgreSQL {1000 * r['cpu_pg'] / max(1, r['acked']):.1f} ms and the loopback Discord with "
        f"the players {1000 * r['cpu_here'] / max(1, r['acked']):.1f} ms per order",
        f"  refused while down {int(r['refused'])}   in flight at the kill {int(r['in_flight'])} "
        f"(of which landed {int(r['unknown_landed'])})   refused by the rules, the turn gone on {int(r['ruled_out'])}",
        f"  lost {int(r['lost'])}   doubled {int(r['doubled'])}   turns the rules ended after a unit's last point "
        f"{int(r['auto_ended'])}",
        f"  timers fired {int(r['timers_fired'])}   fired twice {int(r['timers_twice'])}   "
        f"due by the end but never fired {int(r['timers_missed'])} (the last fired {r['drain']:.1f} s after the load)",
        f"  claimed by the killed process, never applied {int(r['timers_unlogged'])} "
        f"({int(r['unlogged_deadlines'])} deadlines, the rest reminders)   deadlines armed again {int(r['rearmed'])}",
        f"  errors logged by the processes {int(r['errors'])}",
    ])


async def main(counts: list[int], battles: int, seconds: float) -> None:
    """Start PostgreSQL, run each load test and print the figures."""
    logging.basicConfig(level=logging.WARNING)
    install_systems()  # the players read their battles with the rules, as the bots do
    print(f"product code from {Path(sys.modules[Database.__module__].__file__ or '.').parents[1]}", flush=True)
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
