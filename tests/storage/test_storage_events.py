"""The event log: newest first with paging, hidden events, lookups."""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage import Database, NewEvent

if TYPE_CHECKING:
    from tests.storage.conftest import MakeState, NewBattle


async def committed_battle(db: Database, new_battle: NewBattle, make_state: MakeState, orders: int) -> int:
    battle = await new_battle()
    version = battle.version
    for n in range(2, orders + 2):
        record = await db.battles.commit(
            battle.id,
            expected_version=version,
            state=make_state(n),
            # Every third order is a hidden GM move.
            event=NewEvent(
                actor_id=n, kind="move", order_text=f"move {n}", outcome={"n": n}, hidden=n % 3 == 0
            ),
            now=float(n),
        )
        version = record.version
    return battle.id


async def test_events_newest_first_with_paging(
    db: Database, new_battle: NewBattle, make_state: MakeState
) -> None:
    battle_id = await committed_battle(db, new_battle, make_state, orders=11)  # seqs 1..12
    assert await db.events.count(battle_id) == 12

    pages = [await db.events.list(battle_id, limit=5, offset=offset) for offset in (0, 5, 10, 15)]
    assert [[e.seq for e in page] for page in pages] == [[12, 11, 10, 9, 8], [7, 6, 5, 4, 3], [2, 1], []]
    assert pages[0][0].order_text == "move 12"
    assert pages[0][0].outcome == {"n": 12}
    assert pages[0][0].created_at == 12.0

    oldest = await db.events.list(battle_id, limit=3, newest_first=False)
    assert [e.seq for e in oldest] == [1, 2, 3]
    assert oldest[0].kind == "create"


async def test_hidden_events_can_be_left_out(
    db: Database, new_battle: NewBattle, make_state: MakeState
) -> None:
    battle_id = await committed_battle(db, new_battle, make_state, orders=8)  # seqs 1..9, hidden: 3, 6, 9
    visible = await db.events.list(battle_id, limit=100, include_hidden=False)
    assert [e.seq for e in visible] == [8, 7, 5, 4, 2, 1]
    assert await db.events.count(battle_id, include_hidden=False) == 6

    page = await db.events.list(battle_id, limit=2, offset=2, include_hidden=False)
    assert [e.seq for e in page] == [5, 4]

    assert await db.events.set_hidden(battle_id, 6, False) is True
    assert await db.events.set_hidden(battle_id, 2, True) is True
    assert await db.events.set_hidden(battle_id, 999, True) is False
    visible = await db.events.list(battle_id, limit=100, include_hidden=False)
    assert [e.seq for e in visible] == [8, 7, 6, 5, 4, 1]
    event = await db.events.get(battle_id, 2)
    assert event is not None and event.hidden


async def test_undone_events_can_be_left_out(
    db: Database, new_battle: NewBattle, make_state: MakeState
) -> None:
    battle_id = await committed_battle(db, new_battle, make_state, orders=3)  # seqs 1..4
    await db.battles.undo(battle_id, expected_version=4, count=2, actor_id=1, now=9.0)  # seq 5 undoes 4 and 3
    live = await db.events.list(battle_id, limit=100, include_undone=False)
    assert [e.seq for e in live] == [5, 2, 1]


async def test_get_missing_event(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    assert await db.events.get(battle.id, 2) is None
    assert await db.events.get(battle.id + 1, 1) is None
    assert await db.events.list(battle.id + 1, limit=10) == []


async def test_revealing_a_hidden_event_gives_the_battle_a_new_version(
    db: Database, new_battle: NewBattle, make_state: MakeState
) -> None:
    battle_id = await committed_battle(db, new_battle, make_state, orders=8)  # seqs 1..9, hidden: 3, 6, 9
    before = await db.battles.get(battle_id)
    assert before is not None
    assert await db.battles.reveal(battle_id, 6, now=100.0) == before.version + 1
    after = await db.battles.get(battle_id)
    assert after is not None and after.version == before.version + 1 and after.state == before.state
    assert [e.seq for e in await db.events.list(battle_id, limit=100, include_hidden=False)] == [8, 7, 6, 5, 4, 2, 1]
    # An event that is not hidden, or not there, changes nothing.
    assert await db.battles.reveal(battle_id, 6, now=101.0) is None
    assert await db.battles.reveal(battle_id, 999, now=101.0) is None
    still = await db.battles.get(battle_id)
    assert still is not None and still.version == after.version
