"""Plain records for what the loopback stand-in knows: users, guilds, roles, channels, messages."""

from __future__ import annotations

import itertools
import mimetypes
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

DISCORD_EPOCH_MS = 1420070400000

# Channel types as Discord numbers them.
GUILD_TEXT = 0
DM = 1
GUILD_VOICE = 2
GUILD_CATEGORY = 4
GUILD_NEWS = 5
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
GUILD_FORUM = 15
THREAD_TYPES = frozenset({10, PUBLIC_THREAD, PRIVATE_THREAD})

# Message flags the stand-in cares about.
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7


class SnowflakeFactory:
    """Hand out increasing Discord-style snowflakes based on the wall clock."""

    def __init__(self) -> None:
        self._last = 0
        self._counter = itertools.count()

    def __call__(self) -> int:
        """Return a new snowflake, strictly greater than every earlier one."""
        now_ms = int(time.time() * 1000)
        candidate = ((now_ms - DISCORD_EPOCH_MS) << 22) | (next(self._counter) & 0xFFF)
        self._last = max(candidate, self._last + 1)
        return self._last

    def on_shard(self, shard_id: int, shard_count: int) -> int:
        """Return a new snowflake that Discord's sharding formula puts on the given shard."""
        fresh = self()
        stamp = fresh >> 22
        # Discord sends a guild's events to shard (guild_id >> 22) % shard_count: move the timestamp
        # part forward (by under shard_count ms) until it lands on the wanted shard.
        stamp += (shard_id - stamp) % shard_count
        self._last = max((stamp << 22) | (fresh & 0x3FFFFF), self._last + 1)
        return self._last


def utcnow() -> datetime:
    """Return the current time as an aware UTC datetime."""
    return datetime.now(UTC)


def iso(moment: datetime | None) -> str | None:
    """Format a datetime the way Discord does in JSON, or pass None through."""
    return None if moment is None else moment.isoformat()


@dataclass(eq=False)
class LoopbackUser:
    """Represent a Discord user known to the stand-in (a test player or the bot itself)."""

    id: int
    name: str
    bot: bool = False
    global_name: str | None = None

    @property
    def mention(self) -> str:
        """Return the text that mentions this user."""
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<LoopbackUser {self.name!r} id={self.id}>"


@dataclass(eq=False)
class LoopbackRole:
    """Represent a guild role with a permission bitfield."""

    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 1
    managed: bool = False
    bot_id: int | None = None
    color: int = 0
    mentionable: bool = False

    @property
    def mention(self) -> str:
        """Return the text that mentions this role (or @everyone for the default role)."""
        return "@everyone" if self.id == self.guild_id else f"<@&{self.id}>"

    def __repr__(self) -> str:
        return f"<LoopbackRole {self.name!r} id={self.id}>"


@dataclass(eq=False)
class LoopbackChannel:
    """Represent a guild channel, a thread or a DM channel."""

    id: int
    name: str
    type: int = GUILD_TEXT
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    owner_id: int | None = None
    recipient_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    created_at: datetime = field(default_factory=utcnow)
    # When a thread was last archived or unarchived (Discord's archive_timestamp); None: never, since creation.
    archived_at: datetime | None = None
    # A thread's members (user ids); in a private thread only they (and moderators) read it.
    members: set[int] = field(default_factory=set)
    # Permissions the bot lacks in this channel (`create_private_threads`, ...): asked to use one, Discord refuses.
    bot_denied: set[str] = field(default_factory=set)

    @property
    def is_private_thread(self) -> bool:
        """Say whether this channel is a private thread."""
        return self.type == PRIVATE_THREAD

    @property
    def is_thread(self) -> bool:
        """Say whether this channel is a thread."""
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        """Return the text that mentions this channel."""
        return f"<#{self.id}>"

    def __repr__(self) -> str:
        return f"<LoopbackChannel #{self.name} id={self.id} type={self.type}>"


@dataclass(eq=False)
class Membership:
    """Record that a user belongs to a guild, with their roles."""

    user_id: int
    roles: list[int] = field(default_factory=list)
    joined_at: datetime = field(default_factory=utcnow)
    nick: str | None = None


