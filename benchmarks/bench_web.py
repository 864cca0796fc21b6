"""Time the web view on a big battle: the server's part of the page, a replay step, a live update, spectators.

A 100x100 battle with 400 units (two sides in free order) and a log of moves is made through the table service
on a SQLite file; the web view serves it on a free port of 127.0.0.1, and its links are opened as a browser
would. Every figure is measured from outside (HTTP), in one run, with the medians and the 95th percentiles.

Run: .venv/bin/python benchmarks/bench_web.py [--size 100] [--units 400] [--orders 60] [--spectators 500]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp

import web.server as server
from bot.service import Actor, TableService
from bot.webfront import issue_links
from rules.coords import Cell
from rules.orders import AddUnit, Move, Start
from rules.turnorders import SetTurnMode
from storage import Database

GM = Actor(user_id=1, guild_id=10, name="gm", manage_guild=True)


def free_port() -> int:
    """Return a TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mib() -> float:
    """Return this process's resident memory now, in MiB (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def summary(label: str, seconds: list[float]) -> None:
    """Print the median and the 95th percentile of some timings, in ms."""
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    print(f"{label:<46} p50 {statistics.median(ms):7.1f} ms   p95 {p95:7.1f} ms   (n={len(ms)})")


async def make_battle(service: TableService, size: int, units: int, orders: int) -> tuple[object, list[str]]:
    """Create the battle through the table service: units spread over the map, then moves."""
    created = await service.create_battle(GM, channel_id=20, thread_id=None, name="Big", ruleset="strategic-e",
                                          width=size, height=size)
    record = (await service.execute(GM, created.record, SetTurnMode(mode="free"), render=False)).record
    rng = random.Random(5)
    squares = rng.sample([(x, y) for x in range(size) for y in range(size)], units)
    names = []
    for n, (x, y) in enumerate(squares):
        name = f"Unit-{n}"
        names.append(name)
        record = (await service.execute(GM, record, AddUnit(name=name, side="Blue" if n % 2 else "Red", at=Cell(x, y)),
                                        render=False)).record
    record = (await service.execute(GM, record, Start(), render=False)).record
    moved = 0
    while moved < orders:
        name = rng.choice(names)
        unit = service.read_only(record).unit(name)
        to = Cell(min(size - 1, max(0, unit.x + rng.choice((-1, 1)))), min(size - 1, max(0, unit.y + rng.choice((-1, 1)))))
        try:
            record = (await service.execute(GM, record, Move(unit=name, to=to, mode="half"), render=False)).record
        except Exception:  # a square taken or a unit that already moved: try another
            continue
        moved += 1
    return record, names


async def main() -> None:
    """Build the battle, serve it, and measure."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--units", type=int, default=400)
    parser.add_argument("--orders", type=int, default=60)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--spectators", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        service = TableService(db, render=False)
        started = time.perf_counter()
        record, names = await make_battle(service, args.size, args.units, args.orders)
        print(f"battle {args.size}x{args.size}, {args.units} units, {args.orders} moves: made in "
              f"{time.perf_counter() - started:.1f} s")
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server.MAX_STREAMS_PER_ADDRESS = args.spectators + 10  # every spectator comes from this one address
        app = server.make_app(service, rate=server.RateLimit(rate=1e9))
        runner = server.web.AppRunner(app, access_log=None)
        await runner.setup()
        await server.web.TCPSite(runner, "127.0.0.1", port).start()
        link = next(x.url for x in await issue_links(service, GM, record, base) if x.audience == "public")
        builder = app[server.BUILDER_KEY]
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            async def fetch(url: str) -> bytes:
                async with http.get(url) as answer:
                    assert answer.status == 200, (url, answer.status)
                    return await answer.read()

            first: list[float] = []
            for _ in range(args.runs):
                builder._frames.clear()  # the server's part from nothing kept (the log read, the SVG drawn)
                t = time.perf_counter()
                page = await fetch(link)
                first.append(time.perf_counter() - t)
            summary("page, server's part (nothing kept)", first)
            statics = sum([len(await fetch(f"{base}/static/view.js")), len(await fetch(f"{base}/static/view.css"))])
            svg = page.index(b"<svg id=\"map-svg\""), page.index(b"</svg>", page.index(b"<svg id=\"map-svg\""))
            print(f"page weight: {len(page) / 1024:.0f} KiB of HTML (of which the map's SVG "
                  f"{(svg[1] - svg[0]) / 1024:.0f} KiB), {statics / 1024:.0f} KiB of script and style")
            kept: list[float] = []
            for _ in range(args.runs):
                t = time.perf_counter()
                await fetch(link)
                kept.append(time.perf_counter() - t)
            summary("page, served again (frame kept)", kept)
            frame = await fetch(f"{link}/frame.json")
            steps = int(__import__("json").loads(frame)["steps"])
            rng = random.Random(3)
            stepping: list[float] = []
            back: list[float] = []
            at = steps
            for _ in range(args.runs):
                at = max(0, at - 1)
                t = time.perf_counter()
                await fetch(f"{link}/frame.json?step={at}")
                back.append(time.perf_counter() - t)
                jump = rng.randrange(steps)
                t = time.perf_counter()
                await fetch(f"{link}/frame.json?step={jump}")
                stepping.append(time.perf_counter() - t)
            summary("replay, one step back", back)
            summary("replay, a jump to any order", stepping)
            live: list[float] = []
            async with http.get(f"{link}/events") as stream:
                await stream.content.readuntil(b"\n\n")
                for n in range(args.runs):
                    unit = service.read_only(record).unit(names[n])
                    to = Cell(unit.x, min(args.size - 1, unit.y + 1) if unit.y < args.size - 1 else unit.y - 1)
                    try:
                        record = (await service.execute(GM, record, Move(unit=names[n], to=to, mode="half"),
                                                        render=False)).record
                    except Exception:
                        continue
                    committed = time.perf_counter()
                    await stream.content.readuntil(b"\n\n")
                    await fetch(f"{link}/frame.json")
                    live.append(time.perf_counter() - committed)
            summary("live: commit to the new frame fetched", live)

            async def some_orders(offset: int) -> list[float]:
                nonlocal record
                took: list[float] = []
                for n in range(args.runs):
                    name = names[(offset + n) % len(names)]
                    unit = service.read_only(record).unit(name)
                    to = Cell(unit.x, unit.y + 1 if unit.y < args.size - 1 else unit.y - 1)
                    t = time.perf_counter()
                    try:
                        record = (await service.execute(GM, record, Move(unit=name, to=to, mode="half"),
                                                        render=False)).record
                    except Exception:
                        continue
                    took.append(time.perf_counter() - t)
                    await asyncio.sleep(0.05)  # the streams are told in the background, as they would be
                return took

            summary("an order, nobody watching", await some_orders(len(names) // 3))
            before = rss_mib()
            streams = []
            for _ in range(args.spectators):
                answer = await http.get(f"{link}/events")
                await answer.content.readuntil(b"\n\n")
                streams.append(answer)
            during = rss_mib()
            orders = await some_orders(2 * len(names) // 3)
            summary(f"an order while {args.spectators} spectators watch", orders)
            print(f"memory (bench process: server and clients): {before:.0f} MiB before the spectators, "
                  f"{during:.0f} MiB with {args.spectators} streams open (+{during - before:.0f} MiB)")
            for answer in streams:
                answer.close()
        await runner.cleanup()
        await db.close()


if __name__ == "__main__":
    asyncio.run(main())
