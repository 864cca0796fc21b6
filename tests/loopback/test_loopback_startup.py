"""The real discord.py client logs in, connects and syncs against the stand-in."""

from __future__ import annotations

import aiohttp
import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from loopback import ErrorLogCapture, InteractionError, LoopbackDiscord

from .demo_bot import DemoBot


async def test_bot_sees_the_default_guild_and_its_identity(running: LoopbackDiscord) -> None:
    bot = running.bot
    assert bot is not None
    assert bot.user is not None and bot.user.id == running.world.bot_user.id
    assert bot.application_id == running.world.application_id
    [guild] = bot.guilds
    assert guild.name == "Test Server"
    assert [c.name for c in guild.text_channels] == ["general"]
    assert guild.me.guild_permissions.send_messages


async def test_synced_schema_is_stored(running: LoopbackDiscord) -> None:
    synced = running.commands()
    assert {"demo", "gm", "roll", "pick", "map", "counter"} <= set(synced)
    assert synced["gm"]["default_member_permissions"] == str(1 << 5)
    demo_options = {o["name"]: o["type"] for o in synced["demo"]["options"]}
    assert demo_options == {"ping": 1, "echo": 1, "admin": 2}
    roll = {o["name"]: o for o in synced["roll"]["options"]}
    assert (roll["sides"]["type"], roll["sides"]["min_value"], roll["sides"]["max_value"]) == (4, 2, 100)
    assert roll["who"]["type"] == 6
    assert running.commands(running.guild) == {}


async def test_urls_are_patched_while_open_and_restored_after() -> None:
    before = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    async with LoopbackDiscord() as stand_in:
        assert Route.BASE == f"{stand_in.server.base_url}/api/v10"
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == stand_in.server.gateway_url
        with pytest.raises(RuntimeError, match="another LoopbackDiscord"):
            await LoopbackDiscord().start()
    assert (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY) == before


async def test_json_content_type_is_exact_and_unknown_routes_are_recorded(
    loopback: LoopbackDiscord, logged_errors: ErrorLogCapture
) -> None:
    loopback.server.token = "secret"
    headers = {"Authorization": "Bot secret"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.get(f"{loopback.server.base_url}/api/v10/users/@me") as response:
            assert response.headers["Content-Type"] == "application/json"
            assert (await response.json())["username"] == "battlepost"
        async with session.get(f"{loopback.server.base_url}/api/v10/guilds/1/audit-logs") as response:
            assert response.status == 404
            assert await response.json() == {"message": "404: Not Found", "code": 0}
        async with session.get(
            f"{loopback.server.base_url}/api/v10/users/@me", headers={"Authorization": "Bot wrong"}
        ) as response:
            assert response.status == 401
    assert loopback.unknown_routes == ["GET /guilds/1/audit-logs"]
    [record] = logged_errors.take()
    assert "no route for GET /guilds/1/audit-logs" in record.getMessage()


async def test_guild_synced_commands_are_offered_only_in_that_guild(loopback: LoopbackDiscord) -> None:
    other = loopback.add_guild("Other Server")
    alice = loopback.add_user("alice")
    loopback.join(alice, other)
    await loopback.start_bot(DemoBot(guild_id=loopback.guild.id))
    assert loopback.commands() == {}
    assert "roll" in loopback.commands(loopback.guild)
    reply = await loopback.slash("demo ping", user=alice)
    assert reply.content == "pong"
    with pytest.raises(InteractionError, match="not a synced command"):
        await loopback.slash("demo ping", user=alice, channel=other.channel("general"))


async def test_members_are_cached_only_with_the_members_intent(loopback: LoopbackDiscord) -> None:
    alice = loopback.add_user("alice")
    await loopback.start_bot(DemoBot())
    assert loopback.bot is not None
    assert loopback.bot.guilds[0].get_member(alice.id) is None
    await loopback.stop_bot()
    await loopback.start_bot(DemoBot(members_intent=True))
    assert loopback.bot is not None
    member = loopback.bot.guilds[0].get_member(alice.id)
    assert member is not None and member.name == "alice"


async def test_channels_and_roles_added_while_running_reach_the_bot(running: LoopbackDiscord) -> None:
    channel = running.add_channel(running.guild, "battle-1", topic="Siege")
    role = running.add_role(running.guild, "GM")
    await running.settle()
    assert running.bot is not None
    guild = running.bot.guilds[0]
    seen = guild.get_channel(channel.id)
    assert seen is not None and seen.name == "battle-1"
    assert guild.get_role(role.id) is not None


class BrokenBot(DemoBot):
    """Fail while starting, as a bot with a bad configuration would."""

    async def setup_hook(self) -> None:
        """Refuse to start."""
        raise ValueError("bad configuration")


async def test_a_bot_that_fails_to_start_raises_its_own_error(loopback: LoopbackDiscord) -> None:
    with pytest.raises(ValueError, match="bad configuration"):
        await loopback.start_bot(BrokenBot())
    assert loopback.bot is None
    await loopback.start_bot(DemoBot())
    assert (await loopback.slash("demo ping")).content == "pong"
