"""A battle written with its whole log (an import) is one transaction: all of it, undoable, or nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from storage import ClockRecord, Database, LoggedEvent, NewEvent, pack_event

from .conftest import build_state


def logged(count: int) -> list[LoggedEvent]:
    """Return `count` orders, each turning the state one turn further."""
    return [pack_event(NewEvent(7, "move", f"move {turn}", {"turn": turn}), build_state(turn), "active")
            for turn in range(count)]


async def test_a_battle_with_its_log_reads_back_like_one_played_here(db: Database) -> None:
    clock = ClockRecord(battle_id=0, deadline=3600.0, policy="hold", reminders=("10m",))
    record = await db.battles.create(
        guild_id=1, channel_id=2, thread_id=None, name="Imported", ruleset="strategic-e", created_by=9,
        events=logged(3), state=build_state(3), status="active", now=50.0, clock=clock,
    )
    assert record.version == 4 and record.status == "active"
    assert await db.battles.get(record.id) == record
    events = await db.events.list(record.id, limit=10, newest_first=False)
    assert [(e.seq, e.kind, e.actor_id) for e in events] == [(1, "create", 9), (2, "move", 7), (3, "move", 7),
                                                           (4, "move", 7)]
    assert [e.outcome for e in events[1:]] == [{"turn": 0}, {"turn": 1}, {"turn": 2}]
    assert await db.events.initial_state(record.id) == build_state(0)
    saved = await db.clocks.get(record.id)
    assert (saved.deadline, saved.policy, saved.reminders) == (3600.0, "hold", ("10m",))
    undone, _ = await db.battles.undo(record.id, expected_version=4, count=2, actor_id=9, now=60.0)
    assert undone.state == build_state(1), "each logged order keeps the state before it for undo"


async def test_a_failure_late_in_the_write_leaves_nothing_behind(db: Database) -> None:
    # The clock is checked last, inside the transaction, after the battle and its 50 events were inserted.
    broken = replace(ClockRecord(battle_id=0), policy="never")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="policy"):
        await db.battles.create(
            guild_id=1, channel_id=2, thread_id=None, name="Half", ruleset="strategic-e", created_by=9,
            events=logged(50), state=build_state(50), status="active", now=50.0, clock=broken,
        )
    assert await db.battles.count() == 0
    assert await db.battles.in_channel(1, 2) is None
    assert await db.events.count(1) == 0


def test_reserved_kinds_cannot_be_logged() -> None:
    with pytest.raises(ValueError, match="written by the storage layer"):
        pack_event(NewEvent(1, "undo", "undo 1", None), build_state(), "setup")
