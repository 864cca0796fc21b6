"""A bot process killed between an order's commit and the post it owes makes that post after restart, once.

The bot runs as its own process (`python -m bot`) against the loopback Discord of this test, on a SQLite
file. The loopback holds the turn ping's request; the process is SIGKILLed while it hangs, and the held
request is then dropped unperformed, so Discord never had the ping.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

from loopback import InteractionError, LoopbackDiscord
from loopback.models import LoopbackChannel, StoredMessage
from storage import Database
from tests.e2e.conftest import text_of
from tests.fleet import TOKEN, BotProcess, errors_in


def prompts(discord: LoopbackDiscord, channel: LoopbackChannel) -> list[StoredMessage]:
    """Return the turn pings posted in a channel."""
    return [m for m in discord.messages(channel) if "your turn in" in m.content.lower()]


async def wait_for(condition: object, what: str, limit: float = 40.0) -> None:
    """Poll until condition() is true."""
    deadline = time.monotonic() + limit
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


async def test_a_turn_ping_owed_when_the_bot_was_killed_is_posted_after_restart_once(
        loopback: LoopbackDiscord, tmp_path: Path) -> None:
    guild = loopback.add_guild("Crash server", shard=(0, 1))
    gm = loopback.add_user("gm", guild=guild, manage_guild=True)
    player = loopback.add_user("player", guild=guild)
    channel = guild.channel("general")
    database = tmp_path / "bot.sqlite3"
    process = BotProcess("bot", "0", 1, loopback.server.base_url, str(database), tmp_path)
    try:
        process.start()
        await loopback.serve_processes(TOKEN, 1)
        for command, options in (
            ("battle new", {"name": "Crash", "ruleset": "strategic-e", "width": 12, "height": 10}),
            ("unit add", {"name": "Eva-01", "side": "NERV", "at": "C3", "owner": player, "ag": 45}),
            ("unit add", {"name": "Sachiel", "side": "Angels", "at": "J8", "ag": 38}),
            ("battle start", {}),
        ):
            reply = await loopback.slash(command, user=gm, channel=channel, options=options, within=20)
            assert not reply.ephemeral, text_of(reply)
        await loopback.settle()
        [first] = prompts(loopback, channel)
        assert player.id in first.pings.users

        # The player's order begins the Angels' turn; its ping hangs at Discord until the process is dead.
        held = loopback.hold("POST", f"/channels/{channel.id}/messages")
        order = asyncio.create_task(loopback.slash("turn hold", user=player, channel=channel,
                                                   options={"unit": "Eva-01"}, within=20))
        await asyncio.wait_for(held.reached.wait(), timeout=20)
        process.kill()
        held.release()
        with contextlib.suppress(InteractionError, TimeoutError):
            await order
        assert prompts(loopback, channel) == [first], "Discord never took the ping"
        async with await Database.open(database) as db:
            record = await db.battles.in_channel(guild.id, channel.id)
            assert record is not None
            [event] = await db.events.list(record.id, limit=1)
            assert (event.kind, event.actor_id) == ("hold", player.id), "the order was committed"
            [owed] = [row for row in await db.outbox.owed(record.id) if row.kind == "turn"]
            assert owed.attempts == 1 and owed.leased_until is not None, "claimed, then the process died"

        process.start()
        await loopback.wait_for_shards({0})
        await wait_for(lambda: len(prompts(loopback, channel)) == 2, "the owed turn ping after restart")
        pinged = prompts(loopback, channel)[-1]
        assert "Angels" in pinged.content and pinged.pings.users == {gm.id}
        await asyncio.sleep(3.0)  # a second ping, were there one, would come by now: the loop polls every 2 s
        assert len(prompts(loopback, channel)) == 2, "posted once"
        assert await process.shut_down() == 0
        async with await Database.open(database) as db:
            done = await db.outbox.get(owed.id)
            assert done is not None and (done.outcome, done.attempts) == ("sent", 2)
            assert [row for row in await db.outbox.owed(record.id) if row.kind == "turn"] == []
        assert errors_in([process]) == []
    finally:
        await process.shut_down()
