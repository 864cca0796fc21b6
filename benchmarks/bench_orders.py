"""What one order costs, measured on realistic battles against its floor, in one run.

Battles are built from the example stat blocks (weapons, armour, skills), 40x40 with 60 units by default,
and played to 200 logged events before anything is timed (see realistic.py). Then, in one process:

* slash /move and /turn end in turn, as the units' owners play them, through the loopback Discord (the real
  bot, real SQLite file) until the public reply (with its map, when it has one) arrives; a /turn end that
  asks whether to give up the unit's unused action points is answered as a player would, by pressing its
  Confirm, and counts as one order timed from the command to the result; /attack apart, each attack also
  followed by its turn's end; the table service alone (execute, then the map, as the commands do);
* the floor beside each of them (floors.py): right after each order, the fastest encode of the image it
  posted (none for a reply without a map) and one minimal SQLite transaction of the same size; and the
  smallest discord.py bot answering a slash command with an embed, once per interaction (a turn end with
  its question is two), measured before the bot starts (the stand-in serves one bot at a time);
* CPU per order (every thread, until the order's status board and pings are done too) and the longest
  event-loop callback while each order ran;
* throughput with 1, 4 and 16 battles at once, moves and turn ends in turn, through the service and through
  the loopback;
* growth with 10, 60 and 300 units, with 10, 1,000 and 10,000 logged events, and with many battles stored;
* a full 100x100 map, placing M42's largest unit among enemies, and resident memory with 1,000 battles
  in use.

It prints the table and the ratios against the targets. `--quick` (the default sizes) takes a minute or
two on two cores; `--full` uses the reference sizes (10,000 stored battles, more orders).

Run: .venv/bin/python benchmarks/bench_orders.py [--quick | --full] [--orders N] [--stored N] [--rss-battles N]
Another checkout of the product is measured by the same scripts when PYTHONPATH names it:
    cd /that/checkout && PYTHONPATH=/that/checkout /path/to/.venv/bin/python /path/to/benchmarks/bench_orders.py
The first line printed says which checkout's code ran.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

# After PYTHONPATH, so the same scripts can measure another checkout of the product: PYTHONPATH=/that/checkout.
sys.path.append(str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import realistic
from floors import FloorBot, SqliteFloor, fastest_encode
from PIL import Image
from probes import LoopWatch, Series, Timer, cpu_now, pct

from bot.client import BattleBot
from bot.config import DEFAULT_RENDER_WORKERS
from bot.service import Actor, TableService
from cogs.common.mapfiles import draws_something
from loopback import LoopbackDiscord
from loopback.models import LoopbackChannel, LoopbackUser
from render import render_map
from rules import orders as o
from rules.battle import Battle
from rules.coords import Cell
from rules.systems.strategic.actions.combat import Attack
from rules.turnorders import CloseRound, EndTurn
from storage import BattleRecord, Database

log = logging.getLogger("bench")

TARGETS = {
    "p50": 2.0, "p95": 3.0, "cpu": 6.0, "cpu_move": 10.0, "stall": 10.0, "service16": 150.0, "loopback16": 100.0, "full_map": 200.0,
    "rss": 300.0,
}


@dataclass
class Setup:
    """Sizes of one run."""

    orders: int = 16
    size: int = 40
    units: int = 60
    events: int = 200
    stored: int = 1000
    rss_battles: int = 1000
    throughput_orders: int = 6
    render_workers: int = 0
    growth_orders: int = 6
    full_maps: int = 8


@dataclass
class Place:
    """A battle the benchmark plays: where it is and who commands its units."""

    record: BattleRecord
    channel: LoopbackChannel
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    last: str = ""  # the unit given the last order: its owner ends its turn next


class Bench:
    """Hold the loopback Discord, the bot's service, a second service with no bot, and the users."""

    def __init__(self, setup: Setup, folder: Path, discord: LoopbackDiscord, watch: LoopWatch) -> None:
        self.setup = setup
        self.folder = folder
        self.discord = discord
        self.watch = watch
        self.gm_user = discord.add_user("gm", manage_guild=True)
        self.player_users = [discord.add_user(f"player{i}") for i in range(4)]
        guild = discord.guild.id
        self.gm = Actor(user_id=self.gm_user.id, guild_id=guild, name="gm", manage_guild=True)
        self.players = [Actor(user_id=u.id, guild_id=guild, name=u.name) for u in self.player_users]
        self.users = {u.id: u for u in [self.gm_user, *self.player_users]}
        self.chooser = 0.0  # seconds the load generator spent picking orders
        self.untimed = 0  # turn ends and round closes the load generator played itself, untimed
        self.db: Database
        self.service: TableService
        self.quiet: TableService

    async def open(self) -> None:
        """Open the database and the two services over it."""
        master = random.Random(11)
        self.db = await Database.open(self.folder / "bench.sqlite3")
        workers = self.setup.render_workers
        self.service = TableService(self.db, rng_factory=lambda: random.Random(master.getrandbits(64)),
                                    render_workers=workers)
        self.quiet = TableService(self.db, rng_factory=lambda: random.Random(master.getrandbits(64)),
                                  render_workers=workers)

    def channel(self, name: str) -> LoopbackChannel:
        """Make a channel in the test server."""
        return self.discord.add_channel(self.discord.guild, name)

    async def battle(self, *, units: int | None = None, size: int | None = None, name: str = "battle") -> Place:
        """Build and play a realistic battle in a new channel."""
        channel = self.channel(name)
        record = await realistic.build(self.quiet, self.gm, self.players, size=size or self.setup.size,
                                       units=units or self.setup.units, events=self.setup.events, channel=channel.id,
                                       name=name)
        return Place(record, channel)

    async def copies(self, place: Place, count: int, *, snapshots: bool = True, channels: bool = True) -> list[Place]:
        """Clone a battle into `count` new channels (or, without channels, into made-up ones the bot never sees)."""
        made: list[LoopbackChannel | None] = [self.channel(f"copy-{i}") if channels else None for i in range(count)]
        base = 9_000_000_000
        where = [(self.discord.guild.id, ch.id if ch else base + i) for i, ch in enumerate(made)]
        ids = await realistic.write_raw(self.db, lambda raw: realistic.clone(raw, place.record.id, where,
                                                                             snapshots=snapshots))
        out = []
        for battle_id, ch in zip(ids, made, strict=True):
            record = await self.db.battles.get(battle_id)
            assert record is not None
            out.append(Place(record, ch or place.channel, random.Random(battle_id)))
        return out

    # --- choosing orders (the load generator, not timed) ------------------------------------------------

    async def choose(self, place: Place, kind: str, service: TableService) -> tuple[Battle, o.Order]:
        """Return the battle as stored and an order of `kind` for it: a move, an attack, or a unit's turn end.

        When no due unit can move (or attack), the load generator ends a turn or closes the round itself,
        untimed, and counts it.
        """
        for _ in range(50):
            # The battle as the bot keeps it (read only): the load generator decodes and replays nothing itself.
            found = await service.current(place.record.id)
            assert found is not None
            place.record, battle = found
            start = time.perf_counter()
            order = self.turn_end(battle, place) if kind == "end" else realistic.next_order(battle, place.rng, kind)
            self.chooser += time.perf_counter() - start
            if isinstance(order, (o.Move, Attack)) or (kind == "end" and isinstance(order, EndTurn)):
                place.last = order.unit
                return battle, order
            self.untimed += 1
            await service.execute(self.gm, place.record, order, render=False)
        raise RuntimeError(f"no {kind} found in battle {place.record.id}")

    @staticmethod
    def turn_end(battle: Battle, place: Place) -> o.Order:
        """Return the end of the turn of the unit last given an order if it is still due, else of a due unit."""
        due = realistic.due_units(battle)
        if not due:
            return CloseRound()
        named = next((u for u in due if u.name == place.last), due[0])
        return EndTurn(unit=named.name)

    def owner(self, battle: Battle, order: o.Order) -> LoopbackUser:
        """Return who gives the order: the unit's owner, else the GM."""
        uid = realistic.owners_of(battle, order)
        return self.users.get(uid or 0, self.gm_user)

    def actor(self, user: LoopbackUser) -> Actor:
        """Return the service's actor for a loopback user."""
        return self.gm if user.id == self.gm_user.id else next(p for p in self.players if p.user_id == user.id)

    # --- one order ----------------------------------------------------------------------------------

    async def slash(self, place: Place, kind: str, series: Series, images: list[Image.Image] | None = None) -> int:
        """Send one /move, /attack or /turn end through the loopback as its unit's owner; time it to its public reply
        and its work to the end. Return the interactions it took (a turn end's question and its Confirm are two).
        """
        battle, order = await self.choose(place, kind, self.service)
        user = self.owner(battle, order)
        async with Timer(series, self.watch) as timer:
            posted, interactions = await realistic.give(self.discord, order, user=user, channel=place.channel)
            timer.answered()
            await self.service.drain()
        if images is not None and posted.files:
            images.append(Image.open(io.BytesIO(posted.files[-1].data)).convert("RGB"))
        return interactions

    async def served(self, place: Place, kind: str, series: Series, service: TableService | None = None) -> None:
        """Run one order through the table service alone and draw its map when the command would, as it does."""
        service = service or self.quiet
        battle, order = await self.choose(place, kind, service)
        actor = self.actor(self.owner(battle, order))
        unit = getattr(order, "unit", None)
        async with Timer(series, self.watch) as timer:
            orders = await service.turn_ends(actor, place.record, unit) if isinstance(order, EndTurn) else [order]
            for i, given in enumerate(orders):
                result = await service.execute(actor, place.record, given, render=False,
                                               follow=unit if i == len(orders) - 1 else None)
            assert result.outcome is not None
            if not isinstance(order, EndTurn) or draws_something(result.outcome.highlight):
                await service.render(result.battle, outcome=result.outcome, battle_id=place.record.id)
            timer.answered()
            await service.drain()


