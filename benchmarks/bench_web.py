"""Time the web view on a big battle: the server's part of the page, a replay step, a live update, spectators;
weigh a 40x40 battle's page; and time the page in a real browser.

A 100x100 battle with 400 units (two sides in free order) and a log of moves is made through the table service
on a SQLite file; the web view serves it on a free port of 127.0.0.1, and its links are opened as a browser
would. The server's figures are measured from outside (HTTP), in one run, with the medians and the 95th
percentiles. The page weight is that of a 40x40 battle with 60 units: what the page needs before the map's
data (its HTML without the map's SVG, the script and the style), as sent (gzip) and unpacked. The browser's
figures come from Debian's Chromium, headless, driven by Playwright as the browser tests do: the first
contentful paint and the map on screen (the first frame drawn after the page's HTML, map and all, is read),
from the start of the navigation, on a fresh page each time; and a replay step from the click on "Previous"
to the frame drawn with the step shown.

Run: .venv/bin/python benchmarks/bench_web.py [--size 100] [--units 400] [--orders 60] [--spectators 500]
     [--no-browser]
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import random
import resource
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

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


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
WEIGHT_TARGET_KIB = 300
# Set before the page's own code runs: the moment the first frame is drawn after the HTML (the map in it) is read.
MAP_SHOWN = ("document.addEventListener('DOMContentLoaded', () => requestAnimationFrame(() => "
             "requestAnimationFrame(() => { window.mapShown = performance.now(); })));")
PAINTS = """() => ({fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
                   shown: window.mapShown, server: performance.getEntriesByType('navigation')[0].responseEnd})"""
STEP = """async (target) => {
  const label = document.getElementById('step-label');
  const t0 = performance.now();
  const done = new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (label.textContent.startsWith(`Order ${target} of`)) { watch.disconnect(); resolve(); }
    });
    watch.observe(label, {childList: true, characterData: true, subtree: true});
  });
  document.getElementById('prev').click();
  await done;
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  return performance.now() - t0;
}"""


async def make_battle(service: TableService, size: int, units: int, orders: int,
                      channel_id: int = 20) -> tuple[object, list[str]]:
    """Create the battle through the table service: units spread over the map, then moves."""
    created = await service.create_battle(GM, channel_id=channel_id, thread_id=None, name="Big", ruleset="strategic-e",
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
    parser.add_argument("--no-browser", action="store_true", help="leave out the figures taken in Chromium")
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
            gm_link = next(x.url for x in await issue_links(service, GM, record, base) if x.audience == "gm")
            choices: list[float] = []
            for name in names[: args.runs]:
                t = time.perf_counter()
                await fetch(f"{gm_link}/may?unit={name}")
                choices.append(time.perf_counter() - t)
            summary("a card's choices (legal orders), GM, first open", choices)
            await page_weight(service, base, fetch)
            if not args.no_browser:
                await in_browser(link, builder, args.runs)
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


async def page_weight(service: TableService, base: str, fetch: Any) -> None:
    """Print what a 40x40 battle's page weighs before its map's data: as sent (gzip) and unpacked."""
    record, _names = await make_battle(service, 40, 60, 20, channel_id=21)
    link = next(x.url for x in await issue_links(service, GM, record, base) if x.audience == "public")
    page = await fetch(link)
    start = page.index(b'<svg id="map-svg"')
    end = page.index(b"</svg>", start) + len(b"</svg>")
    without_map = page[:start] + page[end:]
    statics = [await fetch(f"{base}/static/{name}") for name in server.STATIC]
    parts = [without_map, *statics]
    unpacked = sum(len(p) for p in parts)
    sent = sum(len(gzip.compress(p)) for p in parts)
    print(f"page weight, 40x40 battle, 60 units, before the map's data: {sent / 1024:.0f} KiB sent (gzip), "
          f"{unpacked / 1024:.0f} KiB unpacked (HTML {len(without_map) / 1024:.0f}, script and style "
          f"{sum(len(p) for p in statics) / 1024:.0f}; the map's SVG adds {(end - start) / 1024:.0f}); "
          f"target < {WEIGHT_TARGET_KIB} KiB")
    async with aiohttp.ClientSession(auto_decompress=False) as raw, raw.get(link, headers={"Accept-Encoding": "gzip"}) as answer:
        body = await answer.read()
        print(f"  the page as served: {answer.headers.get('Content-Encoding', 'not compressed')}, {len(body) / 1024:.0f} KiB "
              "with its map")


async def in_browser(link: str, builder: Any, runs: int) -> None:
    """Print the page's first paint and its map on screen in headless Chromium, and a replay step there."""
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = await browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
        await context.add_init_script(MAP_SHOWN)
        fcp: list[float] = []
        shown: list[float] = []
        server_part: list[float] = []
        for _ in range(max(3, runs // 3)):
            builder._frames.clear()  # the server builds the page again each time, as for a first visitor
            page = await context.new_page()
            await page.goto(link, wait_until="load")
            await page.wait_for_function("window.mapShown !== undefined")
            # Chromium records the paint entry a moment after the frame: wait for it rather than miss it.
            await page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length > 0")
            found = await page.evaluate(PAINTS)
            fcp.append(found["fcp"] / 1000)
            shown.append(found["shown"] / 1000)
            server_part.append(found["server"] / 1000)
            await page.close()
        summary("browser: last byte of the page received", server_part)
        summary("browser: first contentful paint (target < 1 s)", fcp)
        summary("browser: the map on screen (target < 1 s)", shown)
        page = await context.new_page()
        await page.goto(link, wait_until="load")
        steps = int(await page.locator("#slider").get_attribute("max") or 0)
        stepping = []
        for target in range(steps - 1, max(-1, steps - 1 - runs), -1):
            stepping.append(await page.evaluate(STEP, target) / 1000)
        summary("browser: a replay step, click to frame drawn (target < 100 ms)", stepping)
        await browser.close()


if __name__ == "__main__":
    asyncio.run(main())
