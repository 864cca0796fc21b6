"""An answer in time, or a post: no order is committed and then left unannounced, and no answer lies about it."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from loopback import ErrorLogCapture
from rules.coords import Cell
from tests.e2e.action_helpers import menu, press, private, public
from tests.e2e.combat_helpers import add, battle_with, start, stored_battle
from tests.e2e.conftest import Table, last_message, text_of
from tests.e2e.turn_helpers import message_text, posted, stored


def hold_database(table: Table, seconds: float) -> threading.Thread:
    """Hold SQLite's write lock from another connection, as a backup or a second process can; return the holder."""
    locked = threading.Event()

    def hold() -> None:
        other = sqlite3.connect(table.db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        locked.set()
        threading.Event().wait(seconds)
        other.execute("COMMIT")
        other.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert locked.wait(5)
    return holder


async def test_a_slow_order_is_acknowledged_in_time_and_posted_for_everyone(table: Table) -> None:
    """Discord forgets an interaction unanswered after 3 s; an order slowed past that is deferred, then posted."""
    await table.setup_battle()
    await table.slash("battle start")
    assert table.discord.bot is not None
    # Scaled down from Discord's 3 s and the bot's 2 s, so the test waits a fraction of a second.
    table.discord.world.ack_window = 0.4
    table.discord.bot.answer_within = 0.1  # type: ignore[attr-defined]
    holder = hold_database(table, 1.0)
    reply = await table.discord.slash("move", user=table.alice, channel=table.channel,
                                      options={"unit": "Eva-01", "to": "D3", "mode": "half"})
    holder.join()
    await table.settle()
    assert not reply.interaction.rejections, reply.interaction.rejections
    assert reply.deferred
    note, result = reply.messages
    assert note.ephemeral and note.content == "Done: the result is posted in the channel."
    assert not result.ephemeral and "Eva-01" in message_text(result) and result.files
    battle = (await stored(table)).state
    assert next(u for u in battle["units"] if u["name"] == "Eva-01")["x"] == 3


async def test_a_quick_order_is_answered_in_one_response_with_its_map(table: Table) -> None:
    """A /move ready before the watchdog's wait is not deferred: one round trip carries the result and its map."""
    await table.setup_battle()
    await table.slash("battle start")
    before = len(table.discord.requests)
    reply = await table.discord.slash("move", user=table.alice, channel=table.channel,
                                      options={"unit": "Eva-01", "to": "D3", "mode": "half"})
    await table.settle()
    assert not reply.deferred
    [answer] = reply.messages
    assert not answer.ephemeral and "Eva-01" in message_text(answer) and answer.files
    made = list(table.discord.requests)[before:]
    assert len([r for r in made if r.method == "POST" and "/interactions/" in r.path]) == 1, made
    assert not [r for r in made if r.method == "POST" and "/webhooks/" in r.path], made


async def test_an_answer_discord_no_longer_takes_is_posted_in_the_channel(table: Table) -> None:
    await table.setup_battle()
    await table.slash("battle start")
    table.discord.world.ack_window = 0.0  # every answer arrives too late
    before = {m.id for m in posted(table)}
    with pytest.raises(TimeoutError, match="did not answer /roll"):
        await table.discord.slash("roll", user=table.alice, channel=table.channel,
                                  options={"dice": "2d10", "purpose": "flare"}, within=1.0)
    await table.settle()
    [post] = [m for m in posted(table) if m.id not in before]
    text = message_text(post)
    assert "flare" in text and "could not be answered in time, so its result is posted here" in text
    assert post.pings.users == {table.alice.id}, "the note mentions the player, and nobody else"
    events = await table.db.events.list((await stored(table)).id, limit=1)
    assert events[0].kind == "roll"


async def test_a_failure_after_the_order_is_saved_never_says_nothing_changed(
        table: Table, logged_errors: ErrorLogCapture) -> None:
    await table.setup_battle()
    await table.slash("battle start")
    # Discord refuses the answer with its map, and the bot may not post in the channel either.
    # A quick order answers in its first response, a slow one in a followup after the deferral: both refused.
    table.discord.fail("POST", "/interactions/", status=413, code=40005, message="Request entity too large")
    table.discord.fail("POST", "/webhooks/", status=413, code=40005, message="Request entity too large")
    table.discord.fail("POST", f"/channels/{table.channel.id}/messages", status=403, code=50013,
                       message="Missing Permissions")
    reply = await table.slash("move", user=table.alice, unit="Eva-01", to="D3", mode="half")
    text = text_of(reply)
    seq = (await table.db.events.list((await stored(table)).id, limit=1))[0].seq
    assert f"Your order was carried out and saved (#{seq} in /battle log)" in text, text
    assert "Nothing was changed" not in text
    assert logged_errors.take(), "the failure is logged for the operator"
    assert last_message(reply).content


def scale_down(table: Table) -> None:
    """Scale Discord's 3 s and the bot's 2 s down to fractions of a second, so the tests wait little."""
    assert table.discord.bot is not None
    table.discord.world.ack_window = 0.4
    table.discord.bot.answer_within = 0.1  # type: ignore[attr-defined]


async def test_a_slow_button_press_is_deferred_in_time_and_answered_privately(table: Table) -> None:
    """A press whose handler waits on the database past Discord's window is deferred, then answered."""
    await table.setup_battle()
    await table.slash("battle start")
    [ping] = [m for m in posted(table) if m.content.startswith("\U0001f514")]
    scale_down(table)
    holder = hold_database(table, 1.0)
    pressed = await table.discord.click(ping, f"bp:mute:{(await stored(table)).id}", user=table.bob)
    holder.join()
    await table.discord.until(lambda: pressed.followups, "the answer to the deferred press")
    await table.settle()
    assert not pressed.interaction.rejections, pressed.interaction.rejections
    assert pressed.response_type == 6, "deferred as an update of the pressed message, which shows no note"
    [answer] = pressed.followups
    assert answer.ephemeral and "Muted for this turn" in answer.content
    assert table.discord.message(ping.id).content == ping.content, "the ping itself is left as it was"
    record = await stored(table)
    assert (await table.db.players.get(record.id, table.bob.id)).muted_turn is not None


async def test_a_slow_choice_that_edits_its_message_still_edits_it(table: Table) -> None:
    """A square chosen while the database is held: the chooser is closed and the move posted for everyone."""
    await battle_with(table, mode="side")
    await add(table, "Eva-01", "NERV", "C3", owner=table.alice)
    await add(table, "Sachiel", "Angels", "H3")
    await start(table)
    [ping] = [m for m in posted(table) if m.content.startswith("\U0001f514")]
    chooser = private(await press(table, ping, "Move: half", table.alice))
    scale_down(table)
    holder = hold_database(table, 1.0)
    chosen = await table.discord.select(chooser, menu(chooser)["custom_id"], ["D3"], user=table.alice)
    holder.join()
    await table.discord.until(lambda: chosen.followups, "the result of the deferred choice")
    await table.settle()
    assert not chosen.interaction.rejections, chosen.interaction.rejections
    assert chosen.deferred and chosen.message is not None and chosen.message.id == chooser.id
    assert "Done: `/move unit:Eva-01 to:D3 mode:half`" in chosen.message.content and not chosen.message.components
    result = public(chosen)
    assert "Eva-01" in message_text(result)
    assert (await stored_battle(table)).unit("Eva-01").cell == Cell.parse("D3")
