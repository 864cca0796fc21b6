"""A turn played by buttons alone: the ping's actions, a square, a target, the end of the turn; restarts; strangers."""

from __future__ import annotations

from typing import Any

from loopback.models import StoredMessage
from rules.coords import Cell
from rules.orders import Move
from tests.e2e.action_helpers import (
    button,
    choose,
    components,
    labels,
    menu,
    option_text,
    option_values,
    press,
    private,
    public,
)
from tests.e2e.combat_helpers import RIFLE, add, battle_with, dice, start, stored, stored_battle
from tests.e2e.conftest import Table, text_of
from tests.e2e.turn_helpers import message_text, new_since, posted, prompts


async def duel(table: Table) -> None:
    """Start a side-mode battle: alice's Eva-01 (NERV, alone in its phase) against the GM's Sachiel."""
    await battle_with(table, mode="side")
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice, bs=50, ag=40, weapons=[RIFLE])
    await add(table, "Sachiel", "Angels", "H3", wounds=20, t=40, weapons=[RIFLE])
    await start(table)


async def test_a_whole_turn_is_played_by_pressing_buttons(table: Table) -> None:
    await duel(table)
    [ping] = prompts(posted(table))
    assert labels(ping)[:3] == ["Move: half \u00b7 1 of 2 AP", "Move: full \u00b7 2 of 2 AP",
                                "Move: run \u00b7 2 of 2 AP"]
    assert "Attack: Pallet Rifle \u00b7 1 of 2 AP" in labels(ping) and "End turn (2 AP unused)" in labels(ping)

    chooser = private(await press(table, ping, "Move: half", table.alice))
    squares = option_values(chooser)
    battle = await stored_battle(table)
    legal = sorted({str(o.to) for o in battle.legal_orders("Eva-01") if isinstance(o, Move) and o.mode == "half"},
                   key=lambda c: (Cell.parse(c).y, Cell.parse(c).x))
    assert squares == legal and "D3" in squares
    assert chooser.files and "outlined and named" in message_text(chooser)

    moved = await choose(table, chooser, "D3", table.alice)
    assert moved.message is not None
    assert "Done: `/move unit:Eva-01 to:D3 mode:half`" in moved.message.content and not moved.message.components
    result = public(moved)
    assert "Eva-01" in message_text(result) and result.files
    assert (await stored_battle(table)).unit("Eva-01").cell == Cell.parse("D3")
    assert all(c.get("disabled") for c in components_of(ping, "bp:do:")), "the ping's action buttons are spent"
    assert labels(result) == ["Move: half \u00b7 1 of 1 AP", "Attack: Pallet Rifle \u00b7 1 of 1 AP",
                              "Aim: half \u00b7 1 of 1 AP", "Hold (1 AP unused)", "End turn (1 AP unused)",
                              "Undo"], "what costs more than the 1 AP left (a full move, a run) is not offered"

    targets = private(await press(table, result, "Attack: Pallet Rifle", table.alice))
    [sachiel] = option_text(targets)
    assert sachiel.startswith("Sachiel (H3): 4 squares away") and "% to hit (d100 \u2264" in sachiel
    dice(table, 14, 6, 4)
    before = posted(table)
    shot = await choose(table, targets, option_values(targets)[0], table.alice)
    after_shot = public(shot)
    text = message_text(after_shot)
    assert "Eva-01 fires at Sachiel: hit" in text
    assert "Eva-01 has nothing left to do, so its turn ends." in text and not after_shot.components
    [angels] = prompts(new_since(table, before))
    assert "Angels phase" in angels.content
    done = await stored_battle(table)
    assert {done.unit(k).name: v for k, v in done.turn.done.items()} == {"Eva-01": "ended"}

    # The GM ends Sachiel's turn from its ping: with its 2 AP unused, the bot asks once, then ends it.
    question = private(await press(table, angels, "End turn (2 AP unused)", table.gm))
    assert "Sachiel has **2 AP** left" in message_text(question)
    before = posted(table)
    confirmed = await table.click(question, f"bp:ok:{(await stored(table)).id}:orders", user=table.gm)
    assert "Sachiel ends its turn" in text_of(confirmed)
    [round_two] = prompts(new_since(table, before))
    assert "round 2, NERV phase" in round_two.content


