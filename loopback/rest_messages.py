"""Serve the REST routes for channel messages: send, read, edit, delete, pin, react, type."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import unquote

from aiohttp import web

from loopback.events import Announcer
from loopback.messages import apply_body, read_body
from loopback.models import LoopbackChannel, MessageBody, StoredMessage, utcnow
from loopback.payloads import message_payload
from loopback.responses import (
    CANNOT_EDIT_OTHERS,
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    DiscordHTTPError,
    json_response,
    no_content,
    not_found,
    snowflake,
)
from loopback.world import World

log = logging.getLogger(__name__)

# Discord's system message type for "X pinned a message to this channel".
CHANNEL_PINNED_MESSAGE = 6


class MessageRoutes:
    """Answer channel message requests the bot makes outside interactions."""

    def __init__(self, world: World, announcer: Announcer) -> None:
        self.world = world
        self.announce = announcer

    def routes(self) -> list[web.RouteDef]:
        """Return this group's routes, relative to the API prefix."""
        one = "/channels/{channel_id}/messages/{message_id}"
        return [
            web.get("/channels/{channel_id}/messages", self.list_messages),
            web.post("/channels/{channel_id}/messages", self.create_message),
            web.post("/channels/{channel_id}/messages/bulk-delete", self.bulk_delete),
            web.get("/channels/{channel_id}/messages/pins", self.list_pins),
            web.put("/channels/{channel_id}/messages/pins/{message_id}", self.pin),
            web.delete("/channels/{channel_id}/messages/pins/{message_id}", self.unpin),
            # The pre-2025 pin routes, still accepted so older clients work too.
            web.get("/channels/{channel_id}/pins", self.list_pins_legacy),
            web.put("/channels/{channel_id}/pins/{message_id}", self.pin),
            web.delete("/channels/{channel_id}/pins/{message_id}", self.unpin),
            web.get(one, self.get_message),
            web.patch(one, self.edit_message),
            web.delete(one, self.delete_message),
            web.put(one + "/reactions/{emoji}/@me", self.add_reaction),
            web.delete(one + "/reactions/{emoji}/@me", self.remove_reaction),
            web.delete(one + "/reactions", self.clear_reactions),
            web.post("/channels/{channel_id}/typing", self.typing),
        ]

    def _channel(self, request: web.Request) -> LoopbackChannel:
        channel = self.world.channels.get(snowflake(request, "channel_id"))
        if channel is None:
            raise not_found("Channel", UNKNOWN_CHANNEL)
        return channel

    def _message(self, request: web.Request) -> StoredMessage:
        channel = self._channel(request)
        message = self.world.messages.get(snowflake(request, "message_id"))
        if message is None or message.channel_id != channel.id or message.deleted:
            raise not_found("Message", UNKNOWN_MESSAGE)
        if message.ephemeral:
            # Ephemeral messages live only in the interaction webhook; the channel routes cannot see them.
            raise not_found("Message", UNKNOWN_MESSAGE)
        return message

    def _payload(self, message: StoredMessage) -> dict[str, Any]:
        return message_payload(message, self.world)

    async def create_message(self, request: web.Request) -> web.Response:
        """Post a message in a channel, thread or DM."""
        channel = self._channel(request)
        if channel.is_thread and channel.locked:
            raise DiscordHTTPError(403, "Thread is locked", 50083)
        body = await read_body(request)
        if channel.is_thread and channel.archived:
            # Sending in an archived (unlocked) thread reopens it, as Discord does.
            channel.archived = False
            await self.announce.channel_updated(channel)
        message = self.world.create_message(channel.id, body)
        await self.announce.message_created(message)
        return json_response(self._payload(message))

    async def list_messages(self, request: web.Request) -> web.Response:
        """Return channel history, newest first, honouring limit/before/after."""
        channel = self._channel(request)
        limit = int(request.query.get("limit", "50"))
        messages = self.world.messages_in(channel.id)
        if "before" in request.query:
            before = int(request.query["before"])
            messages = [m for m in messages if m.id < before]
        if "after" in request.query:
            after = int(request.query["after"])
            # Discord returns the messages right after the anchor, still newest first.
            messages = [m for m in messages if m.id > after][:limit]
        if "around" in request.query:
            around = int(request.query["around"])
            older = [m for m in messages if m.id <= around][-(limit // 2 + 1) :]
            newer = [m for m in messages if m.id > around][: limit - len(older)]
            messages = older + newer
        newest_first = list(reversed(messages))[:limit]
        return json_response([self._payload(m) for m in newest_first])

    async def get_message(self, request: web.Request) -> web.Response:
        """Return one message."""
        return json_response(self._payload(self._message(request)))

    async def edit_message(self, request: web.Request) -> web.Response:
        """Edit one of the bot's own messages."""
        message = self._message(request)
        body = await read_body(request)
        if message.author_id != self.world.bot_user.id:
            # Discord lets a bot change only the flags (suppress embeds) of someone else's message.
            if set(body.json) - {"flags"} or body.files:
                raise DiscordHTTPError(
                    403, "Cannot edit a message authored by another user", CANNOT_EDIT_OTHERS
                )
        apply_body(message, body, self.world, creating=False)
        await self.announce.message_updated(message)
        return json_response(self._payload(message))

    async def delete_message(self, request: web.Request) -> web.Response:
        """Delete a message."""
        message = self._message(request)
        message.deleted = True
        await self.announce.message_deleted(message)
        return no_content()

    async def bulk_delete(self, request: web.Request) -> web.Response:
        """Delete several messages of one channel."""
        channel = self._channel(request)
        data = (await read_body(request)).json
        for raw_id in data.get("messages", []):
            message = self.world.messages.get(int(raw_id))
            if message is not None and message.channel_id == channel.id and not message.deleted:
                message.deleted = True
                await self.announce.message_deleted(message)
        return no_content()

    async def pin(self, request: web.Request) -> web.Response:
        """Pin a message and post Discord's 'pinned a message' system notice."""
        message = self._message(request)
        if not message.pinned:
            message.pinned = True
            await self.announce.message_updated(message)
            notice = self.world.create_message(
                message.channel_id,
                MessageBody(json={"content": ""}),
                allow_empty=True,
                type=CHANNEL_PINNED_MESSAGE,
                message_reference={"message_id": str(message.id), "channel_id": str(message.channel_id)},
            )
            await self.announce.message_created(notice)
        return no_content()

    async def unpin(self, request: web.Request) -> web.Response:
        """Unpin a message."""
        message = self._message(request)
        if message.pinned:
            message.pinned = False
            await self.announce.message_updated(message)
        return no_content()

    async def list_pins(self, request: web.Request) -> web.Response:
        """Return pinned messages in the current format: items with pinned_at."""
        channel = self._channel(request)
        pinned = [m for m in reversed(self.world.messages_in(channel.id)) if m.pinned]
        items = [{"pinned_at": utcnow().isoformat(), "message": self._payload(m)} for m in pinned]
        return json_response({"items": items, "has_more": False})

    async def list_pins_legacy(self, request: web.Request) -> web.Response:
        """Return pinned messages as a plain list (the older route)."""
        channel = self._channel(request)
        pinned = [m for m in reversed(self.world.messages_in(channel.id)) if m.pinned]
        return json_response([self._payload(m) for m in pinned])

    async def add_reaction(self, request: web.Request) -> web.Response:
        """Record a reaction the bot added."""
        message = self._message(request)
        emoji = unquote(request.match_info["emoji"])
        if emoji not in message.reactions:
            message.reactions.append(emoji)
        return no_content()

    async def remove_reaction(self, request: web.Request) -> web.Response:
        """Remove a reaction the bot added."""
        message = self._message(request)
        emoji = unquote(request.match_info["emoji"])
        if emoji in message.reactions:
            message.reactions.remove(emoji)
        return no_content()

    async def clear_reactions(self, request: web.Request) -> web.Response:
        """Remove every reaction from a message."""
        self._message(request).reactions.clear()
        return no_content()

    async def typing(self, request: web.Request) -> web.Response:
        """Accept a typing indicator."""
        self._channel(request)
        return no_content()
