"""Asked before what cannot be taken back, and safe defaults: ending a battle or a turn, friendly fire, moves."""

from __future__ import annotations

from rules.coords import Cell
from tests.e2e.action_helpers import private, public
from tests.e2e.combat_helpers import RIFLE, add, battle_with, dice, start, stored, stored_battle
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import message_text, new_since, posted, prompts


async def side_battle(table: Table, mode: str = "side") -> None:
    """Start a battle: alice's Eva-01 and bob's Eva-02 (NERV) against the GM's Sachiel."""
    await battle_with(table, mode=mode)
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice, bs=50, ag=40, weapons=[RIFLE])
    await add(table, "Eva-02", "NERV", "C5", owner=table.bob, bs=45, ag=40, weapons=[RIFLE])
    await add(table, "Sachiel", "Angels", "H3", wounds=20, t=40, weapons=[RIFLE])
    await start(table)


async def test_ending_a_battle_asks_and_the_first_confirmation_wins(table: Table) -> None:
    await side_battle(table)
    record = await stored(table)
    refused = await table.slash("battle end", user=table.alice)
    assert last_message(refused).ephemeral and "Only a GM can end the battle" in text_of(refused)

    asked = await table.slash("battle end")
    question = private(asked)
    assert "End Test Battle?" in message_text(question) and question.custom_ids() == [
        f"bp:ok:{record.id}:end", f"bp:no:{record.id}"]
    cancelled = await table.click(question, f"bp:no:{record.id}")
    assert "Cancelled: nothing was changed." in text_of(cancelled) and (await stored(table)).status == "active"

    first = private(await table.gm_slash("gm end"))
    second = private(await table.slash("battle end"))
    ended = await table.click(first, f"bp:ok:{record.id}:end")
    summary = public(ended)
    assert "Confirmed: the battle is over." in text_of(ended) and summary.files
    over = await table.db.battles.get(record.id)
    assert over is not None and over.status == "ended"
    again = await table.click(second, f"bp:ok:{record.id}:end")
    assert last_message(again).ephemeral and "ended" in text_of(again)
    after = await table.db.battles.get(record.id)
    assert after is not None and after.version == over.version
    kinds = [e.kind for e in await table.db.events.list(record.id, limit=100, newest_first=False)]
    assert kinds.count("end") == 1, "two confirmations end the battle once"


async def test_ending_a_turn_with_points_left_asks_once_and_without_them_does_not(table: Table) -> None:
    await side_battle(table)
    record = await stored(table)
    asked = await table.slash("turn end", user=table.alice)
    question = private(asked)
    assert "Eva-01 has **2 AP** left. Unused action points are lost when the turn ends." in message_text(question)
    assert (await stored_battle(table)).turn.done == {}, "nothing ends until confirmed"
    stranger = await table.click(question, f"bp:ok:{record.id}:orders", user=table.alice)
    assert "Eva-01 ends its turn (2 action points unused)." in text_of(stranger)
    assert (await stored_battle(table)).turn.done == {"u1": "ended"}

    await table.slash("move", user=table.bob, unit="Eva-02", to="C7", mode="full")
    done = await stored_battle(table)
    assert done.turn.done.get("u2") == "ended", "with nothing left to do its turn ended by itself"


async def test_a_unit_with_nothing_left_ends_its_turn_and_the_reply_says_so(table: Table) -> None:
    await side_battle(table, mode="initiative")
    battle = await stored_battle(table)
    from rules import turns

    first = turns.name_of(battle, turns.next_due(battle)[0])
    owner = {"Eva-01": table.alice, "Eva-02": table.bob, "Sachiel": table.gm}[first]
    unit = battle.unit(first)
    to = Cell(unit.x, unit.y + 1) if unit.y + 1 < battle.height else Cell(unit.x, unit.y - 1)
    before = posted(table)
    moved = await table.slash("move", user=owner, unit=first, to=str(to), mode="full")
    assert f"{first} has nothing left to do, so its turn ends." in text_of(moved)
    [ping] = prompts(new_since(table, before))
    assert first not in ping.content.split(":")[0], "the next unit by initiative is called"
    assert (await stored_battle(table)).turn.done.get(unit.id) == "ended"


async def test_attacking_an_ally_warns_first(table: Table) -> None:
    await side_battle(table, mode="free")
    record = await stored(table)
    asked = await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Pallet Rifle", target="Eva-02")
    question = private(asked)
    assert "Attack your own side?" in message_text(question) and "**Eva-02**, on NERV's side" in message_text(question)
    assert (await stored(table)).version == record.version
    square = private(await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Pallet Rifle", at="C5"))
    assert "**Eva-02**" in message_text(square), "a square holding allies warns too"
    dice(table, 14, 6, 4)
    fired = await table.click(question, f"bp:ok:{record.id}:orders", user=table.alice)
    assert "Eva-01 fires at Eva-02: hit" in message_text(public(fired))
    plain = await table.slash("attack", user=table.alice, unit="Eva-01", weapon="Pallet Rifle", target="Sachiel")
    assert not last_message(plain).ephemeral, "attacking an enemy asks nothing"


async def test_move_without_a_mode_takes_the_cheapest_that_reaches(table: Table) -> None:
    """The [turns] table: a Half move costs 1 AP, a Full move 2; AG 40 gives a Half move of 2 squares."""
    await side_battle(table)
    near = await table.slash("move", user=table.alice, unit="Eva-01", to="E3")
    assert "Half: the cheapest move that reaches E3." in text_of(near)
    battle = await stored_battle(table)
    assert battle.unit("Eva-01").cell == Cell.parse("E3") and battle.turn.left["u1"] == 1
    far = await table.slash("move", user=table.bob, unit="Eva-02", to="G5")
    assert "Full: the cheapest move that reaches G5." in text_of(far)
    assert (await stored_battle(table)).turn.done.get("u2") == "ended"
