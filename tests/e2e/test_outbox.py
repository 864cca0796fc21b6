"""Posts under Discord's faults: every post the bot owes arrives once, and a player always learns an order's result."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from loopback.models import StoredMessage
from tests.e2e.conftest import Table
from tests.e2e.turn_helpers import (
    board,
    end_turn,
    message_text,
    new_since,
    posted,
    prompts,
    start_side_battle,
    stored,
)
from tests.storage.backends import run_sql

DISCORD_WINDOW = 3.0  # Discord forgets an interaction not answered within three seconds
MOVE = {"unit": "Eva-01", "to": "D3", "mode": "half"}
LATE_NOTE = "could not be answered in time, so its result is posted here"


async def until(found: Any, limit: float) -> Any:
    """Wait until found() returns something truthy, and return it."""
    for _ in range(int(limit / 0.05)):
        value = found()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError("it never happened")


async def owed_nothing(table: Table, battle_id: int, limit: float = 10.0) -> None:
    """Wait until the battle owes Discord nothing (each post made is settled just after Discord took it)."""
    for _ in range(int(limit / 0.05)):
        if not await table.db.outbox.owed(battle_id):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"still owed: {await table.db.outbox.owed(battle_id)}")


def quick_retries(table: Table) -> None:
    """Try refused posts again after a tenth of a second rather than seconds, so the tests wait little."""
    assert table.discord.bot is not None
    table.discord.bot.outbox.backoff = 0.1  # type: ignore[attr-defined]


def late_results(messages: list[StoredMessage]) -> list[StoredMessage]:
    """Return the posts of results whose interaction was gone."""
    return [m for m in messages if LATE_NOTE in m.content]


async def move_unanswered(table: Table, within: float) -> None:
    """Give a /move whose answer Discord never takes (the player sees 'did not respond')."""
    with pytest.raises(TimeoutError, match="did not answer /move"):
        await table.discord.slash("move", user=table.alice, channel=table.channel, options=MOVE, within=within)
    await table.settle()


async def assert_result_learned_once(table: Table, before: list[StoredMessage]) -> None:
    """Check the move stands and its result is in the channel once, mentioning its player and nobody else."""
    [post] = await until(lambda: late_results(new_since(table, before)), limit=30.0)
    assert "Eva-01" in message_text(post) and post.files, "the result with its map"
    assert post.pings.users == {table.alice.id}, "the player who gave the order, and nobody else"
    ids = [part.get("custom_id", "") for row in post.components for part in row.get("components", [])]
    assert any(i.startswith("bp:") for i in ids), f"its buttons stay, answered by the bot's persistent items: {ids}"
    assert not post.pings.everyone and not post.pings.roles
    record = await stored(table)
    [event] = await table.db.events.list(record.id, limit=1)
    assert event.kind == "move"
    assert next(u for u in record.state["units"] if u["name"] == "Eva-01")["x"] == 3
    await asyncio.sleep(0.5)  # a second delivery, were there one, would have come by now
    await table.settle()
    assert len(late_results(new_since(table, before))) == 1
    assert [r for r in await table.db.outbox.owed(record.id) if r.kind == "message"] == []


async def test_an_answer_refused_twice_with_500_is_posted_for_its_player(table: Table) -> None:
    """discord.py tries a 500 again after 1 s and 3 s: the answer lands past Discord's window."""
    await start_side_battle(table)
    table.discord.world.ack_window = DISCORD_WINDOW
    table.discord.fail("POST", "/interactions/", status=500, message="Internal Server Error", times=2)
    before = posted(table)
    await move_unanswered(table, within=10.0)
    await assert_result_learned_once(table, before)


async def test_an_answer_rate_limited_for_five_seconds_is_posted_for_its_player(table: Table) -> None:
    await start_side_battle(table)
    table.discord.world.ack_window = DISCORD_WINDOW
    table.discord.fail("POST", "/interactions/", status=429, message="You are being rate limited.", retry_after=5.0)
    before = posted(table)
    await move_unanswered(table, within=12.0)
    await assert_result_learned_once(table, before)


async def test_a_result_the_channel_refuses_too_is_posted_when_discord_takes_it(table: Table) -> None:
    """The interaction is gone and the channel post fails at once: the result waits in the outbox, then arrives."""
    await start_side_battle(table)
    quick_retries(table)
    table.discord.world.ack_window = 0.0  # every answer arrives too late
    table.discord.fail("POST", f"/channels/{table.channel.id}/messages", status=503, message="Service Unavailable",
                       times=2)
    before = posted(table)
    await move_unanswered(table, within=2.0)
    await assert_result_learned_once(table, before)
    refused = [r for r in table.discord.requests if r.method == "POST" and r.status == 503
               and r.path.endswith(f"{table.channel.id}/messages")]
    assert len(refused) == 2
    # The stored buttons work: the bot's persistent items answer a press on the message posted from the outbox.
    table.discord.world.ack_window = None
    [post] = late_results(new_since(table, before))
    [custom_id, *_] = [part["custom_id"] for row in post.components for part in row.get("components", [])
                       if part.get("custom_id", "").startswith("bp:")]
    pressed = await table.discord.click(post, custom_id, user=table.alice)
    assert pressed.messages or pressed.message is not None, "the press is answered"


