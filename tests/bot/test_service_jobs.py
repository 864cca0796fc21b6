"""The table service's doors for what the front ends used to read and write themselves: players' mutes, where a
battle posts, who may start battles, seat settings and the log's outcomes, each against a real SQLite file."""

from __future__ import annotations

import pytest

from bot.service import MAX_STALL_AFTER, NEXT_TURN, Actor, BattleRecord, TableService
from rules import orders as o
from rules.errors import GameError, NotAllowedError
from storage import Database

GM = Actor(user_id=1, guild_id=10, name="gm", manage_guild=True)
PLAYER = Actor(user_id=2, guild_id=10, name="player")


async def new_battle(service: TableService) -> BattleRecord:
    """Create a small battle run by GM."""
    created = await service.create_battle(GM, channel_id=5, thread_id=None, name="Doors", ruleset="strategic-e",
                                          width=8, height=8)
    return created.record


async def test_a_mute_of_the_next_turn_lands_on_the_turn_that_calls_the_player(db: Database) -> None:
    service = TableService(db, render=False)
    record = await new_battle(service)
    assert await service.unmute(record.id, PLAYER.user_id) is False, "nothing was muted, so nothing is unmuted"
    # No turn runs before the battle starts, so the mute waits for the next turn that calls the player.
    assert await service.mute_turn(record, service.read_only(record), PLAYER.user_id) == []
    assert (await db.players.get(record.id, PLAYER.user_id)).muted_turn == NEXT_TURN
    # The turn after the mute starts without pinging the player; the mute is now that turn's.
    assert await service.pingable(record.id, "1|side|Blue", [PLAYER.user_id, GM.user_id]) == [GM.user_id]
    assert (await db.players.get(record.id, PLAYER.user_id)).muted_turn == "1|side|Blue"
    assert await service.pingable(record.id, "2|side|Blue", [PLAYER.user_id]) == [PLAYER.user_id]
    assert await service.unmute(record.id, PLAYER.user_id) is True
    assert (await db.players.get(record.id, PLAYER.user_id)).muted_turn is None


async def test_the_stall_threshold_outside_its_range_is_refused_and_changes_nothing(db: Database) -> None:
    service = TableService(db, render=False)
    record = await new_battle(service)
    await service.set_stall_after(record.id, 3)
    for wrong in (-1, MAX_STALL_AFTER + 1):
        with pytest.raises(GameError, match=f"between 1 and {MAX_STALL_AFTER}"):
            await service.set_stall_after(record.id, wrong)
    assert (await service.posting(record.id)).stall_after == 3


async def test_the_gm_hears_of_the_fallback_to_direct_messages_once_until_side_threads_are_turned_on_again(
        db: Database) -> None:
    service = TableService(db, render=False)
    record = await new_battle(service)
    assert await service.first_fallback(record.id) is True
    assert await service.first_fallback(record.id) is False
    threads = {"Blue": {"thread": 77, "members": [1]}}
    await service.set_side_threads(record.id, True, threads)
    assert await service.side_threads_on(record.id)
    assert await service.first_fallback(record.id) is True
    await service.set_side_threads(record.id, False)
    posting = await service.posting(record.id)
    assert not posting.side_threads and posting.threads == threads, "turning them off keeps the threads to reopen"


async def test_a_gm_role_limits_who_may_start_battles(db: Database) -> None:
    service = TableService(db, render=False)
    assert await service.may_start_battles(PLAYER), "with no GM role chosen, anyone may"
    await service.set_gm_role(PLAYER.guild_id, 99)
    assert await service.gm_role(PLAYER.guild_id) == 99
    assert not await service.may_start_battles(PLAYER)
    assert await service.may_start_battles(Actor(user_id=2, guild_id=10, role_ids=frozenset({99})))
    assert await service.may_start_battles(GM), "Manage Server always may"


async def test_only_the_gm_sets_how_seats_are_taken(db: Database) -> None:
    service = TableService(db, render=False)
    record = await new_battle(service)
    with pytest.raises(NotAllowedError, match="set how seats are taken"):
        await service.set_seat_approval(PLAYER, record, True)
    with pytest.raises(NotAllowedError, match="set when civil disorder begins"):
        await service.set_disorder_after(PLAYER, record, 5)
    assert not await db.seats.needs_approval(record.id)
    assert await db.seats.disorder_after(record.id) == 2
    await service.set_seat_approval(GM, record, True)
    await service.set_disorder_after(GM, record, 5)
    assert await db.seats.needs_approval(record.id)
    assert await db.seats.disorder_after(record.id) == 5


async def test_the_outcomes_of_a_kind_come_oldest_first_without_those_taken_back(db: Database) -> None:
    service = TableService(db, render=False)
    record = await new_battle(service)
    purposes = [f"roll {n}" for n in range(60)]  # more than one page of the log
    before = await service.event_count(record)
    for purpose in purposes:
        record = (await service.execute(GM, record, o.Roll(dice="1d6", purpose=purpose), render=False)).record
    await service.undo(GM, record, 1)
    assert await service.event_count(record) == before + 61, "sixty rolls and the undo"
    outcomes = await service.outcomes_of(record, "roll")
    assert [out["rolls"][0]["purpose"] for out in outcomes] == purposes[:-1]
