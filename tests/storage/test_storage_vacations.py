"""Clock hours, banks and vacation time kept with a battle's clock; players' vacations and time zones."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest

from storage import ClockRecord, Database

if TYPE_CHECKING:
    from tests.storage.conftest import NewBattle

DAY = 86_400.0


async def test_clock_hours_banks_and_vacation_time_round_trip(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    assert (await db.clocks.get(battle.id)).vacation_allowance == 14 * DAY
    clock = ClockRecord(battle_id=battle.id, turn_key="1|side|NERV", turn_started=10.0, due_at=500.0,
                        zone="Europe/Berlin", at_minute=1200, skip_weekends=True, quiet=(1320, 480),
                        bank=(3 * DAY, DAY, 5 * DAY), banks={"NERV": 2.5 * DAY, "Angels": 86_400.0}, bank_due=("NERV",),
                        vacation_allowance=7 * DAY, vacation_used={"11": 3600.0}, vacation_turn={"22": 7200.0})
    await db.clocks.save(clock)
    back = await db.clocks.get(battle.id)
    assert back == clock
    assert back.vacation_total(11) == 3600.0 and back.vacation_total(22) == 7200.0 and back.vacation_shift == 7200.0


async def test_a_clock_hour_out_of_the_day_is_refused(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    with pytest.raises(ValueError, match="minutes after midnight"):
        await db.clocks.save(ClockRecord(battle_id=battle.id, at_minute=1440))
    assert (await db.clocks.get(battle.id)).at_minute is None


async def test_vacations_are_kept_listed_and_ended(db: Database) -> None:
    first, clash = await db.vacations.add(1, 7, 100.0, 200.0, now=50.0)
    assert first is not None and clash == []
    refused, clash = await db.vacations.add(1, 7, 150.0, 300.0, now=60.0)
    assert refused is None and [v.id for v in clash] == [first.id]
    elsewhere, _ = await db.vacations.add(2, 7, 150.0, 300.0, now=60.0)
    after, _ = await db.vacations.add(1, 7, 200.0, 300.0, now=60.0)
    assert elsewhere is not None and after is not None, "another server, or right after, is no overlap"
    assert [v.id for v in await db.vacations.of_user(1, 7, 150.0)] == [first.id, after.id]
    assert await db.vacations.end(first, 120.0)
    assert [(v.starts, v.ends) for v in await db.vacations.of_user(1, 7, 110.0)] == [(100.0, 120.0), (200.0, 300.0)]
    assert not await db.vacations.end(first, 130.0), "it had ended already"
    assert await db.vacations.end(after, 130.0), "one not yet begun is dropped"
    assert [v.id for v in await db.vacations.of_user(1, 7, 0.0)] == [first.id]


async def test_two_overlapping_vacations_added_at_once_keep_one(db: Database) -> None:
    results = await asyncio.gather(*(db.vacations.add(3, 9, 100.0 + i, 500.0, now=1.0) for i in range(4)))
    assert sum(1 for added, _ in results if added is not None) == 1
    assert len(await db.vacations.of_user(3, 9, 0.0)) == 1


async def test_a_players_time_zone_is_kept_beside_their_other_settings(db: Database) -> None:
    assert await db.users.get_zone(5) is None
    await db.users.set_notify(5, "dm")
    await db.users.set_zone(5, "America/New_York")
    assert await db.users.get_zone(5) == "America/New_York"
    assert await db.users.get_notify(5) == "dm"
    await db.users.set_zone(5, None)
    assert await db.users.get_zone(5) is None
