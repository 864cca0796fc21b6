"""Takebacks: a player takes back their own last order alone while nothing was learnt from it, else asks."""

from __future__ import annotations

import pytest

from bot.clock import due_now
from bot.service import Actor
from bot.takeback import answer
from rules.battle import Battle
from rules.errors import IllegalOrderError
from rules.replay import same_state
from storage import BattleRecord
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.test_combat_action import setup as combat_action_setup
from tests.e2e.test_m42_battle import farmstead
from tests.e2e.turn_helpers import end_turn, event_kinds, new_since, posted, prompts, stored, stored_battle


async def start(table: Table) -> None:
    """Start the standard battle with carol commanding an Angel, so the Angels have a player to ask."""
    await table.setup_battle()
    await table.slash("unit add", name="Ramiel", side="Angels", at="P12", owner=table.carol, ag=40)
    await table.slash("battle start")


async def takeback_entry(table: Table) -> tuple[str, dict[str, object]]:
    """Return the newest log entry's text and note (a takeback's)."""
    record = await stored(table)
    [newest] = await table.db.events.list(record.id, limit=1)
    assert newest.kind == "undo" and newest.outcome is not None
    return newest.order_text, newest.outcome


def cell_of(battle: Battle, unit: str) -> str:
    """Return the square a unit stands on."""
    return str(battle.unit(unit).cell)


async def test_a_move_is_taken_back_alone_with_the_undo_button(table: Table) -> None:
    await start(table)
    before = (await stored(table)).state
    moved = await table.slash("move", user=table.alice, unit="Eva-01", to="D3")
    assert cell_of(await stored_battle(table), "Eva-01") == "D3"
    message = last_message(moved)
    undo = [c for c in message.custom_ids() if c.startswith("bp:undo:")]
    assert len(undo) == 1
    taken = await table.click(message, undo[0], user=table.alice)
    assert "Order taken back" in text_of(taken) and not last_message(taken).ephemeral
    assert "move unit:Eva-01 to:D3" in text_of(taken)
    assert same_state((await stored(table)).state, before)
    text, note = await takeback_entry(table)
    assert text.startswith("takeback of #") and note["kind"] == "takeback"
    assert note["player"] == table.alice.id and note["approved_by"] is None
    assert (await event_kinds(table))[-2:] == [("move", True), ("undo", False)]


async def test_an_order_with_dice_needs_the_other_sides_approval(table: Table) -> None:
    await start(table)
    before = (await stored(table)).state
    act = await table.slash("act", user=table.alice, unit="Eva-01", stat="ag")
    assert "d100" in text_of(act)
    after = (await stored(table)).state
    # With dice rolled the test's reply offers no Undo; /undo asks the other side.
    assert not [c for c in last_message(act).custom_ids() if c.startswith("bp:undo:")]
    asked = await table.slash("undo", user=table.alice)
    message = last_message(asked)
    assert not message.ephemeral and "Takeback asked" in text_of(asked)
    assert "dice were rolled for it" in text_of(asked)
    # Only the other side is asked: carol plays the Angels; bob is alice's own side.
    assert message.pings.users == {table.carol.id}
    assert same_state((await stored(table)).state, after)
    approve = next(c for c in message.custom_ids() if c.endswith(":y"))
    refuse = next(c for c in message.custom_ids() if c.endswith(":n"))

    by_teammate = await table.click(message, approve, user=table.bob)
    assert last_message(by_teammate).ephemeral
    assert "Only a player of another side, or the GM" in text_of(by_teammate)
    by_asker = await table.click(message, approve, user=table.alice)
    assert last_message(by_asker).ephemeral and "cannot answer your own takeback" in text_of(by_asker)
    assert same_state((await stored(table)).state, after)

    refused = await table.click(message, refuse, user=table.carol)
    assert same_state((await stored(table)).state, after)
    # The request closes: its buttons are gone, and an answer arriving anyway (a second process) is refused.
    closed = last_message(refused)
    assert "Refused by carol" in "\n".join(e.get("description", "") for e in closed.embeds)
    assert closed.custom_ids() == []
    record = await stored(table)
    carol = Actor(user_id=table.carol.id, guild_id=record.guild_id, name="carol")
    with pytest.raises(IllegalOrderError, match="already refused"):
        await answer(table.service, carol, record, int(approve.split(":")[3]), True)
    assert same_state((await stored(table)).state, after)

    # Asked again, the same request opens anew; this time carol approves and the test is gone, dice and all.
    asked = await table.slash("undo", user=table.alice)
    message = last_message(asked)
    await table.click(message, next(c for c in message.custom_ids() if c.endswith(":y")), user=table.carol)
    assert same_state((await stored(table)).state, before)
    text, note = await takeback_entry(table)
    assert text.startswith("takeback of #") and note["approved_by"] == table.carol.id
    assert note["player"] == table.alice.id
    record: BattleRecord = await stored(table)
    statuses = [r.status for r in await table.db.takebacks.of_battle(record.id)]
    assert statuses == ["approved"]


async def test_orders_given_since_go_with_it_when_approved_after_a_restart(table: Table) -> None:
    await start(table)
    before = (await stored(table)).state
    await table.slash("move", user=table.alice, unit="Eva-01", to="D3")
    await table.slash("move", user=table.bob, unit="Eva-02", to="D5")
    asked = await table.slash("undo", user=table.alice)
    assert "1 other order was given since" in text_of(asked) and "these 2 orders" in text_of(asked)
    message = last_message(asked)
    await table.restart()
    await table.click(message, next(c for c in message.custom_ids() if c.endswith(":y")), user=table.gm)
    battle = await stored_battle(table)
    assert (cell_of(battle, "Eva-01"), cell_of(battle, "Eva-02")) == ("C3", "C5")
    assert same_state((await stored(table)).state, before)


