"""Build the JSON objects Discord would send for the stand-in's records."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from loopback.models import (
    DM,
    LoopbackChannel,
    LoopbackGuild,
    LoopbackRole,
    LoopbackUser,
    Membership,
    StoredFile,
    StoredMessage,
    iso,
)

if TYPE_CHECKING:
    from loopback.world import World

# What a fresh server grants @everyone, close to Discord's defaults for a new guild.
DEFAULT_EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    read_message_history=True,
    use_application_commands=True,
    change_nickname=True,
    create_instant_invite=True,
    connect=True,
    speak=True,
).value

# What the bot's managed role grants unless the harness is told otherwise.
DEFAULT_BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    manage_threads=True,
    manage_messages=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_application_commands=True,
).value

ALL_PERMISSIONS = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value


def guild_permissions(guild: LoopbackGuild, user_id: int) -> int:
    """Compute a member's guild-wide permission bitfield from @everyone and their roles."""
    if user_id == guild.owner_id:
        return ALL_PERMISSIONS
    membership = guild.members.get(user_id)
    value = guild.everyone.permissions
    if membership is not None:
        for role_id in membership.roles:
            role = guild.roles.get(role_id)
            if role is not None:
                value |= role.permissions
    if value & ADMINISTRATOR:
        return ALL_PERMISSIONS
    return value


def user_payload(user: LoopbackUser) -> dict[str, Any]:
    """Return a Discord user object."""
    return {
        "id": str(user.id),
        "username": user.name,
        "global_name": user.global_name,
        "discriminator": "0",
        "avatar": None,
        "bot": user.bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
        "primary_guild": None,
    }


def member_payload(
    guild: LoopbackGuild,
    membership: Membership,
    user: LoopbackUser | None,
    *,
    permissions: bool = False,
) -> dict[str, Any]:
    """Return a guild member object, with the user inside unless user is None."""
    payload: dict[str, Any] = {
        "roles": [str(role_id) for role_id in membership.roles],
        "joined_at": iso(membership.joined_at),
        "nick": membership.nick,
        "avatar": None,
        "banner": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "premium_since": None,
        "communication_disabled_until": None,
    }
    if user is not None:
        payload["user"] = user_payload(user)
    if permissions:
        payload["permissions"] = str(guild_permissions(guild, membership.user_id))
    return payload


def role_payload(role: LoopbackRole) -> dict[str, Any]:
    """Return a Discord role object."""
    payload: dict[str, Any] = {
        "id": str(role.id),
        "name": role.name,
        "color": role.color,
        "colors": {"primary_color": role.color, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": 0 if role.id == role.guild_id else role.position,
        "permissions": str(role.permissions),
        "managed": role.managed,
        "mentionable": role.mentionable,
        "flags": 0,
    }
    if role.bot_id is not None:
        payload["tags"] = {"bot_id": str(role.bot_id)}
    return payload


def channel_payload(channel: LoopbackChannel, world: World) -> dict[str, Any]:
    """Return a Discord channel object (guild channel, thread or DM)."""
    payload: dict[str, Any] = {"id": str(channel.id), "type": channel.type, "flags": 0}
    last = world.last_message_id(channel.id)
    payload["last_message_id"] = str(last) if last is not None else None
    if channel.type == DM:
        recipient = world.users[channel.recipient_id] if channel.recipient_id is not None else None
        payload["recipients"] = [user_payload(recipient)] if recipient is not None else []
        return payload
    payload.update(
        {
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "position": channel.position,
            "parent_id": str(channel.parent_id) if channel.parent_id is not None else None,
            "rate_limit_per_user": 0,
            "nsfw": False,
        }
    )
    if channel.is_thread:
        payload.update(
            {
                "owner_id": str(channel.owner_id),
                "message_count": world.message_count(channel.id),
                "member_count": 1,
                "total_message_sent": world.message_count(channel.id),
                "thread_metadata": {
                    "archived": channel.archived,
                    "locked": channel.locked,
                    "auto_archive_duration": channel.auto_archive_duration,
                    "archive_timestamp": iso(channel.archived_at or channel.created_at),
                    "create_timestamp": iso(channel.created_at),
                    "invitable": True,
                },
            }
        )
    else:
        payload.update({"topic": channel.topic, "permission_overwrites": []})
    return payload


def guild_payload(guild: LoopbackGuild, world: World, *, all_members: bool) -> dict[str, Any]:
    """Return a GUILD_CREATE payload; without the members intent only the bot's own member is included."""
    shown = [
        membership
        for membership in guild.members.values()
        if all_members or membership.user_id == world.bot_user.id
    ]
    channels = [c for c in guild.channels.values() if not c.is_thread]
    threads = [c for c in guild.channels.values() if c.is_thread and not c.archived]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "preferred_locale": guild.locale,
        "features": [],
        "application_id": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "roles": [role_payload(r) for r in guild.roles.values()],
        "emojis": [],
        "stickers": [],
        "joined_at": iso(guild.members[world.bot_user.id].joined_at),
        "large": False,
        "unavailable": False,
        "lazy": True,
        "member_count": len(guild.members),
        "members": [member_payload(guild, m, world.users[m.user_id]) for m in shown],
        "channels": [channel_payload(c, world) for c in channels],
        "threads": [channel_payload(c, world) for c in threads],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment_payload(file: StoredFile) -> dict[str, Any]:
    """Return a Discord attachment object for a stored file."""
    return {
        "id": str(file.id),
        "filename": file.filename,
        "description": file.description,
        "content_type": file.content_type,
        "size": file.size,
        "url": file.url,
        "proxy_url": file.url,
        "flags": 0,
    }


def message_payload(message: StoredMessage, world: World) -> dict[str, Any]:
    """Return a Discord message object for a stored message."""
    author = world.users[message.author_id]
    payload: dict[str, Any] = {
        "id": str(message.id),
        "channel_id": str(message.channel_id),
        "type": message.type,
        "content": message.content,
        "author": user_payload(author),
        "timestamp": iso(message.created_at),
        "edited_timestamp": iso(message.edited_at),
        "tts": message.tts,
        "mention_everyone": message.pings.everyone,
        "mentions": [
            user_payload(world.users[uid]) for uid in sorted(message.pings.users) if uid in world.users
        ],
        "mention_roles": [str(rid) for rid in sorted(message.pings.roles)],
        "attachments": [attachment_payload(f) for f in message.files],
        "embeds": message.embeds,
        "components": message.components,
        "pinned": message.pinned,
        "flags": message.flags,
        "reactions": [],
    }
    if message.guild_id is not None:
        payload["guild_id"] = str(message.guild_id)
        guild = world.guilds[message.guild_id]
        membership = guild.members.get(message.author_id)
        if membership is not None:
            payload["member"] = member_payload(guild, membership, None)
    if message.webhook_id is not None:
        payload["webhook_id"] = str(message.webhook_id)
    if message.application_id is not None:
        payload["application_id"] = str(message.application_id)
    if message.message_reference is not None:
        payload["message_reference"] = message.message_reference
    if message.interaction_id is not None:
        record = world.interactions_by_id.get(message.interaction_id)
        if record is not None:
            payload["interaction_metadata"] = {
                "id": str(record.id),
                "type": record.type,
                "user": user_payload(record.user),
                "authorizing_integration_owners": record.payload.get("authorizing_integration_owners", {}),
            }
            if record.command_name is not None:
                payload["interaction_metadata"]["name"] = record.command_name
    if message.thread_id is not None and message.thread_id in world.channels:
        payload["thread"] = channel_payload(world.channels[message.thread_id], world)
    return payload
