"""Settling waits for the bot to read its events without spending the bot's gateway send budget."""

from __future__ import annotations

from loopback import LoopbackDiscord

from .demo_bot import DemoBot

# discord.py's GatewayRatelimiter lets a client send 110 frames a minute, then sleeps out the minute while
# holding its read loop; more settles than that in one minute must still cost the bot nothing.
SETTLES = 150


async def test_settling_often_never_rate_limits_the_bot() -> None:
    """Settle far more often than discord.py may send in a minute; each settle still sees the event it waited on."""
    async with LoopbackDiscord(settle=0.002) as stand_in:
        await stand_in.start_bot(DemoBot())
        bot = stand_in.bot
        assert bot is not None
        for n in range(SETTLES):
            channel = stand_in.add_channel(stand_in.guild, f"room-{n}")
            await stand_in.settle()
            assert bot.get_channel(channel.id) is not None, f"settle #{n + 1} returned before the bot saw its event"
            assert not bot.is_ws_ratelimited(), f"settle #{n + 1} left the bot rate-limited on the gateway"
        assert (await stand_in.slash("demo ping")).content == "pong"
        await stand_in.stop_bot()


async def test_settle_waits_for_events_sent_while_the_bot_is_busy(running: LoopbackDiscord) -> None:
    """A burst of events sent in one go is fully parsed by the time settle returns."""
    channels = [running.add_channel(running.guild, f"burst-{n}") for n in range(40)]
    await running.settle()
    assert running.bot is not None
    assert all(running.bot.get_channel(c.id) is not None for c in channels)
