"""Set up the stand-in's world (guilds, users, roles, channels) and read back what the bot sent."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from loopback.models import (
    GUILD_TEXT,
    LoopbackChannel,
    LoopbackGuild,
    LoopbackRole,
    LoopbackUser,
    Membership,
    StoredMessage,
)
from loopback.payloads import DEFAULT_EVERYONE_PERMISSIONS
from loopback.server import Fault, Hold, LoopbackServer, RecordedRequest
from loopback.world import World

log = logging.getLogger(__name__)


def permission_bits(permissions: int | discord.Permissions) -> int:
    """Return a permission bitfield from an int or a discord.Permissions."""
    return permissions.value if isinstance(permissions, discord.Permissions) else int(permissions)


class Roster:
    """Create guilds, users, roles and channels, and tell a connected bot about them."""

    def __init__(self, world: World, server: LoopbackServer, bot_permissions: int, guild_name: str,
                 guild_id: int | None = None) -> None:
        self.world = world
        self.server = server
        self._bot_permissions = bot_permissions
        self._outbox: list[Callable[[], Awaitable[None]]] = []
        self._default_user: LoopbackUser | None = None
        self.guild = self.add_guild(guild_name, id=guild_id)
        self.general = self.guild.channel("general")

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None, id: int | None = None) -> LoopbackGuild:
        """Create a guild with @everyone, a #general channel and the bot as a member with its own role.

        shard=(id, count) picks the guild's id so that a bot with that many shards serves it on that shard;
        `id` gives it a known id (a console resuming yesterday's server).
        """
        world = self.world
        guild_id = id if id is not None else world.new_id() if shard is None else world.new_id.on_shard(*shard)
        guild = LoopbackGuild(id=guild_id, name=name, owner_id=world.new_id())
        guild.roles[guild.id] = LoopbackRole(
            id=guild.id,
            guild_id=guild.id,
            name="@everyone",
            permissions=DEFAULT_EVERYONE_PERMISSIONS,
            position=0,
        )
        bot_role = LoopbackRole(
            id=world.new_id(),
            guild_id=guild.id,
            name=world.bot_user.name,
            permissions=self._bot_permissions,
            managed=True,
            bot_id=world.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[world.bot_user.id] = Membership(user_id=world.bot_user.id, roles=[bot_role.id])
        world.guilds[guild.id] = guild
        world.add_channel(LoopbackChannel(id=world.new_id(), name="general", guild_id=guild.id))
        self._later(lambda: self.server.announce.guild_created(guild))
        return guild

    def add_user(
        self,
        name: str,
        *,
        guild: LoopbackGuild | None = None,
        roles: tuple[LoopbackRole, ...] | list[LoopbackRole] = (),
        bot: bool = False,
        id: int | None = None,
        **permissions: bool,
    ) -> LoopbackUser:
        """Create a user in a guild (default: the test server); permission flags come via a personal role."""
        user = LoopbackUser(id=id if id is not None else self.world.new_id(), name=name, bot=bot)
        self.world.users[user.id] = user
        self.join(user, guild or self.guild, roles=roles)
        if permissions:
            # Discord grants permissions only through roles, so flags become a role of the user's own.
            value = discord.Permissions(**permissions).value
            role = self.add_role(guild or self.guild, f"{name} permissions", permissions=value)
            self.give_role(user, role)
        return user

    def join(
        self,
        user: LoopbackUser,
        guild: LoopbackGuild,
        *,
        roles: tuple[LoopbackRole, ...] | list[LoopbackRole] = (),
    ) -> None:
        """Make an existing user a member of another guild."""
        guild.members[user.id] = Membership(user_id=user.id, roles=[r.id for r in roles])
        self._later(lambda: self.server.announce.member_added(guild, user.id))

    def add_role(
        self,
        guild: LoopbackGuild,
        name: str,
        *,
        permissions: int | discord.Permissions = 0,
        mentionable: bool = False,
        color: int = 0,
    ) -> LoopbackRole:
        """Create a role in a guild."""
        role = LoopbackRole(
            id=self.world.new_id(),
            guild_id=guild.id,
            name=name,
            permissions=permission_bits(permissions),
            position=len(guild.roles),
            mentionable=mentionable,
            color=color,
        )
        guild.roles[role.id] = role
        self._later(lambda: self.server.announce.role_created(guild, role.id))
        return role

    def give_role(self, user: LoopbackUser, role: LoopbackRole) -> None:
        """Add a role to a user's membership in the role's guild."""
        guild = self.world.guilds[role.guild_id]
        membership = guild.members.get(user.id)
        if membership is None:
            raise KeyError(f"{user.name} is not a member of {guild.name!r}")
        if role.id not in membership.roles:
            membership.roles.append(role.id)
            self._later(lambda: self.server.announce.member_updated(guild, user.id))

    def take_role(self, user: LoopbackUser, role: LoopbackRole) -> None:
        """Remove a role from a user's membership."""
        guild = self.world.guilds[role.guild_id]
        membership = guild.members[user.id]
        if role.id in membership.roles:
            membership.roles.remove(role.id)
            self._later(lambda: self.server.announce.member_updated(guild, user.id))

    def add_channel(
        self,
        guild: LoopbackGuild,
        name: str,
        *,
        type: int = GUILD_TEXT,
        topic: str | None = None,
        parent: LoopbackChannel | None = None,
        id: int | None = None,
    ) -> LoopbackChannel:
        """Create a channel (or, with parent and a thread type, a thread) in a guild; `id` gives a known id."""
        channel = LoopbackChannel(
            id=id if id is not None else self.world.new_id(),
            name=name,
            type=type,
            guild_id=guild.id,
            parent_id=parent.id if parent is not None else None,
            position=len(guild.channels),
            topic=topic,
            owner_id=self.world.bot_user.id if parent is not None else None,
        )
        self.world.add_channel(channel)
        self._later(lambda: self.server.announce.channel_created(channel, newly_created=False))
        return channel

    def channel(self, name: str, guild: LoopbackGuild | None = None) -> LoopbackChannel:
        """Return a channel or thread by name (default: in the test server)."""
        return (guild or self.guild).channel(name)

    def dm_channel(self, user: LoopbackUser) -> LoopbackChannel:
        """Return the DM channel between the bot and a user, for commands used in DMs."""
        return self.world.dm_channel(user)

    def threads(self, parent: LoopbackChannel) -> list[LoopbackChannel]:
        """Return the threads started under a channel, oldest first."""
        return [c for c in self.world.channels.values() if c.is_thread and c.parent_id == parent.id]

    @property
    def default_user(self) -> LoopbackUser:
        """Return the user acting when none is given, created on first use."""
        if self._default_user is None:
            self._default_user = self.add_user("tester")
        return self._default_user

    def _later(self, announce: Callable[[], Awaitable[None]]) -> None:
        # Setup methods are synchronous; their gateway events go out before the next async call.
        if self.server.gateway.identified_sessions():
            self._outbox.append(announce)

    async def _flush(self) -> None:
        while self._outbox:
            await self._outbox.pop(0)()

    # Looking at what the bot did

    def messages(
        self, channel: LoopbackChannel | int, *, include_ephemeral: bool = False
    ) -> list[StoredMessage]:
        """Return a channel's (or thread's) live messages, oldest first."""
        channel_id = channel if isinstance(channel, int) else channel.id
        return self.world.messages_in(channel_id, include_ephemeral=include_ephemeral)

    def dm_messages(self, user: LoopbackUser) -> list[StoredMessage]:
        """Return the messages in the bot's DM channel with a user."""
        channel_id = self.world.dm_channels.get(user.id)
        return [] if channel_id is None else self.world.messages_in(channel_id)

    def can_read(self, user: LoopbackUser, channel: LoopbackChannel) -> bool:
        """Say whether a member reads a channel: a private thread only its members (and the bot) read."""
        return not channel.is_private_thread or user.id in channel.members

    def deny_bot(self, channel: LoopbackChannel, *permissions: str) -> None:
        """Take permissions (`create_private_threads`, ...) from the bot in a channel; Discord then answers 403."""
        channel.bot_denied.update(permissions)

    def message(self, message_id: int) -> StoredMessage:
        """Return any stored message by id (including deleted and ephemeral ones)."""
        return self.world.messages[message_id]

    def commands(self, guild: LoopbackGuild | None = None) -> dict[str, dict[str, Any]]:
        """Return the chat-input command schemas the bot synced, by name (global when guild is None)."""
        return {
            c["name"]: c for c in self.world.commands.get(guild.id if guild else None, []) if c["type"] == 1
        }

    @property
    def unknown_routes(self) -> list[str]:
        """Return 'METHOD /path' for each request the stand-in could not route."""
        return self.server.unknown_routes

    @property
    def server_errors(self) -> list[str]:
        """Return the failures inside the stand-in's own handlers."""
        return self.server.server_errors

    def fail(self, method: str, path: str, *, status: int, code: int = 0, message: str = "", times: int = 1,
             retry_after: float = 1.0) -> None:
        """Make the next `times` requests like `POST /channels/1/messages` fail as Discord can (5xx, 403, 413, 429)."""
        self.server.faults.append(Fault(method, path, status, code, message or f"{status} error", times, retry_after))

    def hold(self, method: str, path: str) -> Hold:
        """Make the next request like `POST /channels/1/messages` hang until released, then fail it unperformed."""
        held = Hold(method, path, asyncio.Event(), asyncio.Event())
        self.server.holds.append(held)
        return held

    @property
    def rejections(self) -> list[str]:
        """Return the requests answered with a 4xx Discord would also send (limits, bad callbacks)."""
        return self.server.rejections

    @property
    def requests(self) -> list[RecordedRequest]:
        """Return the recent requests the bot made (method, path, status)."""
        return list(self.server.requests)
