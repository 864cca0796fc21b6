"""Undo: restores the exact snapshot from before the orders, counts, and refuses past the start."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from storage import BattleRecord, Database, NewEvent, NothingToUndo, StaleVersionError

if TYPE_CHECKING:
    from tests.storage.conftest import MakeState, NewBattle


def order(n: int) -> NewEvent:
    return NewEvent(actor_id=7, kind="attack", order_text=f"attack {n}", outcome={"rolls": [n, n + 1]})


async def play(db: Database, battle: BattleRecord, states: list[dict[str, object]]) -> BattleRecord:
    current = battle
    for n, state in enumerate(states, start=1):
        current = await db.battles.commit(
            battle.id, expected_version=current.version, state=state, event=order(n), now=100.0 + n
        )
    return current


async def test_undo_one_restores_the_state_before_the_order(
    db: Database, new_battle: NewBattle, make_state: MakeState
) -> None:
    initial = make_state(0, weather="storm")
    battle = await new_battle(state=initial)
    states = [make_state(t, weather="clear" if t % 2 else "storm", hits=list(range(t))) for t in (1, 2, 3)]
    current = await play(db, battle, states)

    restored, undone = await db.battles.undo(
        battle.id, expected_version=current.version, count=1, actor_id=9, now=500.0
    )
    assert restored.state == states[1]
    assert restored.version == current.version + 1
    assert restored.updated_at == 500.0
    assert [e.seq for e in undone] == [4]
    assert all(e.undone for e in undone)
    assert await db.battles.get(battle.id) == restored

    log = await db.events.list(battle.id, limit=1)
    assert (log[0].kind, log[0].order_text, log[0].actor_id, log[0].outcome) == (
        "undo",
        "undo 1",
        9,
        {"undone": [4]},
    )


async def test_undo_several_then_refuse_past_the_start(
    db: Database, new_battle: NewBattle, make_state: MakeState
) -> None:
    initial = make_state(0)
    battle = await new_battle(state=initial)
    current = await play(db, battle, [make_state(t) for t in (1, 2, 3)])

    restored, undone = await db.battles.undo(
        battle.id, expected_version=current.version, count=2, actor_id=9, now=1.0
    )
    assert restored.state == make_state(1)
    assert [e.seq for e in undone] == [4, 3]
    assert (await db.events.list(battle.id, limit=1))[0].order_text == "undo 2"

    before_refusal = await db.battles.get(battle.id)
    events_before = await db.events.list(battle.id, limit=100)
    with pytest.raises(NothingToUndo) as info:
        await db.battles.undo(battle.id, expected_version=restored.version, count=2, actor_id=9, now=2.0)
    assert (info.value.requested, info.value.available) == (2, 1)
    assert await db.battles.get(battle.id) == before_refusal
    assert await db.events.list(battle.id, limit=100) == events_before

    back_to_start, _ = await db.battles.undo(
        battle.id, expected_version=restored.version, count=1, actor_id=9, now=3.0
    )
    assert back_to_start.state == initial
    with pytest.raises(NothingToUndo):
        await db.battles.undo(battle.id, expected_version=back_to_start.version, count=1, actor_id=9, now=4.0)
    assert await db.battles.get(battle.id) == back_to_start


async def test_nothing_to_undo_on_a_new_battle(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    with pytest.raises(NothingToUndo):
        await db.battles.undo(battle.id, expected_version=1, count=1, actor_id=1, now=1.0)
    assert await db.events.count(battle.id) == 1


async def test_undo_skips_already_undone_orders(
    db: Database, new_battle: NewBattle, make_state: MakeState
) -> None:
    battle = await new_battle(state=make_state(0))
    current = await play(db, battle, [make_state(1), make_state(2)])  # seq 2, 3
    current, _ = await db.battles.undo(
        battle.id, expected_version=current.version, count=1, actor_id=1, now=1.0
    )  # seq 4
    current = await db.battles.commit(
        battle.id, expected_version=current.version, state=make_state(30), event=order(3), now=2.0
    )  # seq 5
    assert current.state == make_state(30)

    restored, undone = await db.battles.undo(
        battle.id, expected_version=current.version, count=2, actor_id=1, now=3.0
    )
    # Seq 3 was undone already, so the two most recent live orders are 5 and 2.
    assert [e.seq for e in undone] == [5, 2]
    assert restored.state == make_state(0)
    flags = {e.seq: e.undone for e in await db.events.list(battle.id, limit=100)}
    assert flags == {1: False, 2: True, 3: True, 4: False, 5: True, 6: False}


async def test_undo_restores_status(db: Database, new_battle: NewBattle, make_state: MakeState) -> None:
    battle = await new_battle(state=make_state(0))
    ended = await db.battles.commit(
        battle.id,
        expected_version=1,
        state=make_state(9),
        status="ended",
        event=NewEvent(1, "end", "battle end", None),
        now=2.0,
    )
    assert ended.status == "ended"
    reopened, _ = await db.battles.undo(battle.id, expected_version=2, count=1, actor_id=1, now=3.0)
    assert reopened.status == "setup"
    assert reopened.state == make_state(0)


async def test_undo_with_a_stale_version(db: Database, new_battle: NewBattle, make_state: MakeState) -> None:
    battle = await new_battle()
    current = await play(db, battle, [make_state(1)])
    with pytest.raises(StaleVersionError):
        await db.battles.undo(battle.id, expected_version=current.version - 1, count=1, actor_id=1, now=1.0)
    assert await db.battles.get(battle.id) == current


async def test_undo_count_must_be_positive(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    with pytest.raises(ValueError, match="count"):
        await db.battles.undo(battle.id, expected_version=1, count=0, actor_id=1, now=1.0)
