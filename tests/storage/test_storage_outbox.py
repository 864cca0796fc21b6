"""The outbox: owed posts claimed once, leased, coalesced by key, and written with the order they follow."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest

from storage import BattleNotFound, Database, NewEvent, Post, StaleVersionError

if TYPE_CHECKING:
    from tests.storage.conftest import MakeState, NewBattle

LEASE = 60.0


async def test_a_post_is_claimed_once_and_settled_once(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    post_id = await db.outbox.add(Post(battle.id, "turn", {"turn": "r1"}), now=10.0)
    claimed = await db.outbox.claim_due(10.0, LEASE)
    assert claimed is not None and (claimed.id, claimed.payload, claimed.attempts) == (post_id, {"turn": "r1"}, 1)
    assert claimed.leased_until == 10.0 + LEASE
    assert await db.outbox.claim_due(11.0, LEASE) is None, "a leased post is nobody else's"
    assert await db.outbox.claim(post_id, 11.0, LEASE) is None
    assert await db.outbox.settle(claimed, "sent", 12.0) is True
    assert await db.outbox.settle(claimed, "sent", 13.0) is False, "settled once"
    assert await db.outbox.claim_due(10_000.0, LEASE) is None
    assert await db.outbox.owed(battle.id) == []
    stored = await db.outbox.get(post_id)
    assert stored is not None and (stored.outcome, stored.settled_at) == ("sent", 12.0)


async def test_a_post_is_not_due_before_its_delay_but_its_writer_may_claim_it(
        db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    post_id = await db.outbox.add(Post(battle.id, "turn", {}, delay=30.0), now=10.0)
    assert await db.outbox.claim_due(39.0, LEASE) is None
    assert await db.outbox.next_due() == 40.0
    mine = await db.outbox.claim(post_id, 11.0, LEASE)
    assert mine is not None and mine.id == post_id


async def test_a_lease_that_runs_out_lets_another_claimer_take_the_post(db: Database, new_battle: NewBattle) -> None:
    """A process that stopped mid-post leaves the post to the next claimer once its lease is over."""
    battle = await new_battle()
    post_id = await db.outbox.add(Post(battle.id, "message", {"content": "hit"}), now=0.0)
    first = await db.outbox.claim_due(1.0, LEASE)
    assert first is not None
    assert await db.outbox.claim_due(1.0 + LEASE - 0.5, LEASE) is None
    second = await db.outbox.claim_due(1.0 + LEASE, LEASE)
    assert second is not None and (second.id, second.attempts) == (post_id, 2)
    assert await db.outbox.settle(first, "sent", 70.0) is False, "the first claim was lost: it cannot settle"
    assert await db.outbox.postpone(first, 500.0) is False
    assert await db.outbox.settle(second, "sent", 70.0) is True


async def test_a_postponed_post_comes_due_again_at_its_new_time(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    await db.outbox.add(Post(battle.id, "turn", {}), now=0.0)
    claimed = await db.outbox.claim_due(0.0, LEASE)
    assert claimed is not None and await db.outbox.postpone(claimed, 20.0) is True
    assert await db.outbox.claim_due(19.0, LEASE) is None
    again = await db.outbox.claim_due(20.0, LEASE)
    assert again is not None and again.attempts == 2


async def test_a_newer_post_with_the_same_key_supersedes_the_owed_one(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    other = await new_battle(name="other")
    old = await db.outbox.add(Post(battle.id, "board", {}, key=f"board:{battle.id}"), now=0.0)
    elsewhere = await db.outbox.add(Post(other.id, "board", {}, key=f"board:{other.id}"), now=0.0)
    new = await db.outbox.add(Post(battle.id, "board", {}, key=f"board:{battle.id}"), now=1.0)
    assert [r.id for r in await db.outbox.owed(battle.id)] == [new]
    superseded = await db.outbox.get(old)
    assert superseded is not None and superseded.outcome == "superseded"
    assert [r.id for r in await db.outbox.owed(other.id)] == [elsewhere]
    assert await db.outbox.newest_of(f"board:{battle.id}") == new


async def test_a_post_being_sent_is_not_superseded_until_it_is_done(db: Database, new_battle: NewBattle) -> None:
    """The edit on its way finishes; the newer row is owed after it, so the newest state is shown."""
    battle = await new_battle()
    key = f"board:{battle.id}"
    await db.outbox.add(Post(battle.id, "board", {}, key=key), now=0.0)
    sending = await db.outbox.claim_due(0.0, LEASE)
    assert sending is not None
    newer = await db.outbox.add(Post(battle.id, "board", {}, key=key), now=1.0)
    assert [r.id for r in await db.outbox.owed(battle.id)] == [sending.id, newer]
    assert await db.outbox.settle(sending, "sent", 2.0) is True
    assert [r.id for r in await db.outbox.owed(battle.id)] == [newer]


async def test_one_edit_settles_the_owed_rows_of_its_key_it_made_current(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    key = f"board:{battle.id}"
    first = await db.outbox.add(Post(battle.id, "board", {}, key=key), now=0.0)
    assert await db.outbox.newest_of(key) == first
    later = await db.outbox.add(Post(battle.id, "board", {}, key=key), now=1.0)
    assert await db.outbox.settle_key(key, first, 2.0) == 0, "the row written after the edit read its state stays"
    assert await db.outbox.settle_key(key, later, 2.0) == 1
    assert await db.outbox.owed(battle.id) == []
    assert await db.outbox.newest_of(key) is None


async def test_posts_are_written_with_the_order_they_follow(
        db: Database, new_battle: NewBattle, make_state: MakeState) -> None:
    battle = await new_battle()
    owed: list[int] = []
    committed = await db.battles.commit_order(
        battle.id, expected_version=battle.version, state=make_state(turn=1),
        event=NewEvent(actor_id=7, kind="move", order_text="move Eva-01 G8", outcome={"ok": True}),
        now=5.0, posts=[Post(battle.id, "turn", {"turn": "r2"}, delay=15.0)], owed=owed)
    [row] = await db.outbox.owed(battle.id)
    assert owed == [row.id] and row.payload == {"turn": "r2"} and row.due_at == 20.0
    assert committed.seq >= 1
    with pytest.raises(StaleVersionError):
        await db.battles.commit_order(
            battle.id, expected_version=battle.version, state=make_state(turn=2),
            event=NewEvent(actor_id=7, kind="move", order_text="move Eva-01 G9", outcome={}),
            now=6.0, posts=[Post(battle.id, "turn", {"turn": "r3"})])
    assert [r.payload for r in await db.outbox.owed(battle.id)] == [{"turn": "r2"}], "a refused order owes nothing"


async def test_a_post_for_a_battle_that_is_gone_is_refused(db: Database) -> None:
    with pytest.raises(BattleNotFound):
        await db.outbox.add(Post(424242, "turn", {}), now=0.0)


async def test_competing_claimers_send_each_post_once(db_target: str, db: Database, new_battle: NewBattle) -> None:
    """Several connections (processes, on PostgreSQL) claim at once; every post goes to exactly one of them."""
    battle = await new_battle()
    ids = {await db.outbox.add(Post(battle.id, "message", {"n": n}), now=float(n)) for n in range(60)}
    others = [await Database.open(db_target) for _ in range(3)]
    claimed: list[list[int]] = [[] for _ in range(len(others) + 1)]

    async def claimer(index: int, source: Database) -> None:
        while (row := await source.outbox.claim_due(1_000.0, LEASE)) is not None:
            claimed[index].append(row.id)
            assert await source.outbox.settle(row, "sent", 1_000.0)

    try:
        await asyncio.gather(*(claimer(i, source) for i, source in enumerate([db, *others])))
    finally:
        for other in others:
            await other.close()
    every_claim = [post_id for claims in claimed for post_id in claims]
    assert sorted(every_claim) == sorted(ids), "each post claimed exactly once"
    assert await db.outbox.owed(battle.id) == []


async def test_releasing_every_lease_makes_half_sent_posts_due_again(db: Database, new_battle: NewBattle) -> None:
    """A restart of the one process of a SQLite file owes again what its last run was sending."""
    battle = await new_battle()
    post_id = await db.outbox.add(Post(battle.id, "turn", {}), now=0.0)
    assert await db.outbox.claim_due(0.0, LEASE) is not None
    assert await db.outbox.release_all() == 1
    again = await db.outbox.claim_due(1.0, LEASE)
    assert again is not None and again.id == post_id


async def test_purging_forgets_only_posts_settled_before_the_time(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    old = await db.outbox.add(Post(battle.id, "turn", {}), now=0.0)
    owed = await db.outbox.add(Post(battle.id, "turn", {"owed": True}), now=0.0)
    claimed = await db.outbox.claim(old, 1.0, LEASE)
    assert claimed is not None and await db.outbox.settle(claimed, "sent", 2.0)
    assert await db.outbox.purge(2.0) == 0, "settled at 2.0, not before"
    assert await db.outbox.purge(3.0) == 1
    assert await db.outbox.get(old) is None
    assert [r.id for r in await db.outbox.owed(battle.id)] == [owed], "owed posts are never purged"


async def test_a_post_owed_once_is_not_owed_twice_while_its_twin_is_owed(db: Database, new_battle: NewBattle) -> None:
    """A ping a stopped process was sending (still leased) and the same ping asked for again are one post."""
    battle = await new_battle()
    key = f"turn:{battle.id}"
    first = await db.outbox.add(Post(battle.id, "turn", {"turn": "r1"}, key=key, once=True), now=0.0)
    sending = await db.outbox.claim_due(0.0, LEASE)
    assert sending is not None and sending.id == first
    assert await db.outbox.add(Post(battle.id, "turn", {"turn": "r1"}, key=key, once=True), now=1.0) == first
    other = await db.outbox.add(Post(battle.id, "turn", {"turn": "r2"}, key=key, once=True), now=2.0)
    assert other != first, "another turn's ping is a post of its own"
    assert [r.id for r in await db.outbox.owed(battle.id)] == [first, other]
    assert await db.outbox.settle(sending, "sent", 3.0)
    again = await db.outbox.add(Post(battle.id, "turn", {"turn": "r1"}, key=key, once=True), now=4.0)
    assert again not in (first, other), "once sent, the same turn may be called again (after an undo)"
