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
