"""A charge moves and strikes in one order, one outcome and one reply: by /charge and by the action buttons."""

from __future__ import annotations

from rules.coords import Cell
from tests.e2e.action_helpers import choose, labels, option_values, press, private, public
from tests.e2e.combat_helpers import KNIFE, RIFLE, add, battle_with, dice, start, stored, stored_battle
from tests.e2e.conftest import Table, text_of
from tests.e2e.turn_helpers import message_text, posted, prompts


async def _duel(table: Table) -> None:
    await battle_with(table, mode="side")
    # AG 40: AB 4, a Charge moves up to 6 squares (E-Scale: onto the target's square).
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice, ws=50, ag=40, weapons=[RIFLE, KNIFE])
    await add(table, "Sachiel", "Angels", "H3", wounds=20, t=30, weapons=[RIFLE])
    await start(table)


async def test_charge_by_slash_command_moves_and_strikes_in_one_reply(table: Table) -> None:
    await _duel(table)
    dice(table, 20, 5, 9)  # WS test 20 hits (location: 02, the head); Prog Knife rolls 5 and 9, Tearing drops 5
    reply = await table.slash("charge", unit="Eva-01", target="Sachiel", user=table.alice)
    battle = await stored_battle(table)
    eva, angel = battle.unit("Eva-01"), battle.unit("Sachiel")
    assert eva.cell == Cell.parse("H3")
    assert angel.wounds < 20
    assert sum(1 for m in reply.messages if not m.ephemeral) == 1, "one reply"
    text = text_of(reply)
    assert "Eva-01 charges Sachiel: hit" in text
    assert "Charge: C3 \u2192 D3 \u2192 E3 \u2192 F3 \u2192 G3 \u2192 H3" in text and "5 of 6 squares (AB 4)" in text
    assert "Weapon Skill" in text
    newest = await table.db.events.list((await stored(table)).id, limit=3)
    # One order in the log, not a move and an attack; with no points left the unit's turn then ends.
    assert [e.kind for e in newest] == ["end-turn", "charge", "start"]


async def test_charge_by_buttons_picks_the_target_and_spends_the_full_action(table: Table) -> None:
    await _duel(table)
    [ping] = prompts(posted(table))
    assert "Charge: Prog Knife \u00b7 2 of 2 AP" in labels(ping)
    assert not [label for label in labels(ping) if label.startswith("Move: charge")]
    chooser = private(await press(table, ping, "Charge: Prog Knife", table.alice))
    assert option_values(chooser) == [(await stored_battle(table)).unit("Sachiel").id]
    dice(table, 95)  # the strike misses
    done = await choose(table, chooser, option_values(chooser)[0], table.alice)
    result = public(done)
    assert "Eva-01 charges Sachiel: miss" in message_text(result)
    battle = await stored_battle(table)
    assert battle.unit("Eva-01").cell == Cell.parse("H3") and battle.unit("Sachiel").wounds == 20


async def test_a_charge_out_of_reach_is_refused_privately_and_changes_nothing(table: Table) -> None:
    await battle_with(table, mode="side")
    await add(table, "Eva-01", "NERV", "A1", owner=table.alice, ws=50, ag=40, weapons=[KNIFE])
    await add(table, "Sachiel", "Angels", "T1", wounds=20, t=30)
    await start(table)
    before = (await stored_battle(table)).to_dict()
    reply = await table.slash("charge", unit="Eva-01", target="Sachiel", user=table.alice)
    assert reply.message is not None and reply.message.ephemeral
    assert "a Charge moves it at most 6" in text_of(reply)
    assert (await stored_battle(table)).to_dict() == before
    refused = await table.slash("move", unit="Eva-01", to="C1", mode="charge", user=table.alice)
    assert "A charge is an order of its own that ends in an attack" in text_of(refused)
    assert "/charge unit target" in text_of(refused) and refused.message is not None and refused.message.ephemeral


async def test_my_options_tells_a_charge_apart_from_the_moves(table: Table) -> None:
    """The charge is an order of its own: My options points to /charge, not to a move mode."""
    await _duel(table)
    record = await stored(table)
    [prompt] = prompts(posted(table))
    options = await table.click(prompt, f"bp:opts:{record.id}:Eva-01", user=table.alice)
    text = text_of(options)
    assert "strikes in melee \u2014 `/charge` or the Charge button" in text
    assert "**Run**" in text and "**Charge** (2 AP): up to" in text