# --- sections ------------------------------------------------------------------------------------------


async def floor_bot(bench: Bench, count: int) -> Series:
    """Time the smallest discord.py bot answering a slash command with an embed."""
    discord = bench.discord
    await discord.start_bot(FloorBot())
    series = Series()
    try:
        for _ in range(3):
            await discord.slash("ping", user=bench.gm_user, channel=discord.general)
        for _ in range(count):
            async with Timer(series, bench.watch) as timer:
                await discord.slash("ping", user=bench.gm_user, channel=discord.general)
                timer.answered()
    finally:
        await discord.stop_bot()
    return series


async def in_turn(count: int, one: Callable[[str, Series], Awaitable[object]], kind: str = "move"
                  ) -> tuple[Series, Series]:
    """Run count orders, `kind` (a move or an attack) and the end of that unit's turn in turn; return both series."""
    acted, ended = Series(), Series()
    for i in range(count):
        if i % 2:
            await one("end", ended)
        else:
            await one(kind, acted)
    return acted, ended


async def throughput(bench: Bench, places: list[Place], per: int, loopback: bool) -> float:
    """Return orders per second with every battle playing `per` orders at once (moves and turn ends in turn)."""
    async def play(place: Place) -> None:
        series = Series()
        for i in range(per):
            kind = "move" if i % 2 == 0 else "end"
            if loopback:
                await bench.slash(place, kind, series)
            else:
                await bench.served(place, kind, series)

    bench.chooser = 0.0
    start = time.perf_counter()
    await asyncio.gather(*(play(p) for p in places))
    wall = time.perf_counter() - start
    return len(places) * per / wall


