"""What /battles and a pass of daily digests cost with many running battles.

Both read every active battle (the turn waiting, who is due, the clock), so their cost grows with the battles
running on the whole bot, not with the player's. This builds `--battles` small running battles (three units
each, a player per unit, drawn from `--players` players) in a SQLite file through the table service, then
times `battles_due` for one player with the battles' decoded states cold (a fresh service) and kept, and a
digest pass for every player.

Run: .venv/bin/python benchmarks/bench_my_battles.py [--battles N] [--players N]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from bot.mybattles import DueBattle, battles_due, send_digests
from bot.service import Actor, TableService
from rules import orders as o
from rules.coords import Cell
from storage import Database

GUILD = 1


async def build(path: Path, battles: int, players: int) -> None:
    """Create and start the battles."""
    async with await Database.open(path) as db:
        service = TableService(db, render=False)
        gm = Actor(user_id=1, guild_id=GUILD, name="gm", manage_guild=True)
        for n in range(battles):
            made = await service.create_battle(gm, channel_id=1000 + n, thread_id=None, name=f"B{n}",
                                               ruleset="strategic-e", width=12, height=12)
            record = made.record
            for i, (side, at) in enumerate((("Blue", "A1"), ("Blue", "B1"), ("Red", "L12"))):
                owner = 10 + (n * 3 + i) % players
                result = await service.execute(gm, record, o.AddUnit(name=f"U{i}", side=side, at=Cell.parse(at),
                                                                     owner=owner, stats={"ag": 40}), render=False)
                record = result.record
            await service.execute(gm, record, o.Start(), render=False)
        service.close()


async def measure(path: Path, players: int) -> None:
    """Time /battles cold and warm, and one digest pass for every player."""
    async with await Database.open(path) as db:
        service = TableService(db, render=False)
        started = time.perf_counter()
        found = await battles_due(service, 10)
        cold = time.perf_counter() - started
        started = time.perf_counter()
        await battles_due(service, 10)
        warm = time.perf_counter() - started
        for uid in range(10, 10 + players):
            await db.digests.turn_on(uid, service.clock(), None)
        sent = 0

        async def send(_uid: int, _battles: list[DueBattle]) -> bool:
            nonlocal sent
            sent += 1
            return True

        started = time.perf_counter()
        await send_digests(service, send)
        digest = time.perf_counter() - started
        service.close()
    print(f"/battles for one player ({len(found)} due): {cold * 1000:.0f} ms cold, {warm * 1000:.0f} ms warm")
    print(f"one digest pass for {players} players ({sent} sent): {digest * 1000:.0f} ms")


def main() -> None:
    """Build the battles and print the timings."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, default=300)
    parser.add_argument("--players", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "battles.sqlite3"
        started = time.perf_counter()
        asyncio.run(build(path, args.battles, args.players))
        print(f"built {args.battles} running battles in {time.perf_counter() - started:.1f} s")
        asyncio.run(measure(path, args.players))


if __name__ == "__main__":
    main()
