"""Posts at least once, the urgent first: reminders, turn pings and the status board when Discord fails."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.scheduler import REMINDER_LEASE, REMINDER_RETRY
from loopback.models import StoredMessage
from tests.e2e.conftest import START_TIME, Table
from tests.e2e.turn_helpers import (
    DAY,
    board,
    message_text,
    new_since,
    posted,
    prompts,
    start_side_battle,
    stored,
)

UNAVAILABLE = {"status": 503, "message": "Service Unavailable"}  # discord.py raises a 503 at once


def reminders(messages: list[StoredMessage]) -> list[StoredMessage]:
    """Return the reminder messages among these."""
    return [m for m in messages if m.content.startswith("\u23f0")]


def notifier(table: Table) -> Any:
    """Return the running bot's notifier."""
    assert table.discord.bot is not None
    cog = next(c for c in table.discord.bot.cogs.values() if hasattr(c, "notifier"))
    return cog.notifier


async def until(found: Any, limit: float = 5.0) -> Any:
    """Wait until found() returns something truthy, and return it."""
    for _ in range(int(limit / 0.02)):
        value = found()
        if value:
            return value
        await asyncio.sleep(0.02)
    raise AssertionError("it never happened")


async def test_a_refused_reminder_is_sent_on_a_later_pass_with_its_real_time(table: Table) -> None:
    """A reminder is marked sent only after it was sent."""
    await start_side_battle(table)
    record = await stored(table)
    table.discord.fail("POST", f"/channels/{table.channel.id}/messages", **UNAVAILABLE)
    before = posted(table)
    [refused] = await table.tick(hours=12)
    assert refused.action == "retry" and reminders(new_since(table, before)) == []
    [waiting, _, _] = await table.db.timers.pending(record.id)
    assert (waiting.kind, waiting.due_at) == ("reminder", table.clock.now + REMINDER_RETRY)
    [sent] = await table.tick(seconds=REMINDER_RETRY)
    assert sent.action == "reminded"
    [reminder] = reminders(new_since(table, before))
    assert reminder.pings.users == {table.alice.id, table.bob.id}
    assert f"ends <t:{int(START_TIME + DAY)}:R>" in reminder.content
    assert [t.kind for t in await table.db.timers.pending(record.id)] == ["reminder", "deadline"]


async def test_a_reminder_claimed_by_a_pass_that_died_is_sent_after_restart(table: Table) -> None:
    await start_side_battle(table)
    record = await stored(table)
    [first, _, _] = await table.db.timers.pending(record.id)
    table.clock.advance(hours=12)
    # A pass leased the reminder, then the process stopped before Discord had it.
    leased = await table.db.timers.claim_due(table.clock.now, lease_until=table.clock.now + REMINDER_LEASE)
    assert leased is not None and leased.id == first.id
    await table.restart()
    before = posted(table)
    assert await table.tick() == []
    [sent] = await table.tick(seconds=REMINDER_LEASE)
    assert sent.action == "reminded" and len(reminders(new_since(table, before))) == 1
    assert await table.tick(seconds=1) == [], "and only once"


async def test_a_turn_ping_discord_refuses_is_posted_later(table: Table) -> None:
    await table.setup_battle()
    notifier(table).retries.delays = (0.05, 0.05)
    table.discord.fail("POST", f"/channels/{table.channel.id}/messages", **UNAVAILABLE)
    before = posted(table)
    await table.slash("battle start")
    [ping] = await until(lambda: prompts(new_since(table, before)))
    assert ping.pings.users
    assert len(prompts(new_since(table, before))) == 1


async def test_a_rate_limited_board_edit_never_delays_a_turn_ping(table: Table) -> None:
    await table.setup_battle()
    status = board(table)
    table.discord.fail("PATCH", f"/channels/{table.channel.id}/messages/{status.id}", status=429,
                       message="You are being rate limited.", retry_after=0.5)
    start = len(table.discord.requests)
    await table.slash("battle start")
    requests = table.discord.requests[start:]
    ping = next(i for i, r in enumerate(requests) if r.method == "POST" and r.path.endswith(f"{table.channel.id}/messages"))
    edited = next(i for i, r in enumerate(requests) if r.method == "PATCH" and r.status == 200
                  and r.path.endswith(str(status.id)))
    assert ping < edited, [f"{r.method} {r.path} {r.status}" for r in requests]
    assert "The GM sets up the map" not in board(table).embeds[0]["description"], "the board caught up"


async def test_board_edits_asked_for_while_one_waits_fold_into_one(table: Table) -> None:
    await start_side_battle(table)
    status = board(table)
    table.discord.fail("PATCH", f"/channels/{table.channel.id}/messages/{status.id}", status=429,
                       message="You are being rate limited.", retry_after=0.3)
    start = len(table.discord.requests)
    for _ in range(3):
        await table.discord.slash("roll", user=table.alice, channel=table.channel, options={"dice": "1d6"})
    await table.settle()
    edits = [r for r in table.discord.requests[start:] if r.method == "PATCH" and r.path.endswith(str(status.id))]
    assert [r.status for r in edits][:1] == [429]
    assert len([r for r in edits if r.status == 200]) <= 2, "three changes while one edit waited became at most two edits"


def board_edits(table: Table, board_id: int, start: int) -> list[Any]:
    """Return the successful edits of the status board since request number `start`."""
    return [r for r in table.discord.requests[start:]
            if r.method == "PATCH" and r.path.endswith(str(board_id)) and r.status == 200]


async def test_a_burst_of_orders_shows_its_last_state_in_one_board_edit(table: Table) -> None:
    await table.setup_battle()
    status = board(table)
    lane = notifier(table).boards
    lane.spacing = 0.6
    await asyncio.sleep(lane.spacing)  # the setup's edits are long past
    start = len(table.discord.requests)
    await table.slash("unit add", name="Ramiel", side="Angels", at="J9", ag=30)
    assert len(board_edits(table, status.id, start)) == 1, "a single change after a quiet spell is shown at once"
    assert "Ramiel" in message_text(board(table))

    start = len(table.discord.requests)
    for name, at in (("Shamshel", "K9"), ("Israfel", "L9"), ("Gaghiel", "M9")):
        await table.slash("unit add", name=name, side="Angels", at=at, ag=30)
    assert board_edits(table, status.id, start) == [], "changes right after an edit wait for the spacing"
    await until(lambda: board_edits(table, status.id, start))
    await asyncio.sleep(lane.spacing + 0.2)
    await table.settle()
    assert len(board_edits(table, status.id, start)) == 1, "three changes became one edit"
    shown = message_text(board(table))
    assert all(name in shown for name in ("Shamshel", "Israfel", "Gaghiel")), shown
    assert not lane.pending()


async def test_without_spacing_every_change_edits_the_board(table: Table) -> None:
    await table.setup_battle()
    status = board(table)
    assert notifier(table).boards.spacing == 0.0
    start = len(table.discord.requests)
    for name, at in (("Shamshel", "K9"), ("Israfel", "L9")):
        await table.slash("unit add", name=name, side="Angels", at=at, ag=30)
    assert len(board_edits(table, status.id, start)) == 2