async def full_map(bench: Bench, count: int) -> tuple[list[float], int]:
    """Return the time to draw the whole of a 100x100 battle with 60 units, and the largest PNG's size."""
    place = await bench.battle(size=100, name="big")
    battle = Battle.from_dict(place.record.state)
    view = bench.quiet.view_of(battle)
    render_map(view)
    times, biggest = [], 0
    for _ in range(count):
        start = time.perf_counter()
        png = await asyncio.to_thread(render_map, view)
        times.append(time.perf_counter() - start)
        biggest = max(biggest, len(png))
    return times, biggest


async def memory(bench: Bench, template: Place, count: int) -> tuple[float, float]:
    """Return a fresh bot process's RSS before and after `count` battles each took an order and drew its map.

    A process of its own, so the stand-in's stored messages and files and the benchmark's own battles
    are not counted: only what the table service keeps.
    """
    places = await bench.copies(template, count, snapshots=False, channels=False)
    ids = ",".join(str(p.record.id) for p in places)
    script = Path(__file__).resolve().parent / "bench_memory.py"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(script), str(bench.folder / "bench.sqlite3"), ids, str(bench.gm.guild_id),
        str(bench.gm.user_id), stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    if proc.returncode:
        raise RuntimeError(f"the memory run failed ({proc.returncode})")
    before, after = (float(x) for x in out.decode().split())
    return before, after


