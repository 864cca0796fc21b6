"""Keep the stand-in's state: who exists, which channels hold which messages, what commands were synced."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import quote

from loopback.messages import apply_body, finish_pings
from loopback.models import (
    DM,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    LoopbackChannel,
    LoopbackGuild,
    LoopbackUser,
    MessageBody,
    SnowflakeFactory,
    StoredFile,
    StoredMessage,
)
from loopback.replies import InteractionRecord

log = logging.getLogger(__name__)


class World:
    """Hold every user, guild, channel, message, file and synced command of the stand-in."""

    def __init__(self, bot_name: str = "battlepost") -> None:
        self.new_id = SnowflakeFactory()
        self.bot_user = LoopbackUser(id=self.new_id(), name=bot_name, bot=True)
        self.users: dict[int, LoopbackUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, LoopbackGuild] = {}
        self.channels: dict[int, LoopbackChannel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.channel_messages: dict[int, list[int]] = {}
        self.files: dict[int, StoredFile] = {}
        self.dm_channels: dict[int, int] = {}
        # Synced application commands by scope: None for global, else the guild id.
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.command_syncs = 0
        self.interactions_by_id: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.base_url = ""
        # Seconds Discord waits for an interaction's first answer (it waits 3); None waits forever.
        self.ack_window: float | None = None

    @property
    def application_id(self) -> int:
        """Return the application id, which Discord makes equal to the bot user's id."""
        return self.bot_user.id

    # Lookups

    def guild_of(self, channel_id: int) -> LoopbackGuild | None:
        """Return the guild a channel belongs to, or None for DMs and unknown channels."""
        channel = self.channels.get(channel_id)
        if channel is None or channel.guild_id is None:
            return None
        return self.guilds.get(channel.guild_id)

    def messages_in(self, channel_id: int, *, include_ephemeral: bool = False) -> list[StoredMessage]:
        """Return the live messages of a channel, oldest first."""
        found = []
        for message_id in self.channel_messages.get(channel_id, []):
            message = self.messages[message_id]
            if message.deleted or (message.ephemeral and not include_ephemeral):
                continue
            found.append(message)
        return found

    def last_message_id(self, channel_id: int) -> int | None:
        """Return the id of the newest live, public message in a channel."""
        live = self.messages_in(channel_id)
        return live[-1].id if live else None

    def message_count(self, channel_id: int) -> int:
        """Return how many live, public messages a channel holds."""
        return len(self.messages_in(channel_id))

    def commands_for(self, guild_id: int | None, command_type: int = 1) -> dict[str, dict[str, Any]]:
        """Return the command schemas of one type a user sees in a guild (guild ones shadow global) or in DMs."""
        visible = {c["name"]: c for c in self.commands.get(None, []) if c.get("type", 1) == command_type}
        if guild_id is not None:
            for command in self.commands.get(guild_id, []):
                if command.get("type", 1) == command_type:
                    visible[command["name"]] = command
        return visible

    # Mutations

    def add_channel(self, channel: LoopbackChannel) -> LoopbackChannel:
        """Register a channel (and attach it to its guild)."""
        self.channels[channel.id] = channel
        self.channel_messages.setdefault(channel.id, [])
        if channel.guild_id is not None:
            self.guilds[channel.guild_id].channels[channel.id] = channel
        return channel

    def dm_channel(self, user: LoopbackUser) -> LoopbackChannel:
        """Return the bot's DM channel with a user, opening it on first use."""
        channel_id = self.dm_channels.get(user.id)
        if channel_id is None:
            channel = LoopbackChannel(id=self.new_id(), name=f"dm-{user.name}", type=DM, recipient_id=user.id)
            self.add_channel(channel)
            self.dm_channels[user.id] = channel.id
            return channel
        return self.channels[channel_id]

    def store_file(self, file: StoredFile, channel_id: int) -> StoredFile:
        """Give an uploaded file an attachment id and a download URL on the stand-in."""
        file.id = self.new_id()
        file.url = f"{self.base_url}/attachments/{channel_id}/{file.id}/{quote(file.filename)}"
        self.files[file.id] = file
        return file

    def create_message(
        self,
        channel_id: int,
        body: MessageBody,
        *,
        author_id: int | None = None,
        loading: bool = False,
        ephemeral: bool = False,
        allow_empty: bool = False,
        **extra: Any,
    ) -> StoredMessage:
        """Store a new message in a channel from a request body (raising Discord's 400 when it breaks limits)."""
        guild = self.guild_of(channel_id)
        message = StoredMessage(
            id=self.new_id(),
            channel_id=channel_id,
            author_id=self.bot_user.id if author_id is None else author_id,
            guild_id=guild.id if guild is not None else None,
            **extra,
        )
        apply_body(message, body, self, creating=True, allow_empty=allow_empty or loading)
        if ephemeral:
            message.flags |= FLAG_EPHEMERAL
        if loading:
            message.flags |= FLAG_LOADING
        else:
            finish_pings(message, self)
        self.messages[message.id] = message
        self.channel_messages.setdefault(channel_id, []).append(message.id)
        log.debug("stored message %s in channel %s: %r", message.id, channel_id, message.content[:80])
        return message

    def register_interaction(self, record: InteractionRecord) -> None:
        """Remember an interaction so its callback and webhook calls can find it."""
        self.interactions_by_id[record.id] = record
        self.interactions_by_token[record.token] = record