@dataclass(eq=False)
class LoopbackGuild:
    """Represent a guild with its roles, channels and members."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, LoopbackRole] = field(default_factory=dict)
    channels: dict[int, LoopbackChannel] = field(default_factory=dict)
    members: dict[int, Membership] = field(default_factory=dict)
    locale: str = "en-US"

    @property
    def everyone(self) -> LoopbackRole:
        """Return the @everyone role, whose id is the guild id."""
        return self.roles[self.id]

    def channel(self, name: str) -> LoopbackChannel:
        """Return the channel or thread with this name."""
        for channel in self.channels.values():
            if channel.name == name.lstrip("#"):
                return channel
        raise KeyError(f"guild {self.name!r} has no channel named {name!r}")

    def role(self, name: str) -> LoopbackRole:
        """Return the role with this name."""
        for role in self.roles.values():
            if role.name == name:
                return role
        raise KeyError(f"guild {self.name!r} has no role named {name!r}")

    def __repr__(self) -> str:
        return f"<LoopbackGuild {self.name!r} id={self.id}>"


@dataclass(eq=False)
class StoredFile:
    """Hold one file attached to a message or uploaded as a command option."""

    filename: str
    data: bytes
    id: int = 0
    url: str = ""
    description: str | None = None
    content_type: str | None = None

    def __post_init__(self) -> None:
        if self.content_type is None:
            # Uploads from discord.py all say application/octet-stream; guess from the name like Discord does.
            self.content_type = mimetypes.guess_type(self.filename)[0] or "application/octet-stream"

    @property
    def size(self) -> int:
        """Return the file size in bytes."""
        return len(self.data)

    def __repr__(self) -> str:
        return f"<StoredFile {self.filename!r} {self.size} bytes>"


@dataclass(frozen=True)
class Attachment:
    """Describe a file a test user attaches to a command option of type ATTACHMENT."""

    filename: str
    data: bytes
    content_type: str | None = None


@dataclass(frozen=True)
class Pings:
    """Say who a message notified, after applying its allowed_mentions to its content."""

    everyone: bool = False
    users: frozenset[int] = frozenset()
    roles: frozenset[int] = frozenset()

    @property
    def nobody(self) -> bool:
        """Say whether the message notified nobody at all."""
        return not (self.everyone or self.users or self.roles)


@dataclass(eq=False)
class StoredMessage:
    """Record a message as the bot sent it, with every later edit applied."""

    id: int
    channel_id: int
    author_id: int
    guild_id: int | None = None
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    files: list[StoredFile] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    pinned: bool = False
    deleted: bool = False
    created_at: datetime = field(default_factory=utcnow)
    edited_at: datetime | None = None
    allowed_mentions: dict[str, Any] | None = None
    pings: Pings = field(default_factory=Pings)
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    message_reference: dict[str, Any] | None = None
    thread_id: int | None = None
    reactions: list[str] = field(default_factory=list)
    bodies: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        """Say whether only the invoking user can see this message."""
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Say whether this is a deferred response still showing 'thinking'."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def edited(self) -> bool:
        """Say whether the message was edited after it was posted."""
        return self.edited_at is not None

    def custom_ids(self) -> list[str]:
        """Return the custom ids of every interactive component on the message."""
        found: list[str] = []
        for component in walk_components(self.components):
            if "custom_id" in component:
                found.append(component["custom_id"])
        return found

    def __repr__(self) -> str:
        return f"<StoredMessage id={self.id} channel={self.channel_id} content={self.content[:40]!r}>"


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Flatten nested components (action rows, sections, containers, labels) into one list."""
    out: list[dict[str, Any]] = []
    for component in components:
        out.append(component)
        out.extend(walk_components(component.get("components", [])))
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                out.extend(walk_components([component[key]]))
    return out


@dataclass
class MessageBody:
    """Hold one decoded request body: the JSON part and any uploaded files by index."""

    json: dict[str, Any] = field(default_factory=dict)
    files: dict[int, StoredFile] = field(default_factory=dict)


class MessageStore(Protocol):
    """Where the stand-in keeps messages and uploaded files (the `World`), as the message helpers read it."""

    messages: dict[int, StoredMessage]

    def store_file(self, file: StoredFile, channel_id: int) -> StoredFile:
        """Give an uploaded file an attachment id and a download URL on the stand-in."""
        ...