async def m42_placement(bench: Bench, count: int = 3) -> tuple[float, float]:
    """Return the CPU (ms, median) of adding M42's largest unit (Ld 12, 30 models) beside 12 enemy units of 10
    models, and the longest event-loop callback while the service ran that order (ms, the most of the runs).

    The add-unit order places every model around the leader; the service runs it like any order.
    """
    from rules.systems.m42.units import MAX_LD, MAX_MODELS

    times, stalls = [], []
    for i in range(count):
        channel = bench.channel(f"m42-{i}")
        made = await bench.quiet.create_battle(bench.gm, channel_id=channel.id, thread_id=None, name="Placement",
                                               ruleset="m42", width=60, height=60)
        record = made.record
        for e in range(12):
            at = Cell(7 + (e * 3) % 18, 11 + (e // 6) * 14)
            record = (await bench.quiet.execute(bench.gm, record, o.AddUnit(
                name=f"E{e}", side="Blue", at=at, stats={"ld": 5, "models": 10}), render=False)).record
        big = o.AddUnit(name="Big", side="Red", at=Cell(30, 20), stats={"ld": MAX_LD, "models": MAX_MODELS})
        bench.watch.reset()
        start = cpu_now()
        await bench.quiet.execute(bench.gm, record, big, render=False)
        times.append(cpu_now() - start)
        stalls.append(bench.watch.reset()[0])
    return pct(times, 50), max(stalls) * 1000


def ratio_line(label: str, value: float, floor: float, target: float) -> str:
    """Format a ratio against its target."""
    r = value / floor if floor else float("inf")
    verdict = "met" if r <= target else f"MISSED by {r / target:.1f}x"
    return f"  {label:<44} {value:8.2f} / {floor:6.2f} = {r:5.2f}x  (target <= {target:g}x: {verdict})"


def target_line(label: str, value: float, target: float, *, at_least: bool = False, unit: str = "") -> str:
    """Format a value against an absolute target."""
    ok = value >= target if at_least else value <= target
    sign = ">=" if at_least else "<="
    miss = (target / value if at_least else value / target) if value else float("inf")
    verdict = "met" if ok else f"MISSED by {miss:.1f}x"
    return f"  {label:<44} {value:8.1f}{unit:<6} (target {sign} {target:g}{unit}: {verdict})"


def row(label: str, s: Series) -> str:
    """Format one timing row: p50, p95, CPU per order, longest callback p50/max (wall, CPU), longest collection."""
    stall50 = pct(s.stalls, 50)
    stall_max = max(s.stalls, default=0.0) * 1000
    stall_cpu = max(s.stalls_cpu, default=0.0) * 1000
    gc_max = max(s.collections, default=0.0) * 1000
    return (f"{label:<40} {pct(s.wall, 50):7.1f} {pct(s.wall, 95):7.1f} {s.cpu_ms():7.1f} "
            f"{stall50:7.1f} {stall_max:7.1f} {stall_cpu:7.1f} {gc_max:7.1f}")


async def run(setup: Setup) -> None:
    """Run every section and print the table."""
    with tempfile.TemporaryDirectory() as tmp, LoopWatch() as watch:
        folder = Path(tmp)
        async with LoopbackDiscord(quiet_after_reply=False, timeout=60.0) as discord:
            bench = Bench(setup, folder, discord, watch)
            await bench.open()
            started = time.perf_counter()
            print(f"product code from {Path(sys.modules[TableService.__module__].__file__ or '.').parents[2]}")
            print(f"building a {setup.size}x{setup.size} battle, {setup.units} units, {setup.events} events ...",
                  flush=True)
            template = await bench.battle(name="template")
            print(f"  built in {time.perf_counter() - started:.1f} s; state {len(realistic.encoded(template.record))}"
                  " bytes", flush=True)

            floor_series = await floor_bot(bench, setup.orders)
            # As a bot process runs it: the heap settled once started.
            await discord.start_bot(BattleBot(bench.service, guild_ready_timeout=0.05, scheduler_poll=None,
                                              tune_heap=True))
            try:
                await report(bench, setup, template, floor_series)
            finally:
                await discord.stop_bot()
                bench.service.close()
                bench.quiet.close()
                await bench.db.close()


@dataclass
class Floors:
    """The floor parts measured right after each order of one case: encode of its image, its SQLite transaction."""

    encode: list[float] = field(default_factory=list)  # 0 for a reply without a map: nothing to encode
    txn: list[float] = field(default_factory=list)
    interactions: list[int] = field(default_factory=list)
    used: Counter[str] = field(default_factory=Counter)
    sizes: tuple[int, int] = (0, 0)

    def drawn(self) -> int:
        """Return how many of the orders posted a map."""
        return sum(self.used.values())

    def total(self, q: float, bot: Series) -> float:
        """Return the floor at a percentile: encode + transaction + the floor bot once per interaction."""
        return pct(self.encode, q) + pct(self.txn, q) + self.trips() * pct(bot.wall, q)

    def trips(self) -> float:
        """Return the interactions per order, on average (a confirmed turn end is two)."""
        return sum(self.interactions) / len(self.interactions) if self.interactions else 1.0


async def report(bench: Bench, setup: Setup, template: Place, floor_series: Series) -> None:
    """Measure every case and print the table."""
    n = setup.orders
    [loop_place, served_place] = await bench.copies(template, 2)
    # Warm up: caches, the first map of each battle, the command tree.
    await in_turn(4, lambda kind, s: bench.slash(loop_place, kind, s))
    await in_turn(4, lambda kind, s: bench.slash(loop_place, kind, s), "attack")
    await in_turn(4, lambda kind, s: bench.served(served_place, kind, s))
    await in_turn(4, lambda kind, s: bench.served(served_place, kind, s), "attack")

    # The floor beside each order: right after its reply, the fastest encode of the image it posted and one
    # minimal SQLite transaction of its sizes, so both see the machine as the order did.
    state_len = len(realistic.encoded(loop_place.record))
    floor_db = await SqliteFloor.open(bench.folder)
    floors: dict[int, Floors] = {}

    def beside(place: Place) -> Callable[[str, Series], Awaitable[None]]:
        async def one(kind: str, series: Series) -> None:
            images: list[Image.Image] = []
            trips = await bench.slash(place, kind, series, images)
            floor = floors.setdefault(id(series), Floors())
            floor.interactions.append(trips)
            if images:
                name, spent = fastest_encode(images[-1])
                floor.encode.append(spent)
                floor.used[name] += 1
            else:
                floor.encode.append(0.0)
            floor.sizes = await realistic.last_entry_sizes(bench.db, place.record.id)
            floor.txn.append(await floor_db.once(state=state_len, entry=floor.sizes[0], snapshot=floor.sizes[1]))
        return one

    try:
        loop_move, loop_end = await in_turn(2 * n, beside(loop_place))
        loop_attack, _ = await in_turn(2 * n, beside(loop_place), "attack")
    finally:
        await floor_db.close()
    serve_move, serve_end = await in_turn(2 * n, lambda kind, s: bench.served(served_place, kind, s))
    serve_attack, _ = await in_turn(2 * n, lambda kind, s: bench.served(served_place, kind, s), "attack")
    f_move, f_end, f_attack = (floors[id(s)] for s in (loop_move, loop_end, loop_attack))

    print()
    print(f"{'case (times in ms)':<40} {'p50':>7} {'p95':>7} {'cpu':>7} {'stall50':>7} {'stallmx':>7} "
          f"{'stallcpu':>7} {'gcmax':>7}")
    print(row("slash /move to its reply with the map", loop_move))
    print(row("slash /turn end (+ Confirm) to its reply", loop_end))
    print(row("slash /attack to its reply with the map", loop_attack))
    print(row("service: /move (execute + map)", serve_move))
    print(row("service: /turn end (execute [+ map])", serve_end))
    print(row("service: /attack (execute + map)", serve_attack))
    print(row("floor: smallest bot answering an embed", floor_series))
    for label, floor in (("/move", f_move), ("/turn end", f_end), ("/attack", f_attack)):
        encoder = ", ".join(f"{name} {count}x" for name, count in floor.used.most_common()) or "no map posted"
        print(f"{'floor ' + label + ': encode the same image':<40} {pct(floor.encode, 50):7.1f} "
              f"{pct(floor.encode, 95):7.1f}   ({floor.drawn()} of {len(floor.encode)} replies had a map; "
              f"fastest of each: {encoder})")
        entry_len, snapshot_len = floor.sizes
        print(f"{'floor ' + label + ': one SQLite transaction':<40} {pct(floor.txn, 50):7.1f} {pct(floor.txn, 95):7.1f}"
              f"   ({state_len} + {entry_len} + {snapshot_len} bytes)")
        print(f"{'floor ' + label + ': sum':<40} {floor.total(50, floor_series):7.1f} "
              f"{floor.total(95, floor_series):7.1f}   (encode + transaction + {floor.trips():.2f}x the floor bot)")
    asked = sum(1 for t in f_end.interactions if t > 1)
    print(f"  /turn end: {asked} of {len(f_end.interactions)} asked whether to give up unused action points and were\n"
          "  confirmed, as a player would: the command and the Confirm are timed together as one order, and its\n"
          "  floor counts the floor bot once per answer (twice then); a turn end whose reply has no map has no\n"
          "  encode in its floor (the rest end a unit's turn with no points left, answered at once)\n"
          "  cpu: CPU per order, every thread of the bot, its map workers and the stand-in, until its board and\n"
          "  pings are done; stall: longest event-loop callback during an order (p50, max); stallcpu: the most\n"
          "  CPU the loop's thread spent in one callback (a stall without the time the machine gave to others);\n"
          "  gcmax: the longest garbage collection during an order")

    # Throughput.
    print("\nthroughput (orders/s, moves and turn ends in turn, each battle in its own channel; through the\n"
          "loopback a turn end is its /turn end and the Confirm of its question, one order)")
    pool = await bench.copies(template, 16)
    results: dict[tuple[str, int], float] = {}
    for count in (1, 4, 16):
        for loopback in (False, True):
            rate = await throughput(bench, pool[:count], setup.throughput_orders, loopback)
            results[("loopback" if loopback else "service", count)] = rate
        print(f"  {count:>2} battles: service {results[('service', count)]:6.1f}/s   "
              f"loopback {results[('loopback', count)]:6.1f}/s", flush=True)

    # Growth with units.
    print("\ngrowth: service /move by units on the map: p50 wall and CPU per order (ms)")
    by_units: dict[int, float] = {}
    for units in (10, 60, 300):
        if units == setup.units:
            [place] = await bench.copies(template, 1)
        else:
            place = await bench.battle(units=units, name=f"units-{units}")
        await in_turn(2, lambda kind, s, p=place: bench.served(p, kind, s))
        moves, _ = await in_turn(2 * setup.growth_orders, lambda kind, s, p=place: bench.served(p, kind, s))
        by_units[units] = moves.cpu_ms()
        print(f"  {units:>4} units: {pct(moves.wall, 50):7.1f} {moves.cpu_ms():7.1f}", flush=True)

    # Growth with events.
    print("\ngrowth: service /move by events in the battle's log: p50 wall and CPU per order (ms)")
    by_events: dict[int, float] = {}
    for events in (10, 1000, 10000):
        [place] = await bench.copies(template, 1)
        await realistic.write_raw(bench.db, lambda raw, p=place, e=events: realistic.resize_log(raw, p.record.id, e))
        await in_turn(2, lambda kind, s, p=place: bench.served(p, kind, s))
        moves, _ = await in_turn(2 * setup.growth_orders, lambda kind, s, p=place: bench.served(p, kind, s))
        by_events[events] = moves.cpu_ms()
        print(f"  {events:>6} events: {pct(moves.wall, 50):7.1f} {moves.cpu_ms():7.1f}", flush=True)

    # Many stored battles.
    before_fill = by_units[setup.units]
    started = time.perf_counter()
    await bench.copies(template, setup.stored, snapshots=False, channels=False)
    total = await bench.db.battles.count()
    print(f"\nstored battles: filled to {total} in {time.perf_counter() - started:.1f} s")
    [place] = await bench.copies(template, 1)
    await in_turn(2, lambda kind, s: bench.served(place, kind, s))
    moves, _ = await in_turn(2 * setup.growth_orders, lambda kind, s: bench.served(place, kind, s))
    after_fill = moves.cpu_ms()
    print(f"  service /move: p50 {pct(moves.wall, 50):.1f} ms, CPU {after_fill:.1f} ms per order with {total} battles"
          f" stored ({before_fill:.1f} ms CPU before)")

    full_times, biggest = await full_map(bench, setup.full_maps)
    placement, placement_stall = await m42_placement(bench)
    before, after = await memory(bench, template, setup.rss_battles)

    print("\ntargets")
    bot50, bot95 = pct(floor_series.wall, 50), pct(floor_series.wall, 95)
    print(ratio_line("slash /move p50 / floor p50", pct(loop_move.wall, 50), f_move.total(50, floor_series),
                     TARGETS["p50"]))
    print(ratio_line("slash /move p95 / floor p95", pct(loop_move.wall, 95), f_move.total(95, floor_series),
                     TARGETS["p95"]))
    print(ratio_line("slash /turn end p50 / its floor p50", pct(loop_end.wall, 50), f_end.total(50, floor_series),
                     TARGETS["p50"]))
    print(ratio_line("slash /turn end p95 / its floor p95", pct(loop_end.wall, 95), f_end.total(95, floor_series),
                     TARGETS["p95"]))
    print(ratio_line("slash /attack p50 / its floor p50", pct(loop_attack.wall, 50),
                     f_attack.total(50, floor_series), TARGETS["p50"]))
    print(f"  (the floor bot: p50 {bot50:.1f} ms, p95 {bot95:.1f} ms, {floor_series.cpu_ms():.1f} ms CPU per answer)")
    # Net of what the smallest bot spends answering the same interactions (a confirmed turn end has two).
    bot_cpu = floor_series.cpu / max(1, floor_series.orders)
    played = loop_move.merge(loop_end)

    def net(series: Series, trips: list[int]) -> float:
        return (series.cpu - bot_cpu * sum(trips)) / max(1, series.orders) * 1000

    print(target_line("CPU per order (moves, turn ends), net of bot", net(played, f_move.interactions + f_end.interactions),
                      TARGETS["cpu"], unit=" ms") + f" ({played.cpu_ms():.1f} gross)")
    print(target_line("CPU per order (moves, turn ends), service", serve_move.merge(serve_end).cpu_ms(),
                      TARGETS["cpu"], unit=" ms"))
    print(target_line("CPU per /move, net of the floor bot", net(loop_move, f_move.interactions),
                      TARGETS["cpu_move"], unit=" ms") + f" ({loop_move.cpu_ms():.1f} gross)")
    print(target_line("CPU per /move, service path", serve_move.cpu_ms(), TARGETS["cpu_move"], unit=" ms"))
    print(f"  {'CPU per /turn end, net of the floor bot':<44} {net(loop_end, f_end.interactions):8.1f} ms     "
          f"({loop_end.cpu_ms():.1f} gross, {serve_end.cpu_ms():.1f} service path)")
    print(f"  {'CPU per /attack, net of the floor bot':<44} {net(loop_attack, f_attack.interactions):8.1f} ms     "
          f"({loop_attack.cpu_ms():.1f} gross, {serve_attack.cpu_ms():.1f} service path)")
    ordered = [loop_move, loop_end, loop_attack]
    stall = max(x for s in ordered for x in s.stalls) * 1000
    stall_cpu = max(x for s in ordered for x in s.stalls_cpu) * 1000
    print(target_line("longest event-loop callback during an order", stall, TARGETS["stall"], unit=" ms"))
    print(target_line("  the same, CPU of the loop's thread in it", stall_cpu, TARGETS["stall"], unit=" ms"))
    print(target_line("16 battles through the service", results[("service", 16)], TARGETS["service16"],
                      at_least=True, unit="/s"))
    print(target_line("16 battles through the loopback", results[("loopback", 16)], TARGETS["loopback16"],
                      at_least=True, unit="/s"))
    growth = by_units[300] / by_units[60]
    print(f"  {'order CPU 60 -> 300 units (5x the units)':<44} {growth:8.2f}x     "
          f"(target <= 5x: {'met' if growth <= 5 else 'MISSED'})")
    flat = by_events[10000] / by_events[10]
    print(f"  {'order CPU 10 -> 10,000 events':<44} {flat:8.2f}x     (flat is 1x)")
    print(f"  {'order CPU 1 -> ' + str(total) + ' stored battles':<44} {after_fill / before_fill:8.2f}x     (flat is 1x)")
    print(target_line("full 100x100 map p95", pct(full_times, 95), TARGETS["full_map"], unit=" ms")
          + f", {biggest / 1024:.0f} KiB")
    print(f"  {'M42 largest unit placed: CPU of the order':<44} {placement:8.1f} ms")
    print(target_line("  longest event-loop callback while it ran", placement_stall, TARGETS["stall"], unit=" ms"))
    print(target_line(f"RSS with {setup.rss_battles} battles in use", after, TARGETS["rss"], unit=" MiB")
          + f" ({before:.0f} MiB before they were used)")
    print(f"\nload generator (picking orders, not timed): {bench.chooser * 1000:.0f} ms in all; turn ends and round"
          f" closes it played itself, untimed, when no due unit could move or attack: {bench.untimed}")


def main() -> None:
    """Parse the sizes and run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument("--quick", action="store_true", help="the default: a minute or two on two cores")
    sizes.add_argument("--full", action="store_true", help="the reference sizes: 10,000 stored battles, more orders")
    parser.add_argument("--orders", type=int, help="orders timed per latency case")
    parser.add_argument("--stored", type=int, help="battles in the database for the scale case")
    parser.add_argument("--rss-battles", type=int, help="battles in use for the memory case")
    parser.add_argument("--render-workers", type=int, default=DEFAULT_RENDER_WORKERS,
                        help=f"processes drawing maps, 0 for a thread of the bot's (default {DEFAULT_RENDER_WORKERS})")
    args = parser.parse_args()
    setup = Setup()
    if args.full:
        setup = Setup(orders=100, stored=10_000, rss_battles=1000, throughput_orders=40, growth_orders=30,
                      full_maps=20)
    if args.orders:
        setup.orders = args.orders
    if args.stored is not None:
        setup.stored = args.stored
    if args.rss_battles is not None:
        setup.rss_battles = args.rss_battles
    setup.render_workers = args.render_workers
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(run(setup))


if __name__ == "__main__":
    main()
