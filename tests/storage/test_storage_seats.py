"""Freed seats and seat rules on both backends: a seat is taken once, and goes with its battle."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from storage import BattleNotFound, Database, SeatRecord

if TYPE_CHECKING:
    from tests.storage.conftest import NewBattle


async def test_a_seat_is_taken_once_and_freed_again_anew(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    freed = SeatRecord(battle_id=battle.id, user_id=5, units=("u1", "u2"), sides="NERV", released_by=5,
                       released_at=10.0)
    await db.seats.release(freed)
    assert await db.seats.get(battle.id, 5) == freed
    assert await db.seats.ask(battle.id, 5, candidate=7)
    assert not await db.seats.ask(battle.id, 5, candidate=8)  # asked already: the GM decides
    assert await db.seats.take(battle.id, 5, 7, 20.0)
    assert not await db.seats.take(battle.id, 5, 8, 21.0)
    seat = await db.seats.get(battle.id, 5)
    assert seat is not None and (seat.status, seat.taken_by, seat.taken_at, seat.candidate) == ("taken", 7, 20.0, 7)
    assert not await db.seats.close(battle.id, 5)
    await db.seats.release(SeatRecord(battle.id, 5, ("u1",), "NERV", released_by=1, released_at=30.0))
    again = await db.seats.get(battle.id, 5)
    assert again is not None and (again.status, again.taken_by, again.units) == ("open", None, ("u1",))
    assert await db.seats.close(battle.id, 5)
    assert [s.status for s in await db.seats.of_battle(battle.id)] == ["closed"]


async def test_seat_rules_default_off_and_go_with_the_battle(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    assert not await db.seats.needs_approval(battle.id)
    await db.seats.set_approval(battle.id, True)
    assert await db.seats.needs_approval(battle.id)
    with pytest.raises(BattleNotFound):
        await db.seats.set_approval(battle.id + 50, True)
    await db.seats.release(SeatRecord(battle.id, 5, ("u1",), "NERV", released_by=5, released_at=1.0))
    assert await db.battles.delete(battle.id)
    assert await db.seats.of_battle(battle.id) == []
    assert not await db.seats.needs_approval(battle.id)


async def test_missed_deadlines_count_in_a_row_and_disorder_is_entered_once(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    assert await db.seats.disorder_after(battle.id) == 2
    await db.seats.set_disorder_after(battle.id, 3)
    assert await db.seats.disorder_after(battle.id) == 3
    assert not await db.seats.needs_approval(battle.id)  # one setting leaves the other as it was
    assert await db.seats.came_back(battle.id, 5) is None
    assert (await db.seats.missed(battle.id, 5)).missed == 1
    second = await db.seats.missed(battle.id, 5)
    assert (second.missed, second.missed_total, second.disorder_since) == (2, 2, None)
    assert await db.seats.fall_into_disorder(battle.id, 5, 40.0)
    assert not await db.seats.fall_into_disorder(battle.id, 5, 41.0)
    was = await db.seats.came_back(battle.id, 5)
    assert was is not None and (was.missed, was.disorder_since) == (2, 40.0)
    now = await db.seats.absence(battle.id, 5)
    assert (now.missed, now.missed_total, now.disorder_since) == (0, 2, None)
    assert await db.seats.came_back(battle.id, 5) is None
    assert [a.user_id for a in await db.seats.absences(battle.id)] == [5]
    with pytest.raises(BattleNotFound):
        await db.seats.missed(battle.id + 50, 5)