def components_of(message: StoredMessage, prefix: str) -> list[dict[str, Any]]:
    """Return a stored message's components whose custom id starts with a prefix, as it is now."""
    return [c for c in components(message) if str(c["custom_id"]).startswith(prefix)]


async def test_buttons_work_after_a_restart_and_refuse_strangers(table: Table) -> None:
    await duel(table)
    [ping] = prompts(posted(table))
    before = (await stored(table)).version
    refused = await press(table, ping, "Move: half", table.bob)
    assert private(refused) and "Eva-01 is not yours to command; only its player or the GM" in text_of(refused)
    shot = await press(table, ping, "Attack", table.carol)
    assert "only its player or the GM" in text_of(shot)
    assert (await stored(table)).version == before, "a stranger's press changes nothing"

    await table.restart()
    chooser = private(await press(table, ping, "Move: half", table.alice))
    assert menu(chooser)["custom_id"].startswith("bp:sq:")
    await table.restart()
    moved = await choose(table, chooser, "D4", table.alice)
    assert (await stored_battle(table)).unit("Eva-01").cell == Cell.parse("D4")
    assert public(moved).components, "the result carries the next actions"

    asked = private(await press(table, public(moved), "End turn (1 AP unused)", table.gm))
    await table.restart()
    record = await stored(table)
    stranger = await table.click(asked, f"bp:ok:{record.id}:orders", user=table.gm)
    assert "Eva-01 ends its turn" in text_of(stranger), "the GM may press any unit's buttons, even after a restart"


async def test_a_stale_button_says_why_and_offers_what_is_open_now(table: Table) -> None:
    await duel(table)
    [ping] = prompts(posted(table))
    await table.slash("move", user=table.alice, unit="Eva-01", to="E3", mode="full")
    late = await press(table, ping, "Move: half", table.alice)
    message = private(late)
    assert message.content == ("That action is no longer open to Eva-01: Eva-01 has ended its turn this round; "
                               "it acts again in round 2.")
    assert not message.components, "with its turn over it has nothing to offer"
    assert (await stored_battle(table)).unit("Eva-01").cell == Cell.parse("E3")


async def test_a_stale_button_offers_what_is_open_now(table: Table) -> None:
    await duel(table)
    [ping] = prompts(posted(table))
    await table.slash("aim", user=table.alice, unit="Eva-01")
    late = private(await press(table, ping, "Move: full", table.alice))
    assert "That action is no longer open to Eva-01: the battle has moved on" in late.content
    assert labels(late) == ["Move: half \u00b7 1 of 1 AP", "Attack: Pallet Rifle \u00b7 1 of 1 AP",
                            "Aim: half \u00b7 1 of 1 AP", "Hold (1 AP unused)", "End turn (1 AP unused)"], "what it can do now comes with it"


async def test_a_long_reach_is_narrowed_by_area_first(table: Table) -> None:
    await battle_with(table, mode="side", width=40, height=40)
    await add(table, "Eva-01", "NERV", "T20", owner=table.alice, ag=60, weapons=[RIFLE])
    await add(table, "Sachiel", "Angels", "A1", wounds=20)
    await start(table)
    [ping] = prompts(posted(table))
    first = private(await press(table, ping, "Move: run", table.alice))
    assert menu(first)["custom_id"].startswith("bp:ar:") and len(option_values(first)) <= 25
    battle = await stored_battle(table)
    run = {o.to for o in battle.legal_orders("Eva-01") if isinstance(o, Move) and o.mode == "run"}
    assert len(run) > 25
    narrowed = first
    while menu(narrowed)["custom_id"].startswith("bp:ar:"):
        reply = await choose(table, narrowed, option_values(narrowed)[0], table.alice)
        assert reply.message is not None and reply.message.files
        narrowed = reply.message
    squares = [Cell.parse(v) for v in option_values(narrowed)]
    assert 0 < len(squares) <= 25 and set(squares) <= run
    button(ping, "Move: run")
    await choose(table, narrowed, str(squares[-1]), table.alice)
    assert (await stored_battle(table)).unit("Eva-01").cell == squares[-1]