async def test_a_turn_ping_refused_five_times_with_500_arrives_once(table: Table) -> None:
    """discord.py gives up after five 500s; the ping stays owed and is posted on the outbox's next try."""
    await table.setup_battle()
    quick_retries(table)
    table.discord.fail("POST", f"/channels/{table.channel.id}/messages", status=500, message="Internal Server Error",
                       times=5)
    before = posted(table)
    await table.slash("battle start")
    [ping] = await until(lambda: prompts(new_since(table, before)), limit=60.0)
    assert ping.pings.users == {table.alice.id, table.bob.id}
    failed = [r for r in table.discord.requests if r.method == "POST" and r.status == 500
              and r.path.endswith(f"{table.channel.id}/messages")]
    assert len(failed) == 5
    await asyncio.sleep(0.5)
    await table.settle()
    assert len(prompts(new_since(table, before))) == 1, "posted once"
    record = await stored(table)
    assert [r for r in await table.db.outbox.owed(record.id) if r.kind == "turn"] == []


async def test_a_refused_board_edit_is_made_from_the_outbox(table: Table) -> None:
    await start_side_battle(table)
    quick_retries(table)
    status = board(table)
    table.discord.fail("PATCH", f"/channels/{table.channel.id}/messages/{status.id}", status=503,
                       message="Service Unavailable", times=3)
    await table.slash("unit add", name="Ramiel", side="Angels", at="J9", ag=30)
    assert "Ramiel" not in message_text(board(table))
    await until(lambda: "Ramiel" in message_text(board(table)), limit=20.0)
    record = await stored(table)
    await owed_nothing(table, record.id)


async def test_an_order_owes_its_posts_in_its_own_transaction_and_settles_them(table: Table) -> None:
    """The board edit and the turn ping an order calls for are rows before they are posts, settled once made."""
    await start_side_battle(table)
    record = await stored(table)
    before = posted(table)
    await end_turn(table, user=table.alice, unit="Eva-01")
    await end_turn(table, user=table.bob, unit="Eva-02")
    [ping] = prompts(new_since(table, before))
    assert "Angels phase" in ping.content
    assert await table.db.outbox.owed(record.id) == []
    rows = await run_sql(table.db, f"SELECT kind, payload, outcome FROM outbox WHERE battle_id = {record.id} ORDER BY id")
    turns = [(payload, outcome) for kind, payload, outcome in rows if kind == "turn"]
    assert turns[-1][1] == "sent" and "Angels" in str(turns[-1][0]), turns
    assert {outcome for kind, _, outcome in rows if kind == "board"} <= {"sent", "superseded"}


async def test_a_sides_secret_its_thread_refuses_reaches_the_thread_once(table: Table) -> None:
    """A hidden roll for NERV is owed to NERV's thread: refused twice, it arrives there once, never in the channel."""
    await table.setup_battle()
    await table.gm_slash("gm side-threads", on=True)
    quick_retries(table)
    [nerv] = [t for t in table.discord.threads(table.channel) if t.name.endswith("\u00b7 NERV")]
    table.discord.fail("POST", f"/channels/{nerv.id}/messages", status=503, message="Service Unavailable", times=2)
    before = posted(table)
    await table.gm_slash("gm roll", dice="1d100", purpose="Operation Yashima", side="NERV")

    def secrets() -> list[StoredMessage]:
        return [m for m in posted(table, nerv) if "Operation Yashima" in message_text(m)]

    [secret] = await until(secrets, limit=20.0)
    assert "Hidden roll for NERV" in message_text(secret)
    await owed_nothing(table, (await stored(table)).id)
    assert len(secrets()) == 1
    assert not any("Operation Yashima" in message_text(m) for m in new_since(table, before)), "never in the channel"


async def test_a_deadline_notice_and_the_ping_after_it_survive_refusals_and_arrive_once(table: Table) -> None:
    """The deadline's summary and the next turn's ping are refused at first; each arrives once, from the outbox."""
    await table.setup_battle()
    await table.gm_slash("gm policy", policy="hold")
    await table.slash("battle start")
    quick_retries(table)
    table.discord.fail("POST", f"/channels/{table.channel.id}/messages", status=503, message="Service Unavailable",
                       times=3)
    before = posted(table)
    fired = await table.tick(days=1)
    assert [f.action for f in fired if f.timer.kind == "deadline"] == ["held"]

    def summaries() -> list[StoredMessage]:
        return [m for m in new_since(table, before) if "Deadline passed" in message_text(m)]

    await until(lambda: summaries() and prompts(new_since(table, before)), limit=20.0)
    await owed_nothing(table, (await stored(table)).id)
    [summary] = summaries()
    assert "Eva-01 holds" in message_text(summary) and summary.pings.nobody
    [prompt] = prompts(new_since(table, before))
    assert "Angels phase" in prompt.content and prompt.pings.users == {table.gm.id}
