"""Resident memory of a bot process and its map workers with many battles in use: each takes one order and draws its map.

Started by bench_orders.py on its database: python benchmarks/bench_memory.py DB IDS GUILD GM, where IDS is a
comma-separated list of battle ids. Prints the RSS in MiB before and after, on one line.
"""

from __future__ import annotations

import asyncio
import gc
import random
import sys
from pathlib import Path

# After PYTHONPATH, so the same scripts can measure another checkout of the product: PYTHONPATH=/that/checkout.
sys.path.append(str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import realistic
from probes import rss_mib

from bot.config import DEFAULT_RENDER_WORKERS
from bot.service import Actor, TableService
from rules.battle import Battle
from storage import Database


async def main(path: str, ids: list[int], guild: int, gm_id: int) -> None:
    """Play one move in each battle through a fresh table service, drawing its map; print RSS before and after."""
    db = await Database.open(path)
    # Maps drawn in worker processes as the bot draws them, so the workers' memory is counted too.
    service = TableService(db, rng_factory=lambda: random.Random(5), render_workers=DEFAULT_RENDER_WORKERS)
    gm = Actor(user_id=gm_id, guild_id=guild, name="gm", manage_guild=True)
    rng = random.Random(3)
    gc.collect()
    before = rss_mib()
    for battle_id in ids:
        record = await db.battles.get(battle_id)
        assert record is not None
        order = realistic.next_order(Battle.from_dict(record.state), rng, "move")
        result = await service.execute(gm, record, order, render=False)
        if result.outcome is not None:
            await service.render(result.battle, outcome=result.outcome, battle_id=battle_id)
    gc.collect()
    print(f"{before:.1f} {rss_mib():.1f}")
    service.close()
    await db.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], [int(x) for x in sys.argv[2].split(",")], int(sys.argv[3]), int(sys.argv[4])))
