"""Tell the connected bot about changes, as the gateway events Discord would send for them."""

from __future__ import annotations

import logging

from loopback.gateway import DIRECT_MESSAGES, GUILD_MEMBERS, GUILD_MESSAGES, MESSAGE_CONTENT, Gateway
from loopback.models import LoopbackChannel, LoopbackGuild, StoredMessage
from loopback.payloads import (
    channel_payload,
    guild_payload,
    member_payload,
    message_payload,
    role_payload,
)
from loopback.world import World

log = logging.getLogger(__name__)


class Announcer:
    """Dispatch gateway events for messages, channels, roles and members, honouring intents."""

    def __init__(self, world: World, gateway: Gateway) -> None:
        self.world = world
        self.gateway = gateway

    def _message_intent(self, message: StoredMessage) -> int:
        return GUILD_MESSAGES if message.guild_id is not None else DIRECT_MESSAGES

    async def message_created(self, message: StoredMessage) -> None:
        """Send MESSAGE_CREATE for a public message, hiding content the bot may not read."""
        if message.ephemeral:
            return
        payload = message_payload(message, self.world)
        if message.guild_id is not None:
            payload["guild_id"] = str(message.guild_id)
        for session in self.gateway.sessions_for(message.guild_id):
            if not session.intents & self._message_intent(message):
                continue
            event = dict(payload)
            if not self._may_read(message, session.intents):
                # Without the message content intent Discord blanks other users' messages.
                event.update({"content": "", "embeds": [], "attachments": [], "components": []})
            await session.dispatch("MESSAGE_CREATE", event)

    async def message_updated(self, message: StoredMessage) -> None:
        """Send MESSAGE_UPDATE for a public message."""
        if message.ephemeral:
            return
        for session in self.gateway.sessions_for(message.guild_id):
            if not session.intents & self._message_intent(message):
                continue
            event = message_payload(message, self.world)
            if not self._may_read(message, session.intents):
                event.update({"content": "", "embeds": [], "attachments": [], "components": []})
            await session.dispatch("MESSAGE_UPDATE", event)

    async def message_deleted(self, message: StoredMessage) -> None:
        """Send MESSAGE_DELETE for a public message."""
        if message.ephemeral:
            return
        data = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        await self.gateway.dispatch("MESSAGE_DELETE", data, intent=self._message_intent(message))

    async def channel_created(self, channel: LoopbackChannel, *, newly_created: bool = True) -> None:
        """Send CHANNEL_CREATE, or THREAD_CREATE for a thread."""
        if channel.guild_id is None:
            return
        payload = channel_payload(channel, self.world)
        if channel.is_thread:
            payload["newly_created"] = newly_created
            await self.gateway.dispatch("THREAD_CREATE", payload)
        else:
            await self.gateway.dispatch("CHANNEL_CREATE", payload)

    async def channel_updated(self, channel: LoopbackChannel) -> None:
        """Send CHANNEL_UPDATE, or THREAD_UPDATE for a thread."""
        if channel.guild_id is None:
            return
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        await self.gateway.dispatch(event, channel_payload(channel, self.world))

    async def channel_deleted(self, channel: LoopbackChannel) -> None:
        """Send CHANNEL_DELETE, or THREAD_DELETE for a thread."""
        if channel.guild_id is None:
            return
        if channel.is_thread:
            data = {
                "id": str(channel.id),
                "guild_id": str(channel.guild_id),
                "parent_id": str(channel.parent_id),
                "type": channel.type,
            }
            await self.gateway.dispatch("THREAD_DELETE", data)
        else:
            await self.gateway.dispatch("CHANNEL_DELETE", channel_payload(channel, self.world))

    async def role_created(self, guild: LoopbackGuild, role_id: int) -> None:
        """Send GUILD_ROLE_CREATE."""
        role = guild.roles[role_id]
        await self.gateway.dispatch(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role_payload(role)}
        )

    async def guild_created(self, guild: LoopbackGuild) -> None:
        """Send GUILD_CREATE for a guild the bot joined while connected."""
        for session in self.gateway.sessions_for(guild.id):
            all_members = bool(session.intents & GUILD_MEMBERS)
            await session.dispatch("GUILD_CREATE", guild_payload(guild, self.world, all_members=all_members))

    async def member_added(self, guild: LoopbackGuild, user_id: int) -> None:
        """Send GUILD_MEMBER_ADD (only bots with the members intent receive it)."""
        payload = member_payload(guild, guild.members[user_id], self.world.users[user_id])
        payload["guild_id"] = str(guild.id)
        await self.gateway.dispatch("GUILD_MEMBER_ADD", payload, intent=GUILD_MEMBERS)

    async def member_updated(self, guild: LoopbackGuild, user_id: int) -> None:
        """Send GUILD_MEMBER_UPDATE (only bots with the members intent receive it)."""
        payload = member_payload(guild, guild.members[user_id], self.world.users[user_id])
        payload["guild_id"] = str(guild.id)
        await self.gateway.dispatch("GUILD_MEMBER_UPDATE", payload, intent=GUILD_MEMBERS)

    def _may_read(self, message: StoredMessage, intents: int) -> bool:
        if intents & MESSAGE_CONTENT or message.author_id == self.world.bot_user.id:
            return True
        if message.guild_id is None:
            return True
        return self.world.bot_user.id in message.pings.users
