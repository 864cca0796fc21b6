"""The bot process settles its heap once started: startup's objects frozen, young collections batched."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.client import BattleBot
from bot.config import load_settings
from bot.heap import YOUNG_THRESHOLD
from bot.runner import make_client
from bot.service import TableService
from storage import Database

ROOT = Path(__file__).resolve().parents[2]


def test_settling_freezes_what_startup_built_and_batches_young_collections() -> None:
    # A fresh interpreter: freezing objects in the test process would keep its garbage forever.
    script = (
        "import gc, sys; sys.path.insert(0, sys.argv[1])\n"
        "from bot.heap import settle_heap, YOUNG_THRESHOLD\n"
        "assert gc.get_freeze_count() == 0\n"
        "settle_heap()\n"
        "assert gc.get_freeze_count() > 1_000, gc.get_freeze_count()\n"
        "assert gc.get_threshold()[0] == YOUNG_THRESHOLD\n"
        "cycle = []; cycle.append(cycle); del cycle\n"
        "assert gc.collect() >= 1  # garbage made afterwards is still collected\n"
    )
    subprocess.run([sys.executable, "-c", script, str(ROOT)], check=True, timeout=120)
    assert YOUNG_THRESHOLD > 700  # CPython's default


async def test_the_running_bot_settles_its_heap_and_tests_do_not(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "battlepost.sqlite3")
    try:
        service = TableService(db)
        settings = load_settings(None, shards=None)
        assert make_client(service, settings).tune_heap
        assert not BattleBot(service).tune_heap
    finally:
        await db.close()
