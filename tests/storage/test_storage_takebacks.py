"""Takeback requests and takebacks in the log, on both backends: one answer settles a request."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from storage import BattleNotFound, Database, NewEvent, TakebackRecord

if TYPE_CHECKING:
    from tests.storage.conftest import MakeState, NewBattle


async def test_a_request_is_settled_once_and_asked_again_anew(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    asked = TakebackRecord(battle_id=battle.id, newest_seq=4, order_seq=3, user_id=11, count=2,
                           reason="dice were rolled for it", asked_at=100.0)
    await db.takebacks.ask(asked)
    assert await db.takebacks.get(battle.id, 4) == asked
    assert await db.takebacks.get(battle.id, 5) is None
    assert await db.takebacks.decide(battle.id, 4, "refused", 22, 110.0)
    # The second answer, from another process say, changes nothing.
    assert not await db.takebacks.decide(battle.id, 4, "approved", 33, 111.0)
    refused = await db.takebacks.get(battle.id, 4)
    assert refused is not None and (refused.status, refused.decided_by, refused.decided_at) == ("refused", 22, 110.0)
    await db.takebacks.ask(TakebackRecord(battle_id=battle.id, newest_seq=4, order_seq=3, user_id=11, count=2,
                                          reason="dice were rolled for it", asked_at=120.0))
    reopened = await db.takebacks.get(battle.id, 4)
    assert reopened is not None and reopened.status == "open" and reopened.decided_by is None
    assert [r.newest_seq for r in await db.takebacks.of_battle(battle.id)] == [4]
    with pytest.raises(ValueError):
        await db.takebacks.decide(battle.id, 4, "open", 22, 130.0)


async def test_requests_go_with_their_battle(db: Database, new_battle: NewBattle) -> None:
    battle = await new_battle()
    await db.takebacks.ask(TakebackRecord(battle.id, 2, 2, 11, 1, "it was a hidden roll", asked_at=1.0))
    with pytest.raises(BattleNotFound):
        await db.takebacks.ask(TakebackRecord(battle.id + 99, 2, 2, 11, 1, "x", asked_at=1.0))
    assert await db.battles.delete(battle.id)
    assert await db.takebacks.of_battle(battle.id) == []


async def test_a_takeback_is_logged_with_its_note_and_the_state_before_is_readable(
        db: Database, new_battle: NewBattle, make_state: MakeState) -> None:
    battle = await new_battle()
    first = make_state(turn=1)
    saved = await db.battles.commit(battle.id, expected_version=battle.version, state=first,
                                    event=NewEvent(actor_id=11, kind="move", order_text="move", outcome=None), now=5.0)
    # Event 1 is the battle's creation, which keeps no state before it; the move is event 2.
    assert await db.events.state_before(battle.id, 2) == battle.state
    assert await db.events.state_before(battle.id, 1) is None
    assert await db.events.state_before(battle.id, 9) is None
    after, undone = await db.battles.undo(battle.id, expected_version=saved.version, count=1, actor_id=11, now=6.0,
                                          text="takeback of #2", note={"kind": "takeback", "player": 11})
    assert [e.seq for e in undone] == [2] and after.state == battle.state
    [logged] = await db.events.list(battle.id, limit=1)
    assert logged.order_text == "takeback of #2"
    assert logged.outcome == {"kind": "takeback", "player": 11, "undone": [2]}
