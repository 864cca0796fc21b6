"""Timers: due ordering, fire-once claims, cancellation, persistence across restarts."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest

from storage import BattleNotFound, Database

if TYPE_CHECKING:
    from tests.storage.conftest import NewBattle


async def test_due_orders_by_time_then_id(db: Database, new_battle: NewBattle) -> None:
    a = await new_battle(name="a")
    b = await new_battle(name="b")
    late = await db.timers.schedule(a.id, "deadline", 300.0, {"turn": 3})
    tie_first = await db.timers.schedule(b.id, "reminder", 200.0)
    early = await db.timers.schedule(b.id, "deadline", 100.0, {"turn": 1})
    tie_second = await db.timers.schedule(a.id, "reminder", 200.0, {"ping": True})
    future = await db.timers.schedule(a.id, "deadline", 10_000.0)

    assert await db.timers.due(50.0) == []
    due = await db.timers.due(300.0)
    assert [t.id for t in due] == [early, tie_first, tie_second, late]
    assert future not in [t.id for t in due]
    assert due[0].payload == {"turn": 1} and due[0].battle_id == b.id and due[0].kind == "deadline"
    assert due[1].payload == {}
    assert all(t.fired_at is None for t in due)
    assert [t.id for t in await db.timers.due(300.0, limit=2)] == [early, tie_first]


async def test_mark_fired_only_once(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    timer = await db.timers.schedule(battle.id, "deadline", 10.0)
    assert await db.timers.mark_fired(timer, 11.0) is True
    assert await db.timers.mark_fired(timer, 12.0) is False
    assert await db.timers.due(100.0) == []
    assert await db.timers.pending(battle.id) == []
    assert await db.timers.mark_fired(987654, 12.0) is False


async def test_cancelled_timers_never_come_due(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    other = await new_battle(name="other")
    await db.timers.schedule(battle.id, "deadline", 10.0)
    reminder = await db.timers.schedule(battle.id, "reminder", 5.0)
    kept = await db.timers.schedule(other.id, "deadline", 7.0)

    assert await db.timers.cancel(battle.id, "deadline") == 1
    assert [t.id for t in await db.timers.due(100.0)] == [reminder, kept]
    assert await db.timers.cancel(battle.id) == 1
    assert await db.timers.cancel(battle.id) == 0
    assert [t.id for t in await db.timers.due(100.0)] == [kept]
    assert await db.timers.mark_fired(reminder, 100.0) is False


async def test_cancel_leaves_fired_history(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    fired = await db.timers.schedule(battle.id, "deadline", 1.0)
    assert await db.timers.mark_fired(fired, 2.0)
    assert await db.timers.cancel(battle.id) == 0


async def test_schedule_with_replace(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    await db.timers.schedule(battle.id, "deadline", 10.0, {"turn": 1})
    reminder = await db.timers.schedule(battle.id, "reminder", 8.0)
    newer = await db.timers.schedule(battle.id, "deadline", 20.0, {"turn": 2}, replace=True)
    pending = await db.timers.pending(battle.id)
    assert [(t.id, t.kind, t.due_at, t.payload) for t in pending] == [
        (reminder, "reminder", 8.0, {}),
        (newer, "deadline", 20.0, {"turn": 2}),
    ]


async def test_schedule_for_a_missing_battle(db: Database) -> None:
    with pytest.raises(BattleNotFound):
        await db.timers.schedule(4242, "deadline", 1.0)


async def test_timers_survive_close_and_reopen(db_target: str) -> None:
    db = await Database.open(db_target)
    battle = await db.battles.create(
        guild_id=1, channel_id=2, thread_id=None, name="n", ruleset="m42", created_by=3, state={}, now=0.0
    )
    fired = await db.timers.schedule(battle.id, "reminder", 5.0)
    cancelled = await db.timers.schedule(battle.id, "poll", 6.0)
    waiting = await db.timers.schedule(battle.id, "deadline", 10.0, {"turn": 4})
    assert await db.timers.mark_fired(fired, 5.5)
    await db.timers.cancel(battle.id, "poll")
    await db.close()

    db = await Database.open(db_target)
    try:
        due = await db.timers.due(60.0)
        assert [(t.id, t.payload) for t in due] == [(waiting, {"turn": 4})]
        assert cancelled not in [t.id for t in due]
        assert await db.timers.mark_fired(fired, 61.0) is False
        assert await db.timers.mark_fired(waiting, 61.0) is True
        assert await db.timers.due(60.0) == []
    finally:
        await db.close()


async def test_claim_due_takes_the_earliest_once(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    late = await db.timers.schedule(battle.id, "deadline", 30.0, {"turn": 2})
    early = await db.timers.schedule(battle.id, "deadline", 10.0, {"turn": 1})
    await db.timers.schedule(battle.id, "deadline", 500.0)

    assert await db.timers.claim_due(5.0) is None
    first = await db.timers.claim_due(40.0)
    assert first is not None and (first.id, first.payload, first.fired_at) == (early, {"turn": 1}, 40.0)
    second = await db.timers.claim_due(40.0)
    assert second is not None and second.id == late
    assert await db.timers.claim_due(40.0) is None
    assert await db.timers.mark_fired(early, 41.0) is False
    assert [t.due_at for t in await db.timers.pending(battle.id)] == [500.0]


async def test_a_reminder_claim_is_a_lease_until_marked_fired(db: Database, new_battle: NewBattle) -> None:
    """A claimed reminder is not fired: if its sender stops, it comes due again when the lease runs out."""
    battle = await new_battle()
    reminder = await db.timers.schedule(battle.id, "reminder", 10.0, {"turn": 1})

    leased = await db.timers.claim_due(20.0, lease_until=320.0)
    assert leased is not None and (leased.id, leased.fired_at, leased.due_at) == (reminder, None, 320.0)
    assert await db.timers.claim_due(319.0) is None  # nobody else takes it while leased
    again = await db.timers.claim_due(320.0, lease_until=620.0)  # the first sender never finished
    assert again is not None and again.id == reminder
    assert await db.timers.postpone(reminder, 700.0) is True
    assert await db.timers.claim_due(650.0) is None
    assert await db.timers.mark_fired(reminder, 701.0) is True
    assert await db.timers.claim_due(10_000.0) is None
    assert await db.timers.postpone(reminder, 900.0) is False  # a fired timer stays fired


async def test_competing_claimers_fire_each_timer_once(db_target: str, db: Database, new_battle: NewBattle) -> None:
    """Several connections (processes, on PostgreSQL) claim at once; every timer goes to exactly one."""
    battle = await new_battle()
    ids = {await db.timers.schedule(battle.id, "reminder", float(n)) for n in range(60)}
    others = [await Database.open(db_target) for _ in range(3)]
    claimed: list[list[int]] = [[] for _ in range(len(others) + 1)]

    async def claimer(index: int, source: Database) -> None:
        while (timer := await source.timers.claim_due(1_000.0)) is not None:
            claimed[index].append(timer.id)

    try:
        await asyncio.gather(*(claimer(i, source) for i, source in enumerate([db, *others])))
    finally:
        for other in others:
            await other.close()
    every_claim = [timer_id for claims in claimed for timer_id in claims]
    assert sorted(every_claim) == sorted(ids)
    assert await db.timers.due(1_000.0) == []
