"""Startup recovery reads only the battles whose clock may be out of step, however many and however big the rest."""

from __future__ import annotations

from bot.service import Actor, TableService
from rules import orders as o
from rules.coords import Cell
from storage import BattleRecord, ClockRecord, Database

GM = Actor(user_id=1, guild_id=10, name="gm", manage_guild=True)
NOW = 1_750_000_000.0



async def started(service: TableService, channel: int) -> BattleRecord:
    """Create and start a battle with a unit on each side."""
    record = (await service.create_battle(GM, channel_id=channel, thread_id=None, name=f"B{channel}",
                                          ruleset="strategic-e", width=10, height=10)).record
    for order in (o.AddUnit(name="Eva-01", side="NERV", at=Cell(1, 1), owner=2, stats={"ag": 45}),
                  o.AddUnit(name="Sachiel", side="Angels", at=Cell(8, 8), stats={"ag": 38}), o.Start()):
        record = (await service.execute(GM, record, order, render=False)).record
    return record


def restarted(db: Database) -> TableService:
    """Return the table service of a process started afresh over the same database."""
    return TableService(db, render=False, clock=lambda: NOW)


async def test_battles_in_step_are_not_read_at_startup(db: Database) -> None:
    service = TableService(db, render=False, clock=lambda: NOW)
    records = [await started(service, channel) for channel in (1, 2, 3)]
    fresh = restarted(db)
    assert await db.clocks.unsettled() == []
    assert await fresh.scheduler.recover() == 0
    assert len(fresh.cache) == 0  # no battle was decoded
    # A stop between committing an order and starting its turn's clock: only that battle is read again.
    await db.clocks.save(ClockRecord(battle_id=records[1].id), timers=[])
    fresh = restarted(db)
    assert await db.clocks.unsettled() == [records[1].id]
    assert await fresh.scheduler.recover() == 1
    assert [fresh.cache.latest(r.id) is not None for r in records] == [False, True, False]
    assert (await db.clocks.get(records[1].id)).turn_key is not None
    assert await db.clocks.unsettled() == []


async def test_a_battle_whose_turn_is_not_known_is_read_and_left_as_it_is(db: Database) -> None:
    """After an undo the stored turn is not known: startup reads that battle (until its next order), finds its clock in step, and leaves it."""
    service = TableService(db, render=False, clock=lambda: NOW)
    record = await started(service, 1)
    moved = await service.execute(Actor(user_id=2, guild_id=10, name="p"), record,
                                  o.Move(unit="Eva-01", to=Cell(2, 2), mode="half"), render=False)
    clock_before = await db.clocks.get(record.id)
    await service.undo(GM, moved.record)
    assert await db.clocks.unsettled() == [record.id]
    fresh = restarted(db)
    assert await fresh.scheduler.recover() == 0
    assert await db.clocks.get(record.id) == clock_before
