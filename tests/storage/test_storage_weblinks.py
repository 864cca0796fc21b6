"""The web view's links: stored as hashes, found by hash, trimmed per audience, revoked per battle, on both backends."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from storage import BattleNotFound, Database
from storage.weblinks import KEEP_PER_AUDIENCE

if TYPE_CHECKING:
    from tests.storage.conftest import NewBattle


async def test_a_link_opens_its_battle_for_its_audience(db: Database, new_battle: NewBattle) -> None:
    one = await new_battle()
    two = await new_battle(channel_id=201)
    await db.web_links.add(one.id, "public", "a" * 64, 10.0)
    await db.web_links.add(one.id, "side:nerv", "b" * 64, 11.0)
    await db.web_links.add(two.id, "gm", "c" * 64, 12.0)
    assert await db.web_links.find("a" * 64) == (one.id, "public")
    assert await db.web_links.find("b" * 64) == (one.id, "side:nerv")
    assert await db.web_links.find("c" * 64) == (two.id, "gm")
    assert await db.web_links.find("d" * 64) is None


async def test_revoking_ends_every_link_of_one_battle_only(db: Database, new_battle: NewBattle) -> None:
    one = await new_battle()
    two = await new_battle(channel_id=201)
    await db.web_links.add(one.id, "public", "a" * 64, 10.0)
    await db.web_links.add(one.id, "gm", "b" * 64, 10.0)
    await db.web_links.add(two.id, "public", "c" * 64, 10.0)
    assert await db.web_links.revoke(one.id) == 2
    assert await db.web_links.find("a" * 64) is None and await db.web_links.find("b" * 64) is None
    assert await db.web_links.find("c" * 64) == (two.id, "public")
    assert await db.web_links.revoke(one.id) == 0


async def test_only_the_newest_links_of_an_audience_are_kept(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    for n in range(KEEP_PER_AUDIENCE + 3):
        await db.web_links.add(battle.id, "public", f"{n:064d}", float(n))
    await db.web_links.add(battle.id, "gm", "g" * 64, 0.0)
    for n in range(3):
        assert await db.web_links.find(f"{n:064d}") is None, "the oldest links stop working"
    assert await db.web_links.find(f"{KEEP_PER_AUDIENCE + 2:064d}") == (battle.id, "public")
    assert await db.web_links.find(f"{3:064d}") == (battle.id, "public")
    assert await db.web_links.find("g" * 64) == (battle.id, "gm"), "another audience keeps its own"


async def test_links_go_with_their_battle(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    await db.web_links.add(battle.id, "public", "a" * 64, 10.0)
    assert await db.battles.delete(battle.id)
    assert await db.web_links.find("a" * 64) is None
    with pytest.raises(BattleNotFound):
        await db.web_links.add(battle.id, "public", "b" * 64, 11.0)
