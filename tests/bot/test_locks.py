"""Battle locks: re-entrant for their holder, exclusive for everyone else, across processes on PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.locks import BattleLocks
from bot.service import Actor, TableService
from rules import orders as o
from storage import Database

GM = Actor(user_id=1, guild_id=10, name="gm", manage_guild=True)


@pytest.fixture
async def two_processes(postgres_url: str) -> AsyncIterator[tuple[TableService, TableService]]:
    """Two table services, each with its own connections to one database, as two bot processes have."""
    first, second = await Database.open(postgres_url), await Database.open(postgres_url)
    try:
        yield TableService(first, render=False), TableService(second, render=False)
    finally:
        await first.close()
        await second.close()


async def finishes(awaitable: asyncio.Future[None] | asyncio.Task[None], within: float = 0.3) -> bool:
    """Return whether the awaitable completes within a short while (without cancelling it)."""
    done, _ = await asyncio.wait({awaitable}, timeout=within)
    return bool(done)


async def advisory_locks(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"))
    finally:
        await conn.close()


async def test_the_holder_may_take_its_lock_again_others_wait() -> None:
    locks = BattleLocks()
    order: list[str] = []

    async def other(name: str) -> None:
        async with locks.get(7):
            order.append(name)

    async with locks.get(7):
        async with locks.get(7):
            assert locks.held(7)
            # A task the holder starts is someone else: it waits like anyone.
            child = asyncio.create_task(other("child"))
            assert not await finishes(child, 0.05)
        assert locks.held(7) and not child.done()
        order.append("holder")
    await child
    assert order == ["holder", "child"]
    assert not locks.held(7) and locks._entries == {}


async def test_a_battle_lock_excludes_another_process_and_the_board_lock_does_not(
    two_processes: tuple[TableService, TableService], postgres_url: str
) -> None:
    first, second = two_processes
    async with first.locks.get(5):
        async with first.locks.get(5):
            assert await advisory_locks(postgres_url) == 1  # taken once, however deep the holder nests
        waiting = asyncio.ensure_future(second.locks.get(5).__aenter__())
        assert not await finishes(waiting)
        # Another battle, and this battle's status board, are not held up.
        async with second.locks.get(6), second.board_locks.get(5):
            pass
    assert await finishes(waiting, 5.0)
    await second.locks.release(5)
    assert await advisory_locks(postgres_url) == 0


async def test_orders_from_two_processes_on_one_battle_all_land_in_turn(
    two_processes: tuple[TableService, TableService],
) -> None:
    """Without the lock across processes, one of two orders loaded at the same version would be refused."""
    first, second = two_processes
    created = await first.create_battle(GM, channel_id=20, thread_id=None, name="Shared", ruleset="strategic-e",
                                        width=8, height=8)
    record = created.record

    async def rolls(service: TableService, who: str) -> None:
        for n in range(8):
            await service.execute(GM, record, o.Roll(dice="1d6", purpose=f"{who}{n}"), render=False)

    await asyncio.gather(rolls(first, "a"), rolls(second, "b"))
    events = await first.db.events.list(record.id, limit=100, newest_first=False)
    purposes = [e.order_text.rsplit("purpose:", 1)[-1] for e in events if e.kind == "roll"]
    assert sorted(purposes) == sorted([f"a{n}" for n in range(8)] + [f"b{n}" for n in range(8)])
    assert [e.seq for e in events] == list(range(1, 18))
    final = await second.db.battles.get(record.id)
    assert final is not None and final.version == 17
