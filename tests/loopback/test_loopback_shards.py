"""Sharding: a bot process that runs some shards hears only their guilds, as on Discord."""

from __future__ import annotations

import discord
import pytest
from discord.ext import commands

from loopback import InteractionError, LoopbackDiscord

from .demo_cog import DemoCog


class ShardedDemo(commands.AutoShardedBot):
    """The demo commands on an AutoShardedBot running the given shards."""

    def __init__(self, shard_ids: list[int], shard_count: int) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         guild_ready_timeout=0.05, shard_ids=shard_ids, shard_count=shard_count,
                         allowed_mentions=discord.AllowedMentions.none())

    async def setup_hook(self) -> None:
        """Load the demo cog and sync globally."""
        await self.add_cog(DemoCog(self))  # type: ignore[arg-type]
        await self.tree.sync()


def shard_of(guild_id: int, count: int) -> int:
    """Discord's formula: which shard receives a guild's events."""
    return (guild_id >> 22) % count


async def test_guild_ids_can_be_placed_on_a_shard(loopback: LoopbackDiscord) -> None:
    for count in (2, 3, 8):
        for shard in range(count):
            assert shard_of(loopback.add_guild(f"g{shard}/{count}", shard=(shard, count)).id, count) == shard


async def test_a_bot_running_one_shard_hears_only_that_shards_guilds(loopback: LoopbackDiscord) -> None:
    ours = loopback.add_guild("Shard one", shard=(1, 2))
    theirs = loopback.add_guild("Shard zero", shard=(0, 2))
    alice = loopback.add_user("alice", guild=ours)
    bob = loopback.add_user("bob", guild=theirs)
    bot = ShardedDemo(shard_ids=[1], shard_count=2)
    await loopback.start_bot(bot)

    expected = {g.id for g in (ours, theirs, loopback.guild) if shard_of(g.id, 2) == 1}
    assert {g.id for g in bot.guilds} == expected
    assert [s.shard for s in loopback.server.gateway.identified_sessions()] == [(1, 2)]

    reply = await loopback.slash("demo ping", user=alice, channel=ours.channel("general"))
    assert reply.content == "pong"
    with pytest.raises(InteractionError, match="no connected bot serves the shard"):
        await loopback.slash("demo ping", user=bob, channel=theirs.channel("general"))
    # Direct messages belong to shard 0, which this process does not run.
    with pytest.raises(InteractionError, match="no connected bot serves the shard"):
        await loopback.slash("demo ping", user=alice, channel=loopback.dm_channel(alice))


async def test_an_unsharded_bot_still_hears_every_guild(loopback: LoopbackDiscord) -> None:
    other = loopback.add_guild("Elsewhere", shard=(1, 2))
    user = loopback.add_user("carol", guild=other)
    bot = ShardedDemo(shard_ids=[0, 1], shard_count=2)
    await loopback.start_bot(bot)
    assert {g.id for g in bot.guilds} == {other.id, loopback.guild.id}
    assert (await loopback.slash("demo ping", user=user, channel=other.channel("general"))).content == "pong"
    assert (await loopback.slash("demo ping", user=user, channel=loopback.dm_channel(user))).content == "pong"
