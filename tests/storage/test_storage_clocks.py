"""Turn clocks: defaults, saving with timers in one transaction, cascade, and the helpers recovery needs."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import pytest

from storage import BattleNotFound, ClockRecord, Database, NewEvent, NewTimer

if TYPE_CHECKING:
    from tests.storage.conftest import MakeState, NewBattle


async def test_a_battle_without_a_clock_gets_the_defaults(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    clock = await db.clocks.get(battle.id)
    assert clock == ClockRecord(battle_id=battle.id)
    assert (clock.deadline, clock.policy, clock.reminders) == (86_400.0, "wait", ("50%", "1h"))
    assert not clock.paused and clock.turn_key is None


async def test_save_round_trips_every_field(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    clock = ClockRecord(battle_id=battle.id, deadline=3600.0, policy="default", reminders=("25%", "10m"),
                        turn_key="2|side|NERV", turn_started=100.0, due_at=3700.0, paused_at=200.0,
                        remaining=3500.0, expired_at=None)
    await db.clocks.save(clock)
    assert await db.clocks.get(battle.id) == clock


async def test_save_with_timers_replaces_only_pending_turn_timers(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    other = await new_battle(name="other")
    fired = await db.timers.schedule(battle.id, "reminder", 5.0, {"turn": "old"})
    await db.timers.mark_fired(fired, 6.0)
    stale = await db.timers.schedule(battle.id, "deadline", 50.0, {"turn": "old"})
    unrelated = await db.timers.schedule(battle.id, "backup", 60.0)
    theirs = await db.timers.schedule(other.id, "deadline", 70.0)

    clock = ClockRecord(battle_id=battle.id, turn_key="1|side|A", due_at=500.0)
    ids = await db.clocks.save(clock, timers=[NewTimer("deadline", 500.0, {"turn": "1|side|A"}),
                                              NewTimer("reminder", 250.0, {"turn": "1|side|A"})])

    pending = await db.timers.pending(battle.id)
    assert [t.id for t in pending] == [unrelated, ids[1], ids[0]]
    assert await db.timers.get(stale) is None
    assert (await db.timers.get(fired)) is not None  # history stays
    assert [t.id for t in await db.timers.pending(other.id)] == [theirs]


async def test_save_without_timers_leaves_them_alone(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    timer = await db.timers.schedule(battle.id, "deadline", 50.0)
    await db.clocks.save(ClockRecord(battle_id=battle.id, policy="hold"))
    assert [t.id for t in await db.timers.pending(battle.id)] == [timer]
    await db.clocks.save(ClockRecord(battle_id=battle.id), timers=[])
    assert await db.timers.pending(battle.id) == []


async def test_save_refuses_nonsense(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    with pytest.raises(BattleNotFound):
        await db.clocks.save(ClockRecord(battle_id=9999))
    with pytest.raises(ValueError, match="policy"):
        await db.clocks.save(replace(ClockRecord(battle_id=battle.id), policy="panic"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="deadline"):
        await db.clocks.save(ClockRecord(battle_id=battle.id, deadline=0))
    with pytest.raises(ValueError, match="timers"):
        await db.clocks.save(ClockRecord(battle_id=battle.id), timers=[NewTimer("backup", 1.0, {})])
    assert await db.timers.pending(battle.id) == []


async def test_a_deleted_battle_takes_its_clock_along(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    await db.clocks.save(ClockRecord(battle_id=battle.id, deadline=60.0))
    await db.battles.delete(battle.id)
    assert await db.clocks.get(battle.id) == ClockRecord(battle_id=battle.id)


async def test_clock_survives_reopening(db_target: str, new_battle: NewBattle, db: Database) -> None:
    battle = await new_battle()
    await db.clocks.save(ClockRecord(battle_id=battle.id, deadline=120.0, reminders=()),
                         timers=[NewTimer("deadline", 99.0, {"turn": "t"})])
    await db.close()
    async with await Database.open(db_target) as again:
        assert (await again.clocks.get(battle.id)).deadline == 120.0
        assert (await again.clocks.get(battle.id)).reminders == ()
        assert [t.payload for t in await again.timers.due(100.0)] == [{"turn": "t"}]


async def test_active_ids_lists_only_active_battles(db: Database, new_battle: NewBattle) -> None:
    setup = await new_battle(name="setup")
    active = await new_battle(name="active", status="active")
    ended = await new_battle(name="ended", status="ended")
    assert await db.battles.active_ids() == [active.id]
    assert setup.id not in await db.battles.active_ids() and ended.id not in await db.battles.active_ids()


async def test_initial_state_and_latest_seq(db: Database, new_battle: NewBattle, make_state: MakeState) -> None:
    battle = await new_battle(state=make_state(turn=0))
    assert await db.events.initial_state(battle.id) is None
    assert await db.events.latest_seq(battle.id) == 1
    current = battle
    for turn in (1, 2):
        current = await db.battles.commit(
            current.id, expected_version=current.version, state=make_state(turn=turn),
            event=NewEvent(actor_id=1, kind="move", order_text=f"move {turn}", outcome={}), now=float(turn),
        )
    await db.battles.undo(current.id, expected_version=current.version, count=1, actor_id=1, now=3.0)
    assert await db.events.latest_seq(battle.id) == 4
    assert await db.events.initial_state(battle.id) == make_state(turn=0)
    assert await db.events.latest_seq(12345) == 0


async def test_overdue_finds_running_turns_whose_deadline_was_claimed_but_never_applied(
    db: Database, new_battle: NewBattle
) -> None:
    lost = await new_battle(name="lost", status="active")
    scheduled = await new_battle(name="scheduled", status="active")
    expired = await new_battle(name="expired", status="active")
    paused = await new_battle(name="paused", status="active")
    setup = await new_battle(name="setup")
    later = await new_battle(name="later", status="active")
    running = {"turn_key": "1|side|A", "turn_started": 0.0}
    [claimed] = await db.clocks.save(ClockRecord(battle_id=lost.id, due_at=100.0, **running),  # type: ignore[arg-type]
                                     timers=[NewTimer("deadline", 100.0, {"turn": "1|side|A"})])
    await db.timers.mark_fired(claimed, 100.0)
    await db.clocks.save(ClockRecord(battle_id=scheduled.id, due_at=100.0, **running),  # type: ignore[arg-type]
                         timers=[NewTimer("deadline", 100.0, {"turn": "1|side|A"})])
    await db.clocks.save(ClockRecord(battle_id=expired.id, due_at=100.0, expired_at=101.0, **running), timers=[])  # type: ignore[arg-type]
    await db.clocks.save(ClockRecord(battle_id=paused.id, due_at=100.0, paused_at=90.0, **running), timers=[])  # type: ignore[arg-type]
    await db.clocks.save(ClockRecord(battle_id=setup.id, due_at=100.0, **running), timers=[])  # type: ignore[arg-type]
    await db.clocks.save(ClockRecord(battle_id=later.id, due_at=500.0, **running), timers=[])  # type: ignore[arg-type]
    assert await db.clocks.overdue(200.0) == [lost.id]
    assert await db.clocks.overdue(100.0) == []
