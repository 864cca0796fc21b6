"""Build INTERACTION_CREATE payloads from the command schema the bot actually synced."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from typing import Any

from loopback.errors import HiddenCommandError, InteractionError
from loopback.models import LoopbackChannel, LoopbackGuild, LoopbackUser, StoredMessage
from loopback.options import SUB_COMMAND, SUB_COMMAND_GROUP, Resolved, convert_option
from loopback.payloads import (
    ADMINISTRATOR,
    channel_payload,
    guild_permissions,
    member_payload,
    message_payload,
    user_payload,
)
from loopback.replies import InteractionRecord
from loopback.world import World

log = logging.getLogger(__name__)

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
# Interaction context types.
CONTEXT_GUILD = 0
CONTEXT_BOT_DM = 1


class InteractionBuilder:
    """Turn test calls (slash, autocomplete, click, modal) into interaction payloads."""

    def __init__(self, world: World) -> None:
        self.world = world

    # Envelope

    def envelope(
        self,
        kind: int,
        data: dict[str, Any],
        *,
        user: LoopbackUser,
        channel: LoopbackChannel,
        command_name: str | None = None,
        message: StoredMessage | None = None,
    ) -> InteractionRecord:
        """Wrap interaction data with who, where and the fields discord.py requires."""
        world = self.world
        guild = world.guild_of(channel.id)
        record = InteractionRecord(
            id=world.new_id(),
            token=f"loopback-{secrets.token_urlsafe(24)}",
            type=kind,
            user=user,
            channel_id=channel.id,
            guild_id=guild.id if guild is not None else None,
            command_name=command_name,
            source_message_id=message.id if message is not None else None,
        )
        resolved = Resolved(world, guild)
        channel_data = channel_payload(channel, world)
        channel_data["permissions"] = str(resolved.permissions_of(user))
        payload: dict[str, Any] = {
            "id": str(record.id),
            "application_id": str(world.application_id),
            "type": kind,
            "data": data,
            "token": record.token,
            "version": 1,
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "channel_id": str(channel.id),
            "channel": channel_data,
        }
        if guild is not None:
            if user.id not in guild.members:
                raise InteractionError(f"{user.name} is not a member of {guild.name!r}")
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild_locale": guild.locale,
                    "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                    "member": member_payload(guild, guild.members[user.id], user, permissions=True),
                    "app_permissions": str(guild_permissions(guild, world.bot_user.id)),
                    "authorizing_integration_owners": {"0": str(guild.id)},
                    "context": CONTEXT_GUILD,
                }
            )
        else:
            payload.update(
                {
                    "user": user_payload(user),
                    "app_permissions": str(resolved.permissions_of(user)),
                    "authorizing_integration_owners": {"0": "0"},
                    "context": CONTEXT_BOT_DM,
                }
            )
        if message is not None:
            payload["message"] = message_payload(message, world)
        record.payload = payload
        return record

    # Slash commands and autocomplete

    def command_data(
        self,
        path: str,
        options: Mapping[str, Any],
        *,
        user: LoopbackUser,
        channel: LoopbackChannel,
        focused: str | None = None,
        bypass_permissions: bool = False,
    ) -> dict[str, Any]:
        """Validate a slash command call against the synced schema and return interaction data."""
        words = path.split()
        if not words:
            raise InteractionError("empty command name")
        guild = self.world.guild_of(channel.id)
        offered = self.world.commands_for(guild.id if guild is not None else None)
        schema = offered.get(words[0])
        if schema is None:
            where = f"in {guild.name!r}" if guild is not None else "in DMs"
            listing = ", ".join(sorted(offered)) or "none"
            raise InteractionError(f"/{words[0]} is not a synced command {where} (synced: {listing})")
        self._check_visible(schema, user, guild, bypass_permissions)
        node = schema
        chain: list[dict[str, Any]] = []
        for word in words[1:]:
            subs = {
                o["name"]: o for o in node.get("options", []) if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            }
            if word not in subs:
                raise InteractionError(f"/{path}: {word!r} is not a subcommand (choose from {sorted(subs)})")
            node = subs[word]
            chain.append(node)
        leftover = [
            o["name"] for o in node.get("options", []) if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
        ]
        if leftover:
            raise InteractionError(f"/{path} is a group; pick a subcommand: {sorted(leftover)}")
        resolved = Resolved(self.world, guild)
        leaf = self._leaf_options(path, node, options, resolved, user, channel, focused)
        for sub in reversed(chain):
            leaf = [{"type": sub["type"], "name": sub["name"], "options": leaf}]
        data: dict[str, Any] = {"id": schema["id"], "name": schema["name"], "type": 1, "options": leaf}
        if "guild_id" in schema:
            data["guild_id"] = schema["guild_id"]
        if resolved.data:
            data["resolved"] = resolved.data
        return data

    def _check_visible(
        self, schema: dict[str, Any], user: LoopbackUser, guild: LoopbackGuild | None, bypass: bool
    ) -> None:
        contexts = schema.get("contexts")
        if guild is None:
            allowed = (
                CONTEXT_BOT_DM in contexts
                if contexts is not None
                else schema.get("dm_permission") is not False
            )
            if not allowed:
                raise InteractionError(f"/{schema['name']} is not offered in DMs")
            return
        if contexts is not None and CONTEXT_GUILD not in contexts:
            raise InteractionError(f"/{schema['name']} is not offered in servers")
        needed = schema.get("default_member_permissions")
        if needed is None or bypass:
            return
        have = guild_permissions(guild, user.id)
        if have & ADMINISTRATOR or (int(needed) and have & int(needed) == int(needed)):
            return
        raise HiddenCommandError(
            f"/{schema['name']} is hidden from {user.name}: default_member_permissions={needed} "
            f"but they have {have} (pass bypass_permissions=True to model a server override)",
            command=str(schema["name"]), user=user.name,
        )

    def _leaf_options(
        self,
        path: str,
        node: dict[str, Any],
        given: Mapping[str, Any],
        resolved: Resolved,
        user: LoopbackUser,
        channel: LoopbackChannel,
        focused: str | None,
    ) -> list[dict[str, Any]]:
        schema_options = {o["name"]: o for o in node.get("options", [])}
        unknown = sorted(set(given) - set(schema_options))
        if unknown:
            raise InteractionError(
                f"/{path} has no option {unknown[0]!r} (options: {sorted(schema_options)})"
            )
        if focused is not None:
            if focused not in schema_options:
                raise InteractionError(
                    f"/{path} has no option {focused!r} (options: {sorted(schema_options)})"
                )
            if not schema_options[focused].get("autocomplete"):
                raise InteractionError(f"/{path} option {focused!r} has no autocomplete")
        else:
            missing = [n for n, o in schema_options.items() if o.get("required") and n not in given]
            if missing:
                raise InteractionError(f"/{path} is missing required option(s) {missing}")
        out: list[dict[str, Any]] = []
        # Discord sends options in schema order, not in the order the user filled them.
        for name, option in schema_options.items():
            if name not in given:
                continue
            if name == focused:
                out.append({"name": name, "type": option["type"], "value": str(given[name]), "focused": True})
                continue
            value = convert_option(path, option, given[name], resolved, user, channel)
            out.append({"name": name, "type": option["type"], "value": value})
        return out
