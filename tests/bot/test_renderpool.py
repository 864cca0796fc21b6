"""Maps drawn in worker processes are the maps drawn in the bot's own process, byte for byte."""

from __future__ import annotations

import io
import multiprocessing
import os
import random
import time

import pytest
from PIL import Image

from bot.maps import action_crop, draw
from bot.mapview import build_view, overlays_for
from bot.renderpool import RenderPool, start_worker
from rules.battle import Battle
from rules.coords import Cell
from rules.dice import Dice
from rules.orders import AddUnit, Move, Start
from rules.turnorders import SetTurnMode


def moved_battle() -> tuple[Battle, object]:
    """Return a 40x40 battle after a move, and the move's outcome."""
    dice = Dice(random.Random(3))
    battle = Battle.new("strategic-e", 40, 40, "Pool")
    battle.apply(AddUnit(name="Eva-01", side="NERV", at=Cell.parse("C3"), stats={"ag": 45}), dice)
    battle.apply(AddUnit(name="Sachiel", side="Angels", at=Cell.parse("P30"), stats={"ag": 38}), dice)
    battle.apply(SetTurnMode(mode="free"), dice)
    battle.apply(Start(), dice)
    outcome = battle.apply(Move(unit="Eva-01", to=Cell.parse("F6"), mode="full"), dice)
    return battle, outcome


async def test_a_map_from_the_worker_pool_is_the_map_drawn_in_process() -> None:
    battle, outcome = moved_battle()
    view = build_view(battle)
    marks = overlays_for(outcome.highlight, outcome.details)  # type: ignore[attr-defined]
    crop = action_crop(view, [(2, 2), (5, 5)], full=False)
    assert crop is not None, "a 40x40 map is posted cropped"
    here = draw(view, marks, crop, battle_id=7)
    pool = RenderPool(1)
    try:
        there = await pool.draw(view, marks, crop, battle_id=7)
        again = await pool.draw(view, marks, None, battle_id=7, palette="grey")
    finally:
        pool.shutdown()
    assert there == here
    assert Image.open(io.BytesIO(there.png)).size == Image.open(io.BytesIO(here.png)).size
    assert again == draw(view, marks, None, battle_id=7, palette="grey")
    assert Image.open(io.BytesIO(again.png)).mode == "L"


async def test_with_no_workers_maps_are_drawn_in_process_and_a_negative_count_is_refused() -> None:
    battle, _ = moved_battle()
    view = build_view(battle)
    pool = RenderPool(0)
    image = await pool.draw(view, [], None)
    assert image == draw(view, [], None)
    pool.shutdown()
    with pytest.raises(ValueError, match="0 or more workers"):
        RenderPool(-1)


def _orphan(parent: int) -> None:
    """Start as a map worker whose parent (as it was told) is another process, then idle."""
    start_worker(parent)
    time.sleep(60)


def test_a_worker_that_finds_its_parent_gone_ends_by_itself() -> None:
    """Where no death signal comes (another system, or a parent gone before it was asked for), the worker's
    own check of its parent ends it: here it is told a parent that is not its own, as after a re-parenting."""
    worker = multiprocessing.get_context("spawn").Process(target=_orphan, args=(os.getpid() + 1_000_000,))
    worker.start()
    worker.join(timeout=60)
    if worker.is_alive():  # a failed run must not leave the process behind
        worker.kill()
        worker.join()
    assert worker.exitcode == 0, "the worker ended itself once it saw its parent was not the one it was given"
