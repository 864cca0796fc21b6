"""A big battle's map stays in the window of its last order while the action sits well inside it."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.maps import STICKY_INSET, steady_crop
from bot.service import Actor, TableService
from render.api import REPAINTS
from rules import orders as o
from rules.coords import Cell
from rules.outcome import Highlight
from storage import Database

GM = Actor(user_id=1, guild_id=10, name="gm", manage_guild=True)


def test_the_last_window_is_kept_while_the_action_sits_inside_it() -> None:
    last = (10, 10, 29, 29)  # 400 squares
    own = (13, 13, 28, 28)  # 256: the last is under twice as wide
    assert steady_crop(last, own, [(18, 18), (20, 21)]) == last
    assert steady_crop(None, own, [(18, 18)]) == own
    assert steady_crop(last, None, [(18, 18)]) is None  # a whole map stays whole


def test_an_action_near_or_past_the_edge_moves_the_window() -> None:
    last = (10, 10, 29, 29)
    own = (18, 18, 33, 33)
    edge = 29 - STICKY_INSET + 1
    assert steady_crop(last, own, [(20, 20), (edge, 20)]) == own
    assert steady_crop(last, own, [(20, 20), (29 - STICKY_INSET, 20)]) == last
    assert steady_crop(last, own, [(35, 35)]) == own


def test_a_window_much_wider_than_the_actions_own_is_not_kept() -> None:
    last = (0, 0, 39, 39)
    own = (14, 14, 27, 27)  # 14x14 = 196 squares; the last is 1,600
    assert steady_crop(last, own, [(20, 20)]) == own


async def test_successive_order_maps_of_a_big_battle_stay_in_one_window_and_are_repainted(db: Database) -> None:
    """Two orders a few squares apart on a 40x40 battle: the second map is posted in the first one's window, so
    the picture is the same size and the renderer repaints the squares that changed instead of drawing it all."""
    service = TableService(db, rng_factory=lambda: random.Random(4))
    record = (await service.create_battle(GM, channel_id=9, thread_id=None, name="Wide", ruleset="strategic-e",
                                          width=40, height=40)).record
    for name, at in (("Scout", Cell(20, 20)), ("Rival", Cell(24, 22))):
        record = (await service.execute(GM, record, o.AddUnit(name=name, side=name, at=at), render=False)).record
    battle = service.read_only(record)
    try:
        first = await service.render(battle, Highlight(actor="U21", path=["U21", "V21"]), battle_id=record.id)
        REPAINTS.reset()
        second = await service.render(battle, Highlight(actor="V22", path=["V22", "W22"]), battle_id=record.id)
        far = await service.render(battle, Highlight(actor="B2", path=["B2", "C2"]), battle_id=record.id)
    finally:
        service.close()
    assert first is not None and second is not None and far is not None
    assert first.cropped and second.cropped
    assert Image.open(io.BytesIO(first.png)).size == Image.open(io.BytesIO(second.png)).size
    assert REPAINTS.repainted == 1 and REPAINTS.whole == 1  # the far action moved the window: drawn whole
    assert service.windows[record.id][0] == 0  # the window went to the far corner