async def test_a_request_goes_stale_once_the_battle_moves_on(table: Table) -> None:
    await start(table)
    await table.slash("move", user=table.alice, unit="Eva-01", to="D3")
    await table.slash("move", user=table.bob, unit="Eva-02", to="D5")
    asked = await table.slash("undo", user=table.alice)
    message = last_message(asked)
    await table.slash("move", user=table.bob, unit="Eva-02", to="D6")
    version = (await stored(table)).version
    late = await table.click(message, next(c for c in message.custom_ids() if c.endswith(":y")), user=table.carol)
    assert last_message(late).ephemeral and "The battle moved on since this takeback was asked for" in text_of(late)
    assert (await stored(table)).version == version
    record = await stored(table)
    assert [r.status for r in await table.db.takebacks.of_battle(record.id)] == ["stale"]


async def test_undo_without_an_order_of_ones_own_changes_nothing(table: Table) -> None:
    await start(table)
    version = (await stored(table)).version
    none_yet = await table.slash("undo", user=table.carol)
    assert last_message(none_yet).ephemeral
    assert "You have no order among the last" in text_of(none_yet) and "your own last order only" in text_of(none_yet)
    assert (await stored(table)).version == version
    outside = await table.slash("undo", user=table.alice, channel=table.discord.add_channel(table.discord.guild, "x"))
    assert last_message(outside).ephemeral and "There is no battle in this channel" in text_of(outside)


async def test_an_order_answered_and_then_taken_back_still_needs_approval(table: Table) -> None:
    await start(table)
    await table.slash("move", user=table.alice, unit="Eva-01", to="D3")
    after_alice = (await stored(table)).state
    await table.slash("move", user=table.bob, unit="Eva-02", to="D5")
    taken = await table.slash("undo", user=table.bob)
    assert "Order taken back" in text_of(taken)
    assert same_state((await stored(table)).state, after_alice)
    # bob saw alice's move before taking his back: alice now needs the other side's word.
    asked = await table.slash("undo", user=table.alice)
    assert "Takeback asked" in text_of(asked) and "2 other orders were given since" in text_of(asked)
    message = last_message(asked)
    await table.click(message, next(c for c in message.custom_ids() if c.endswith(":y")), user=table.carol)
    assert cell_of(await stored_battle(table), "Eva-01") == "C3"


def undo_of(reply: object) -> list[str]:
    """Return the Undo buttons on an order's reply."""
    return [c for c in last_message(reply).custom_ids() if c.startswith("bp:undo:")]  # type: ignore[arg-type]


async def test_every_system_offers_undo_on_an_order_without_dice_and_none_after_dice(table: Table) -> None:
    # Combat Action: a posture change rolls nothing; pressing Undo stands the trooper up again.
    await combat_action_setup(table)
    before = (await stored(table)).state
    flat = await table.slash("ca posture", user=table.alice, unit="Sgt Vance", posture="flat-down")
    assert "flat_down" in (await stored_battle(table)).unit("Sgt Vance").statuses
    [undo] = undo_of(flat)
    by_other = await table.click(last_message(flat), undo, user=table.bob)
    assert last_message(by_other).ephemeral and "You have no order among the last" in text_of(by_other)
    assert "flat_down" in (await stored_battle(table)).unit("Sgt Vance").statuses, "bob's press took nothing of alice's"
    taken = await table.click(last_message(flat), undo, user=table.alice)
    assert "Order taken back" in text_of(taken) and same_state((await stored(table)).state, before)
    # A shot rolls dice: its reply has no Undo, and /undo asks the other side instead.
    shot = await table.slash("attack", user=table.alice, unit="Trooper Kell", weapon="Rifle", target="Raider Boss")
    assert "`1d6`" in text_of(shot) and undo_of(shot) == []
    asked = await table.slash("undo", user=table.alice)
    assert "Takeback asked" in text_of(asked) and "dice were rolled for it" in text_of(asked)


async def test_an_m42_action_is_taken_back_by_its_undo_button(table: Table) -> None:
    await farmstead(table)
    before = (await stored(table)).state
    woods = await table.slash("action", user=table.alice, unit="Alpha", action="advance", to="G5")
    assert "Advance D5 \u2192 G5" in text_of(woods)
    taken = await table.click(last_message(woods), undo_of(woods)[0], user=table.alice)
    assert "Order taken back" in text_of(taken) and same_state((await stored(table)).state, before)


async def test_a_strategic_turn_end_is_taken_back_by_its_undo_button_but_not_after_dice_or_a_new_turn(
        table: Table) -> None:
    await start(table)
    before = (await stored(table)).state
    ended = await end_turn(table, user=table.alice)
    assert "Eva-01" not in due_now(await stored_battle(table))
    taken = await table.click(last_message(ended), undo_of(ended)[0], user=table.alice)
    assert "Order taken back" in text_of(taken) and same_state((await stored(table)).state, before)
    test = await table.slash("act", user=table.alice, unit="Eva-01", stat="ag")
    assert "d100" in text_of(test) and undo_of(test) == []
    # The turn end that closes NERV's phase has called the Angels already: no Undo, or they would be called twice.
    await end_turn(table, user=table.bob)
    pinged = posted(table)
    closing = await end_turn(table, user=table.alice)
    assert [p for p in prompts(new_since(table, pinged)) if "Angels phase" in p.content]
    assert undo_of(closing) == []

