"""Time one player order end to end through the table service, against its parts.

For a 40x40 map with 60 units and a 100x100 map it prints, per order: end to end (resolve, commit,
render, encode) p50/p95, the PNG encode alone of the same image and the ratio of the two, rules plus
storage alone, the same with 10,000 battles in the database, and the longest event-loop stall.

Run: .venv/bin/python benchmarks/bench_orders.py [--orders N] [--battles 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.maps import CROP_ABOVE
from bot.mapview import action_cells, overlays_for
from bot.service import Actor, TableService
from render import crop_around, encode_png, render_image
from rules import orders as o
from rules.battle import Battle
from rules.coords import Cell
from rules.turnorders import CloseRound
from storage import BattleRecord, Database

GM = Actor(user_id=1, guild_id=1, manage_guild=True)
TERRAIN = ("forest", "mountain", "water", "urban")


def pct(values: list[float], q: float) -> float:
    """Return the q-th percentile of values, in milliseconds."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))] * 1000


async def build(service: TableService, size: int, units: int, channel: int) -> BattleRecord:
    """Create a started battle with blobs of terrain and units on both sides."""
    rng = random.Random(size)
    result = await service.create_battle(GM, channel_id=channel, thread_id=None, name=f"Bench {size}",
                                         ruleset="strategic-e", width=size, height=size)
    record = result.record
    for _ in range(size * size // 60):
        x, y, r = rng.randrange(size), rng.randrange(size), rng.randint(1, 3)
        a = Cell(max(0, x - r), max(0, y - r))
        b = Cell(min(size - 1, x + r), min(size - 1, y + r))
        record = (await service.execute(GM, record, o.Paint(terrain=rng.choice(TERRAIN), frm=a, to=b),
                                        render=False)).record
    for i in range(units):
        at = Cell(2 * (i % (size // 2)), 2 * (i // (size // 2)) % size)
        order = o.AddUnit(name=f"U{i}", side="Blue" if i % 2 else "Red", at=at, stats={"ag": 45})
        record = (await service.execute(GM, record, order, render=False)).record
    return (await service.execute(GM, record, o.Start(), render=False)).record


def next_move(battle: Battle, rng: random.Random) -> o.Move | None:
    """Return a legal move of a random unit to a random square within its Full Move, or None if none is found."""
    units = list(battle.iter_units())
    for _ in range(300):
        unit = rng.choice(units)
        x = min(battle.width - 1, max(0, unit.x + rng.randint(-3, 3)))
        y = min(battle.height - 1, max(0, unit.y + rng.randint(-3, 3)))
        order = o.Move(unit=unit.name, to=Cell(x, y))
        if Cell(x, y) != unit.cell and battle.is_legal(order):
            return order
    return None


ACTIVE = [False]


async def stall_probe(stop: asyncio.Event, worst: list[float]) -> None:
    """Measure the longest gap between ticks of the event loop while an order is in the table service."""
    last = time.perf_counter()
    was_active = False
    while not stop.is_set():
        await asyncio.sleep(0.001)
        now = time.perf_counter()
        # Only gaps that began and ended inside a service call count: the benchmark's own order
        # picking also runs on the loop, and is not what a player's order costs.
        if was_active and ACTIVE[0]:
            worst[0] = max(worst[0], now - last - 0.001)
        was_active = ACTIVE[0]
        last = now


async def measure(service: TableService, record: BattleRecord, n: int) -> dict[str, Any]:
    """Run n moves; return end-to-end, encode-alone and rules+storage timings."""
    rng = random.Random(3)
    e2e: list[float] = []
    core: list[float] = []
    encode: list[float] = []
    worst = [0.0]
    stop = asyncio.Event()
    probe = asyncio.create_task(stall_probe(stop, worst))
    for i in range(n):
        battle = Battle.from_dict(record.state)
        order = next_move(battle, rng)
        while order is None:
            # Everyone due has spent their actions: the GM closes the round (not timed).
            record = (await service.execute(GM, record, CloseRound(), render=False)).record
            order = next_move(Battle.from_dict(record.state), rng)
        await asyncio.sleep(0.005)  # let the probe tick before the order starts
        ACTIVE[0] = True
        start = time.perf_counter()
        if i % 2:
            result = await service.execute(GM, record, order, render=False)
            ACTIVE[0] = False
            core.append(time.perf_counter() - start)
            record = result.record
            continue
        result = await service.execute(GM, record, order, render=True)
        ACTIVE[0] = False
        e2e.append(time.perf_counter() - start)
        record = result.record
        assert result.outcome is not None and result.png
        view = service.view_of(result.battle)
        overlays = overlays_for(result.outcome.highlight, result.outcome.data)
        crop = None
        if result.battle.width > CROP_ABOVE:
            crop = crop_around(view, action_cells(result.outcome.highlight))
        image = render_image(view, overlays=overlays, crop=crop)
        t0 = time.perf_counter()
        png = encode_png(image)
        encode.append(time.perf_counter() - t0)
        assert png == result.png.png
    stop.set()
    await probe
    return {"e2e": e2e, "core": core, "encode": encode, "stall": worst[0], "record": record}


async def fill(db: Database, count: int) -> None:
    """Add filler battles (a small map each) until the database holds `count` of them."""
    state = Battle.new("strategic-e", 10, 10, "Filler").to_dict()
    have = await db.battles.count()
    for i in range(have, count):
        await db.battles.create(guild_id=1000 + i, channel_id=5000 + i, thread_id=None, name="Filler",
                                ruleset="strategic-e", created_by=1, state=state, now=0.0)


def row(label: str, r: dict[str, Any]) -> str:
    """Format one line of the table."""
    e50, e95 = pct(r["e2e"], 50), pct(r["e2e"], 95)
    n50, n95 = pct(r["encode"], 50), pct(r["encode"], 95)
    c50, c95 = pct(r["core"], 50), pct(r["core"], 95)
    return (f"{label:<26} {e50:7.1f} {e95:7.1f} {n50:7.1f} {n95:7.1f} {e95 / n95:6.2f} "
            f"{c50:7.2f} {c95:7.2f} {r['stall'] * 1000:7.1f}")


async def main(orders: int, battles: int) -> None:
    """Run the benchmark and print the table."""
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.sqlite3")
        service = TableService(db, rng_factory=lambda: random.Random(1))
        header = (f"{'case':<26} {'e2e50':>7} {'e2e95':>7} {'enc50':>7} {'enc95':>7} {'ratio':>6} "
                  f"{'core50':>7} {'core95':>7} {'stall':>7}")
        print("times in ms; ratio = end-to-end p95 / encode-alone p95; core = rules + storage, no render")
        print(header)
        small = await build(service, 40, 60, channel=10)
        big = await build(service, 100, 60, channel=11)
        small = (await measure(service, small, 6))["record"]  # warm the caches
        big = (await measure(service, big, 6))["record"]
        r40 = await measure(service, small, orders)
        r100 = await measure(service, big, orders)
        print(row("40x40, 60 units", r40))
        print(row("100x100, 60 units", r100))
        started = time.perf_counter()
        await fill(db, battles)
        print(f"(filled to {await db.battles.count()} battles in {time.perf_counter() - started:.1f} s)")
        r40b = await measure(service, r40["record"], orders)
        r100b = await measure(service, r100["record"], orders)
        print(row(f"40x40, {battles} battles", r40b))
        print(row(f"100x100, {battles} battles", r100b))
        await db.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--orders", type=int, default=80)
    parser.add_argument("--battles", type=int, default=10_000)
    args = parser.parse_args()
    asyncio.run(main(args.orders, args.battles))
