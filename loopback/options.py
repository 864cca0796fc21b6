"""Check slash command option values against the synced schema and resolve the objects they name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from loopback.errors import InteractionError
from loopback.models import (
    Attachment,
    LoopbackChannel,
    LoopbackGuild,
    LoopbackRole,
    LoopbackUser,
    StoredFile,
)
from loopback.payloads import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    attachment_payload,
    channel_payload,
    guild_permissions,
    member_payload,
    role_payload,
    user_payload,
)
from loopback.world import World

# Application command option types.
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11
TYPE_NAMES = {
    STRING: "string",
    INTEGER: "integer",
    BOOLEAN: "boolean",
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "mentionable",
    NUMBER: "number",
    ATTACHMENT: "attachment",
}

MAX_SAFE_INTEGER = 2**53


class Resolved:
    """Collect the users, members, roles, channels and attachments an interaction refers to."""

    def __init__(self, world: World, guild: LoopbackGuild | None) -> None:
        self.world = world
        self.guild = guild
        self.data: dict[str, dict[str, Any]] = {}

    def _put(self, kind: str, key: int, value: dict[str, Any]) -> None:
        self.data.setdefault(kind, {})[str(key)] = value

    def user(self, user: LoopbackUser) -> str:
        """Resolve a user (and their membership when in a guild); return the option value."""
        self._put("users", user.id, user_payload(user))
        if self.guild is not None and user.id in self.guild.members:
            self._put(
                "members",
                user.id,
                member_payload(self.guild, self.guild.members[user.id], None, permissions=True),
            )
        return str(user.id)

    def role(self, role: LoopbackRole) -> str:
        """Resolve a role; return the option value."""
        self._put("roles", role.id, role_payload(role))
        return str(role.id)

    def channel(self, channel: LoopbackChannel, user: LoopbackUser) -> str:
        """Resolve a channel with the invoking user's permissions in it; return the option value."""
        payload = channel_payload(channel, self.world)
        payload["permissions"] = str(self.permissions_of(user))
        self._put("channels", channel.id, payload)
        return str(channel.id)

    def attachment(self, file: StoredFile, channel_id: int) -> str:
        """Store an uploaded file on the stand-in and resolve it; return the option value."""
        self.world.store_file(file, channel_id)
        payload = attachment_payload(file)
        payload["ephemeral"] = True
        self._put("attachments", file.id, payload)
        return str(file.id)

    def permissions_of(self, user: LoopbackUser) -> int:
        """Return a user's permissions where the interaction happens."""
        if self.guild is None:
            return ALL_PERMISSIONS & ~ADMINISTRATOR
        return guild_permissions(self.guild, user.id)


def convert_option(
    path: str,
    option: dict[str, Any],
    value: Any,
    resolved: Resolved,
    user: LoopbackUser,
    channel: LoopbackChannel,
) -> Any:
    """Check a test-supplied value against one option schema and return what Discord would send."""
    kind = option["type"]
    where = f"/{path} option {option['name']!r} ({TYPE_NAMES.get(kind, kind)})"

    def wrong(expected: str) -> InteractionError:
        return InteractionError(f"{where} needs {expected}, got {value!r}")

    if kind == STRING:
        if not isinstance(value, str):
            raise wrong("a str")
        if not option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000):
            raise InteractionError(f"{where}: length {len(value)} is outside the allowed range")
    elif kind == INTEGER:
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_SAFE_INTEGER:
            raise wrong("an int")
    elif kind == NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise wrong("an int or float")
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise wrong("a bool")
    elif kind == USER:
        if not isinstance(value, LoopbackUser):
            raise wrong("a user from add_user()")
        return resolved.user(value)
    elif kind == ROLE:
        if not isinstance(value, LoopbackRole):
            raise wrong("a role from add_role()")
        return resolved.role(value)
    elif kind == MENTIONABLE:
        if isinstance(value, LoopbackUser):
            return resolved.user(value)
        if isinstance(value, LoopbackRole):
            return resolved.role(value)
        raise wrong("a user or a role")
    elif kind == CHANNEL:
        if not isinstance(value, LoopbackChannel):
            raise wrong("a channel from add_channel()")
        allowed_types = option.get("channel_types")
        if allowed_types and value.type not in allowed_types:
            raise InteractionError(f"{where} accepts channel types {allowed_types}, not {value.type}")
        return resolved.channel(value, user)
    elif kind == ATTACHMENT:
        return resolved.attachment(as_file(value, wrong), channel.id)
    else:
        raise InteractionError(f"{where}: option type {kind} is not supported by the stand-in")
    if kind in (INTEGER, NUMBER):
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise InteractionError(f"{where}: {value} is outside [{low}, {high}]")
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        listing = ", ".join(f"{c['name']}={c['value']!r}" for c in choices)
        raise InteractionError(f"{where}: {value!r} is not one of the choices ({listing})")
    return value


def as_file(value: Any, wrong: Callable[[str], InteractionError]) -> StoredFile:
    """Turn an Attachment, StoredFile or (filename, bytes) tuple into a fresh upload."""
    if isinstance(value, StoredFile):
        return StoredFile(filename=value.filename, data=value.data, content_type=value.content_type)
    if isinstance(value, Attachment):
        return StoredFile(filename=value.filename, data=value.data, content_type=value.content_type)
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes | bytearray):
        return StoredFile(filename=str(value[0]), data=bytes(value[1]))
    raise wrong("an Attachment(filename, data) or a (filename, bytes) tuple")
