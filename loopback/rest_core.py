"""Serve the REST routes for identity, application commands, guilds, channels, threads and DMs."""

from __future__ import annotations

import logging
from typing import Any

from aiohttp import web

from loopback.events import Announcer
from loopback.messages import read_body
from loopback.models import (
    GUILD_FORUM,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    LoopbackChannel,
    LoopbackGuild,
    MessageBody,
    utcnow,
)
from loopback.payloads import channel_payload, guild_payload, member_payload, role_payload, user_payload
from loopback.responses import (
    MISSING_PERMISSIONS,
    UNKNOWN_CHANNEL,
    UNKNOWN_COMMAND,
    UNKNOWN_GUILD,
    UNKNOWN_MEMBER,
    UNKNOWN_MESSAGE,
    UNKNOWN_ROLE,
    UNKNOWN_USER,
    WRONG_CHANNEL_TYPE,
    DiscordHTTPError,
    json_response,
    no_content,
    not_found,
    snowflake,
)
from loopback.world import World

log = logging.getLogger(__name__)


class CoreRoutes:
    """Answer identity, command-sync, guild, member, role, channel, thread and DM requests."""

    def __init__(self, world: World, announcer: Announcer) -> None:
        self.world = world
        self.announce = announcer

    def routes(self) -> list[web.RouteDef]:
        """Return this group's routes, relative to the API prefix."""
        app = "/applications/{application_id}"
        return [
            web.get("/users/@me", self.get_me),
            web.post("/users/@me/channels", self.open_dm),
            web.get("/users/{user_id}", self.get_user),
            web.get("/oauth2/applications/@me", self.get_application),
            web.get("/applications/@me", self.get_application),
            web.get("/gateway", self.get_gateway),
            web.get("/gateway/bot", self.get_gateway),
            web.get(app + "/commands", self.list_commands),
            web.put(app + "/commands", self.put_commands),
            web.post(app + "/commands", self.upsert_command),
            web.get(app + "/commands/{command_id}", self.get_command),
            web.delete(app + "/commands/{command_id}", self.delete_command),
            web.get(app + "/guilds/{guild_id}/commands", self.list_commands),
            web.put(app + "/guilds/{guild_id}/commands", self.put_commands),
            web.post(app + "/guilds/{guild_id}/commands", self.upsert_command),
            web.get(app + "/guilds/{guild_id}/commands/{command_id}", self.get_command),
            web.delete(app + "/guilds/{guild_id}/commands/{command_id}", self.delete_command),
            web.get("/guilds/{guild_id}", self.get_guild),
            web.get("/guilds/{guild_id}/channels", self.list_guild_channels),
            web.get("/guilds/{guild_id}/roles", self.list_roles),
            web.get("/guilds/{guild_id}/roles/{role_id}", self.get_role),
            web.get("/guilds/{guild_id}/members", self.list_members),
            web.get("/guilds/{guild_id}/members/{user_id}", self.get_member),
            web.put("/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self.add_member_role),
            web.delete("/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self.remove_member_role),
            web.get("/guilds/{guild_id}/threads/active", self.list_active_threads),
            web.get("/channels/{channel_id}", self.get_channel),
            web.patch("/channels/{channel_id}", self.edit_channel),
            web.delete("/channels/{channel_id}", self.delete_channel),
            web.post("/channels/{channel_id}/threads", self.create_thread),
            web.post("/channels/{channel_id}/messages/{message_id}/threads", self.create_thread_from_message),
            web.put("/channels/{channel_id}/thread-members/{user_id}", self.thread_member_changed),
            web.delete("/channels/{channel_id}/thread-members/{user_id}", self.thread_member_changed),
        ]

    # Identity

    async def get_me(self, request: web.Request) -> web.Response:
        """Return the bot user (discord.py's login check)."""
        return json_response({**user_payload(self.world.bot_user), "verified": True, "mfa_enabled": False})

    async def get_user(self, request: web.Request) -> web.Response:
        """Return any known user."""
        user = self.world.users.get(snowflake(request, "user_id"))
        if user is None:
            raise not_found("User", UNKNOWN_USER)
        return json_response(user_payload(user))

    async def get_application(self, request: web.Request) -> web.Response:
        """Return the application, whose id becomes the bot's application id."""
        world = self.world
        return json_response(
            {
                "id": str(world.application_id),
                "name": world.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": {"id": "1", "username": "loopback-owner", "discriminator": "0", "avatar": None},
                "team": None,
                "bot": user_payload(world.bot_user),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
                "approximate_guild_count": len(world.guilds),
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        """Return the gateway URL (used by sharded clients)."""
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.announce.gateway.url, "shards": 1, "session_start_limit": limit})

    # Application commands

    def _scope(self, request: web.Request) -> int | None:
        if snowflake(request, "application_id") != self.world.application_id:
            raise DiscordHTTPError(403, "Missing Access", 50001)
        if "guild_id" not in request.match_info:
            return None
        guild_id = snowflake(request, "guild_id")
        if guild_id not in self.world.guilds:
            raise DiscordHTTPError(403, "Missing Access", 50001)
        return guild_id

    def _stored_command(self, scope: int | None, schema: dict[str, Any]) -> dict[str, Any]:
        kind = schema.get("type", 1)
        previous = next(
            (
                c
                for c in self.world.commands.get(scope, [])
                if c["name"] == schema["name"] and c["type"] == kind
            ),
            None,
        )
        stored = {
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **schema,
            "id": previous["id"] if previous is not None else str(self.world.new_id()),
            "application_id": str(self.world.application_id),
            "type": kind,
            "version": str(self.world.new_id()),
        }
        if stored["default_member_permissions"] is not None:
            # discord.py sends an integer; Discord stores and returns the bitfield as a string.
            stored["default_member_permissions"] = str(stored["default_member_permissions"])
        if scope is not None:
            stored["guild_id"] = str(scope)
        return stored

    async def list_commands(self, request: web.Request) -> web.Response:
        """Return the commands synced for this scope."""
        return json_response(self.world.commands.get(self._scope(request), []))

    async def put_commands(self, request: web.Request) -> web.Response:
        """Replace every command of this scope, as tree.sync() does."""
        scope = self._scope(request)
        schemas = (await read_body(request)).json
        if not isinstance(schemas, list):
            raise DiscordHTTPError(400, "Invalid Form Body: expected a list of commands", 50035)
        stored = [self._stored_command(scope, schema) for schema in schemas]
        self.world.commands[scope] = stored
        self.world.command_syncs += 1
        log.debug("synced %d commands to %s", len(stored), "global" if scope is None else f"guild {scope}")
        return json_response(stored)

    async def upsert_command(self, request: web.Request) -> web.Response:
        """Create or replace one command of this scope."""
        scope = self._scope(request)
        stored = self._stored_command(scope, (await read_body(request)).json)
        commands = [
            c
            for c in self.world.commands.get(scope, [])
            if not (c["name"] == stored["name"] and c["type"] == stored["type"])
        ]
        self.world.commands[scope] = [*commands, stored]
        return json_response(stored, status=201)

    def _find_command(self, request: web.Request) -> tuple[int | None, dict[str, Any]]:
        scope = self._scope(request)
        wanted = request.match_info["command_id"]
        for command in self.world.commands.get(scope, []):
            if command["id"] == wanted:
                return scope, command
        raise not_found("application command", UNKNOWN_COMMAND)

    async def get_command(self, request: web.Request) -> web.Response:
        """Return one synced command."""
        return json_response(self._find_command(request)[1])

    async def delete_command(self, request: web.Request) -> web.Response:
        """Delete one synced command."""
        scope, command = self._find_command(request)
        self.world.commands[scope] = [c for c in self.world.commands[scope] if c is not command]
        return no_content()

    # Guilds, roles, members

    def _guild(self, request: web.Request) -> LoopbackGuild:
        guild = self.world.guilds.get(snowflake(request, "guild_id"))
        if guild is None:
            raise not_found("Guild", UNKNOWN_GUILD)
        return guild

    async def get_guild(self, request: web.Request) -> web.Response:
        """Return a guild without its channels and members, as the REST API does."""
        guild = self._guild(request)
        payload = guild_payload(guild, self.world, all_members=False)
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at", "large"):
            payload.pop(key, None)
        payload["approximate_member_count"] = len(guild.members)
        payload["approximate_presence_count"] = 0
        return json_response(payload)

    async def list_guild_channels(self, request: web.Request) -> web.Response:
        """Return a guild's channels (threads are listed elsewhere)."""
        guild = self._guild(request)
        channels = [channel_payload(c, self.world) for c in guild.channels.values() if not c.is_thread]
        return json_response(channels)

    async def list_roles(self, request: web.Request) -> web.Response:
        """Return a guild's roles."""
        return json_response([role_payload(r) for r in self._guild(request).roles.values()])

    async def get_role(self, request: web.Request) -> web.Response:
        """Return one role."""
        role = self._guild(request).roles.get(snowflake(request, "role_id"))
        if role is None:
            raise not_found("Role", UNKNOWN_ROLE)
        return json_response(role_payload(role))

    async def list_members(self, request: web.Request) -> web.Response:
        """Return a guild's members, ordered by user id, after the given id."""
        guild = self._guild(request)
        after = int(request.query.get("after", "0"))
        limit = int(request.query.get("limit", "1"))
        ids = sorted(uid for uid in guild.members if uid > after)[:limit]
        return json_response(
            [member_payload(guild, guild.members[uid], self.world.users[uid]) for uid in ids]
        )

    async def get_member(self, request: web.Request) -> web.Response:
        """Return one guild member."""
        guild = self._guild(request)
        membership = guild.members.get(snowflake(request, "user_id"))
        if membership is None:
            raise not_found("Member", UNKNOWN_MEMBER)
        return json_response(member_payload(guild, membership, self.world.users[membership.user_id]))

    async def add_member_role(self, request: web.Request) -> web.Response:
        """Give a member a role."""
        return await self._change_member_role(request, add=True)

    async def remove_member_role(self, request: web.Request) -> web.Response:
        """Take a role from a member."""
        return await self._change_member_role(request, add=False)

    async def _change_member_role(self, request: web.Request, *, add: bool) -> web.Response:
        guild = self._guild(request)
        membership = guild.members.get(snowflake(request, "user_id"))
        if membership is None:
            raise not_found("Member", UNKNOWN_MEMBER)
        role_id = snowflake(request, "role_id")
        if role_id not in guild.roles:
            raise not_found("Role", UNKNOWN_ROLE)
        if add and role_id not in membership.roles:
            membership.roles.append(role_id)
        elif not add and role_id in membership.roles:
            membership.roles.remove(role_id)
        await self.announce.member_updated(guild, membership.user_id)
        return no_content()

    async def list_active_threads(self, request: web.Request) -> web.Response:
        """Return a guild's unarchived threads."""
        guild = self._guild(request)
        threads = [
            channel_payload(c, self.world) for c in guild.channels.values() if c.is_thread and not c.archived
        ]
        return json_response({"threads": threads, "members": []})

    # Channels and threads

    def _channel(self, request: web.Request) -> LoopbackChannel:
        channel = self.world.channels.get(snowflake(request, "channel_id"))
        if channel is None:
            raise not_found("Channel", UNKNOWN_CHANNEL)
        return channel

    async def get_channel(self, request: web.Request) -> web.Response:
        """Return one channel, thread or DM channel."""
        return json_response(channel_payload(self._channel(request), self.world))

    async def edit_channel(self, request: web.Request) -> web.Response:
        """Rename a channel, or archive, lock, unarchive or unlock a thread, with Discord's checks.

        An archived thread takes no edit but one that unarchives it (50083). Locking or unlocking, and
        unarchiving a locked thread, need Manage Threads; archiving the bot's own thread does not.
        """
        channel = self._channel(request)
        data = (await read_body(request)).json
        if channel.is_thread:
            self._check_thread_edit(channel, data)
        elif "archived" in data or "locked" in data:
            raise DiscordHTTPError(400, "Invalid Form Body: archived and locked are only for threads", 50035)
        was_archived = channel.archived
        for key in ("name", "topic", "archived", "locked", "auto_archive_duration", "position"):
            if key in data:
                setattr(channel, key, data[key])
        if channel.is_thread and channel.archived != was_archived:
            channel.archived_at = utcnow()
        await self.announce.channel_updated(channel)
        return json_response(channel_payload(channel, self.world))

    def _check_thread_edit(self, thread: LoopbackChannel, data: dict[str, Any]) -> None:
        if thread.archived and data.get("archived") is not False:
            raise DiscordHTTPError(400, "Thread is archived", 50083)
        changes_lock = "locked" in data and bool(data["locked"]) != thread.locked
        unarchives_locked = thread.archived and thread.locked and data.get("archived") is False
        if (changes_lock or unarchives_locked) and self._bot_lacks(thread, "manage_threads"):
            raise DiscordHTTPError(403, "Missing Permissions", MISSING_PERMISSIONS)

    def _bot_lacks(self, channel: LoopbackChannel, permission: str) -> bool:
        """Say whether the bot lacks a permission in a channel, or in the channel a thread inherits it from."""
        parent = self.world.channels.get(channel.parent_id) if channel.parent_id is not None else None
        return permission in channel.bot_denied or (parent is not None and permission in parent.bot_denied)

    async def delete_channel(self, request: web.Request) -> web.Response:
        """Delete a channel or thread."""
        channel = self._channel(request)
        payload = channel_payload(channel, self.world)
        self.world.channels.pop(channel.id, None)
        if channel.guild_id is not None:
            self.world.guilds[channel.guild_id].channels.pop(channel.id, None)
        await self.announce.channel_deleted(channel)
        return json_response(payload)

    async def create_thread(self, request: web.Request) -> web.Response:
        """Start a thread without a starter message (or a forum post with its first message)."""
        parent = self._channel(request)
        body = await read_body(request)
        data = body.json
        default_type = PUBLIC_THREAD if parent.type == GUILD_FORUM else PRIVATE_THREAD
        thread = self._new_thread(parent, data, self.world.new_id(), int(data.get("type") or default_type))
        await self.announce.channel_created(thread)
        payload = channel_payload(thread, self.world)
        if isinstance(data.get("message"), dict):
            first = self.world.create_message(thread.id, MessageBody(json=data["message"], files=body.files))
            # Forum posts share their id with the first message, as on Discord.
            payload["message"] = {"id": str(first.id)}
            await self.announce.message_created(first)
        return json_response(payload, status=201)

    async def create_thread_from_message(self, request: web.Request) -> web.Response:
        """Start a public thread on a message; the thread takes the message's id, as on Discord."""
        parent = self._channel(request)
        message = self.world.messages.get(snowflake(request, "message_id"))
        if message is None or message.channel_id != parent.id or message.deleted:
            raise not_found("Message", UNKNOWN_MESSAGE)
        if message.thread_id is not None:
            raise DiscordHTTPError(400, "A thread has already been created for this message", 160004)
        data = (await read_body(request)).json
        thread = self._new_thread(parent, data, message.id, PUBLIC_THREAD)
        message.thread_id = thread.id
        await self.announce.channel_created(thread)
        return json_response(channel_payload(thread, self.world), status=201)

    def _new_thread(
        self, parent: LoopbackChannel, data: dict[str, Any], thread_id: int, kind: int
    ) -> LoopbackChannel:
        if parent.guild_id is None or parent.is_thread:
            raise DiscordHTTPError(400, "Cannot execute action on this channel type", WRONG_CHANNEL_TYPE)
        needed = "create_private_threads" if kind == PRIVATE_THREAD else "create_public_threads"
        if needed in parent.bot_denied:
            raise DiscordHTTPError(403, "Missing Permissions", MISSING_PERMISSIONS)
        if not data.get("name"):
            raise DiscordHTTPError(400, "Invalid Form Body: name is required", 50035)
        thread = LoopbackChannel(
            id=thread_id,
            name=str(data["name"]),
            type=kind,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.world.bot_user.id,
            auto_archive_duration=int(data.get("auto_archive_duration") or 1440),
            created_at=utcnow(),
            members={self.world.bot_user.id},
        )
        self.world.add_channel(thread)
        log.debug("created thread %s (%s) under %s", thread.name, thread.id, parent.id)
        return thread

    async def thread_member_changed(self, request: web.Request) -> web.Response:
        """Add a member to a thread (PUT) or remove one (DELETE), as the bot may in a thread it can manage."""
        thread = self._channel(request)
        if not thread.is_thread:
            raise DiscordHTTPError(400, "Cannot execute action on this channel type", WRONG_CHANNEL_TYPE)
        user_id = snowflake(request, "user_id")
        if user_id not in self.world.users:
            raise not_found("User", UNKNOWN_USER)
        if thread.archived:
            raise DiscordHTTPError(400, "Thread is archived", 50083)
        if self._bot_lacks(thread, "manage_threads") and thread.owner_id != self.world.bot_user.id:
            raise DiscordHTTPError(403, "Missing Permissions", MISSING_PERMISSIONS)
        if request.method == "PUT":
            thread.members.add(user_id)
        else:
            thread.members.discard(user_id)
        log.debug("thread %s members now %s", thread.id, sorted(thread.members))
        return no_content()

    # DMs

    async def open_dm(self, request: web.Request) -> web.Response:
        """Open (or return) the bot's DM channel with a user."""
        data = (await read_body(request)).json
        user = self.world.users.get(int(data.get("recipient_id", 0)))
        if user is None:
            raise not_found("User", UNKNOWN_USER)
        return json_response(channel_payload(self.world.dm_channel(user), self.world))
