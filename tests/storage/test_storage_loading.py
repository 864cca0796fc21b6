"""Loading a battle cheaply: the state parsed only when read, unchanged states not read again, the order's number."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson

from storage import BattleRecord, BattleSummary, Database, NewEvent

if TYPE_CHECKING:
    from tests.storage.conftest import MakeState, NewBattle

MOVE = NewEvent(actor_id=7, kind="move", order_text="move Eva-01 G8", outcome={"path": ["G7", "G8"]})


async def test_a_found_battle_parses_its_state_only_when_read(db: Database, new_battle: NewBattle,
                                                               make_state: MakeState) -> None:
    battle = await new_battle(state=make_state(turn=4), channel_id=77)
    found = await db.battles.in_channel(battle.guild_id, 77)
    assert found is not None
    assert found._state is None  # found by channel: nothing parsed yet
    assert orjson.loads(found.state_text) == make_state(turn=4)
    assert found.state == make_state(turn=4)
    assert found.state is found.state  # parsed once per record


async def test_get_unless_skips_the_state_the_caller_has(db: Database, new_battle: NewBattle,
                                                         make_state: MakeState) -> None:
    battle = await new_battle(state=make_state(turn=1))
    same = await db.battles.get_unless(battle.id, battle.version)
    assert isinstance(same, BattleSummary)
    assert same == battle.summary

    await db.battles.commit(battle.id, expected_version=1, state=make_state(turn=2), event=MOVE, now=5.0)
    newer = await db.battles.get_unless(battle.id, battle.version)
    assert isinstance(newer, BattleRecord)
    assert (newer.version, newer.state) == (2, make_state(turn=2))

    fresh = await db.battles.get_unless(battle.id, None)
    assert isinstance(fresh, BattleRecord)
    assert fresh == await db.battles.get(battle.id)
    assert await db.battles.get_unless(98765, 3) is None
    assert await db.battles.get_unless(98765, None) is None


async def test_commit_order_returns_the_number_the_log_gives_it(db: Database, new_battle: NewBattle,
                                                                make_state: MakeState) -> None:
    battle = await new_battle()
    first = await db.battles.commit_order(battle.id, expected_version=1, state=make_state(turn=1), event=MOVE,
                                          now=2.0)
    second = await db.battles.commit_order(battle.id, expected_version=2, state=make_state(turn=2), event=MOVE,
                                           now=3.0)
    assert (first.seq, second.seq) == (2, 3)  # 1 is the battle's creation
    assert second.seq == await db.events.latest_seq(battle.id)
    assert second.record == await db.battles.get(battle.id)
    assert second.record.state == make_state(turn=2)


def test_a_record_is_rebuilt_from_its_summary_and_text() -> None:
    summary = BattleSummary(1, 2, 3, None, "Hakone", "strategic-e", "active", 4, 1.0, 2.0, 9)
    record = BattleRecord.of(summary, '{"round": 3}')
    assert record.summary == summary
    assert record.state == {"round": 3}
