"""Battles: create/get/commit round trips, optimistic versioning, lookups, concurrency."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import pytest

from storage import BattleNotFound, BattleRecord, BattleSummary, Database, NewEvent, StaleVersionError
from tests.storage.backends import allow_battle_updates, refuse_battle_updates

if TYPE_CHECKING:
    from tests.storage.conftest import MakeState, NewBattle

MOVE = NewEvent(actor_id=7, kind="move", order_text="move Eva-01 G8", outcome={"path": ["G7", "G8"]})


async def test_create_and_get_round_trip(db: Database, new_battle: NewBattle) -> None:
    state = {
        "schema_version": 2,
        "name": 'Ünïcode ☂ and "quotes" ; DROP TABLE battles; --',
        "snowflake": 2**63 - 1,
        "ratio": 0.1 + 0.2,
        "nested": {"grid": [[None, True, False], [1, -2, 3.5]], "empty": {}},
    }
    created = await new_battle(state=state, thread_id=300, now=12.5)
    assert created.version == 1
    assert created.status == "setup"
    assert created.state == state
    assert created.created_at == created.updated_at == 12.5

    loaded = await db.battles.get(created.id)
    assert loaded == created
    assert loaded is not None and loaded.state["schema_version"] == 2

    events = await db.events.list(created.id, limit=10)
    assert [(e.seq, e.kind, e.order_text, e.outcome) for e in events] == [(1, "create", "create", None)]


async def test_get_missing_battle_is_none(db: Database) -> None:
    assert await db.battles.get(12345) is None


async def test_commit_round_trip(db: Database, new_battle: NewBattle, make_state: MakeState) -> None:
    battle = await new_battle()
    new_state = make_state(turn=1, smoke=["G7"])
    committed = await db.battles.commit(
        battle.id, expected_version=1, state=new_state, status="active", event=MOVE, now=2_000.0
    )
    assert committed.version == 2
    assert committed.status == "active"
    assert committed.updated_at == 2_000.0
    assert committed.created_at == battle.created_at
    assert committed.state == new_state
    assert await db.battles.get(battle.id) == committed

    event = await db.events.get(battle.id, 2)
    assert event is not None
    assert (event.actor_id, event.kind, event.order_text, event.outcome) == (
        7,
        "move",
        "move Eva-01 G8",
        {"path": ["G7", "G8"]},
    )
    assert (event.hidden, event.undone, event.created_at) == (False, False, 2_000.0)


async def test_commit_keeps_status_when_none(
    db: Database, new_battle: NewBattle, make_state: MakeState
) -> None:
    battle = await new_battle(status="active")
    committed = await db.battles.commit(
        battle.id, expected_version=1, state=make_state(1), event=MOVE, now=1.0
    )
    assert committed.status == "active"


async def test_stale_version_raises_and_writes_nothing(
    db: Database, new_battle: NewBattle, make_state: MakeState
) -> None:
    battle = await new_battle()
    current = await db.battles.commit(battle.id, expected_version=1, state=make_state(1), event=MOVE, now=2.0)
    events_before = await db.events.list(current.id, limit=100)

    with pytest.raises(StaleVersionError) as info:
        await db.battles.commit(
            battle.id, expected_version=1, state=make_state(99), status="ended", event=MOVE, now=3.0
        )
    assert (info.value.expected, info.value.actual) == (1, 2)

    assert await db.battles.get(battle.id) == current
    assert await db.events.list(current.id, limit=100) == events_before


async def test_commit_to_a_missing_battle(db: Database, make_state: MakeState) -> None:
    with pytest.raises(BattleNotFound):
        await db.battles.commit(999, expected_version=1, state=make_state(), event=MOVE, now=1.0)


async def test_commit_rejects_reserved_kinds_and_bad_status(
    db: Database, new_battle: NewBattle, make_state: MakeState
) -> None:
    battle = await new_battle()
    for kind in ("create", "undo"):
        with pytest.raises(ValueError, match="storage layer"):
            await db.battles.commit(
                battle.id,
                expected_version=1,
                state=make_state(),
                event=NewEvent(1, kind, kind, None),
                now=1.0,
            )
    with pytest.raises(ValueError, match="status"):
        await db.battles.commit(
            battle.id,
            expected_version=1,
            state=make_state(),
            status="paused",  # type: ignore[arg-type]
            event=MOVE,
            now=1.0,
        )
    assert await db.battles.get(battle.id) == battle


async def test_unserialisable_state_fails_before_writing(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    with pytest.raises(TypeError):
        await db.battles.commit(battle.id, expected_version=1, state={"bad": object()}, event=MOVE, now=1.0)
    assert await db.battles.get(battle.id) == battle


async def test_failure_inside_the_transaction_rolls_everything_back(
    db: Database, new_battle: NewBattle, make_state: MakeState
) -> None:
    battle = await new_battle()
    # The event row is written before the battle row is updated; making the update fail
    # proves the already-inserted event is rolled back with it.
    refused = await refuse_battle_updates(db)
    with pytest.raises(refused, match="refused"):
        await db.battles.commit(battle.id, expected_version=1, state=make_state(5), event=MOVE, now=2.0)
    assert await db.events.count(battle.id) == 1
    assert await db.battles.get(battle.id) == battle

    await allow_battle_updates(db)
    committed = await db.battles.commit(
        battle.id, expected_version=1, state=make_state(5), event=MOVE, now=2.0
    )
    assert committed.version == 2
    assert await db.events.count(battle.id) == 2


async def test_two_concurrent_commits_on_one_version_exactly_one_wins(
    db: Database, new_battle: NewBattle, make_state: MakeState
) -> None:
    battle = await new_battle()
    states = [make_state(turn=1, by="alice"), make_state(turn=1, by="bob")]
    results = await asyncio.gather(
        *(
            db.battles.commit(battle.id, expected_version=1, state=state, event=MOVE, now=2.0)
            for state in states
        ),
        return_exceptions=True,
    )
    winners = [r for r in results if isinstance(r, BattleRecord)]
    losers = [r for r in results if isinstance(r, StaleVersionError)]
    assert len(winners) == 1 and len(losers) == 1
    loaded = await db.battles.get(battle.id)
    assert loaded is not None
    assert loaded.version == 2
    assert loaded.state == winners[0].state
    assert await db.events.count(battle.id) == 2


async def test_many_concurrent_writers_on_different_battles_all_land(
    db: Database, new_battle: NewBattle, make_state: MakeState
) -> None:
    battles = [await new_battle(channel_id=500 + i, name=f"b{i}") for i in range(20)]
    rounds = 15

    async def play(battle: BattleRecord) -> None:
        version = battle.version
        for turn in range(1, rounds + 1):
            record = await db.battles.commit(
                battle.id,
                expected_version=version,
                state=make_state(turn, battle=battle.id),
                event=NewEvent(1, "move", f"move {turn}", {"turn": turn}),
                now=float(turn),
            )
            version = record.version

    await asyncio.gather(*(play(b) for b in battles))
    for battle in battles:
        loaded = await db.battles.get(battle.id)
        assert loaded is not None
        assert loaded.version == rounds + 1
        assert loaded.state == make_state(rounds, battle=battle.id)
        assert await db.events.count(battle.id) == rounds + 1


async def test_contended_writers_with_retry_lose_no_update(
    db: Database, new_battle: NewBattle, make_state: MakeState
) -> None:
    battle = await new_battle(state=make_state(0, counter=0))
    writers, each = 8, 10

    async def bump() -> int:
        retries = 0
        for _ in range(each):
            while True:
                loaded = await db.battles.get(battle.id)
                assert loaded is not None
                state = dict(loaded.state, counter=loaded.state["counter"] + 1)
                try:
                    await db.battles.commit(
                        battle.id, expected_version=loaded.version, state=state, event=MOVE, now=1.0
                    )
                    break
                except StaleVersionError:
                    retries += 1
        return retries

    await asyncio.gather(*(bump() for _ in range(writers)))
    loaded = await db.battles.get(battle.id)
    assert loaded is not None
    assert loaded.state["counter"] == writers * each
    assert loaded.version == writers * each + 1


async def test_in_channel_finds_the_newest_open_battle(db: Database, new_battle: NewBattle) -> None:
    old = await new_battle(channel_id=10, name="old")
    newer = await new_battle(channel_id=10, name="newer")
    ended = await new_battle(channel_id=10, name="ended", status="ended")
    threaded = await new_battle(channel_id=11, thread_id=12, name="threaded")
    await new_battle(guild_id=999, channel_id=13, name="elsewhere")

    found = await db.battles.in_channel(100, 10)
    assert found is not None and found.id == newer.id and found.state == newer.state
    assert ended.id > newer.id > old.id

    by_thread = await db.battles.in_channel(100, 12)
    by_parent = await db.battles.in_channel(100, 11)
    assert by_thread is not None and by_thread.id == threaded.id
    assert by_parent is not None and by_parent.id == threaded.id

    assert await db.battles.in_channel(100, 13) is None
    assert await db.battles.in_channel(999, 10) is None


async def test_list_for_guild(db: Database, new_battle: NewBattle, make_state: MakeState) -> None:
    first = await new_battle(name="first", now=1.0)
    second = await new_battle(name="second", now=2.0)
    ended = await new_battle(name="ended", status="ended", now=3.0)
    await new_battle(guild_id=5, name="other guild")
    # Touching the first battle makes it the most recently changed.
    await db.battles.commit(first.id, expected_version=1, state=make_state(1), event=MOVE, now=4.0)

    open_battles = await db.battles.list_for_guild(100)
    assert [b.name for b in open_battles] == ["first", "second"]
    assert all(isinstance(b, BattleSummary) for b in open_battles)
    assert open_battles[0].version == 2

    every = await db.battles.list_for_guild(100, include_ended=True)
    assert [b.id for b in every] == [first.id, ended.id, second.id]
    assert await db.battles.list_for_guild(12345) == []


async def test_set_channel_moves_the_battle(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle(channel_id=10)
    await db.battles.set_channel(battle.id, channel_id=20, thread_id=21)
    assert await db.battles.in_channel(100, 10) is None
    moved = await db.battles.in_channel(100, 21)
    assert moved is not None and (moved.channel_id, moved.thread_id) == (20, 21)
    assert moved.version == battle.version
    with pytest.raises(BattleNotFound):
        await db.battles.set_channel(9999, channel_id=1, thread_id=None)


async def test_delete_cascades_and_count(db: Database, new_battle: NewBattle, make_state: MakeState) -> None:
    keep = await new_battle(name="keep")
    doomed = await new_battle(name="doomed")
    await db.battles.commit(doomed.id, expected_version=1, state=make_state(1), event=MOVE, now=2.0)
    await db.timers.schedule(doomed.id, "deadline", 10.0, {"turn": 1})
    await db.messages.set(doomed.id, "status_board", 200, 300)
    assert await db.battles.count() == 2

    assert await db.battles.delete(doomed.id) is True
    assert await db.battles.delete(doomed.id) is False
    assert await db.battles.count() == 1
    assert await db.battles.get(doomed.id) is None
    assert await db.events.count(doomed.id) == 0
    assert await db.timers.pending(doomed.id) == []
    assert await db.timers.due(100.0) == []
    assert await db.messages.get(doomed.id, "status_board") is None
    assert await db.battles.get(keep.id) == keep

    # A deleted battle's id is never reused: old buttons cannot reach a new battle.
    replacement = await new_battle(name="replacement")
    assert replacement.id > doomed.id
