"""Turn an interaction into the service's Actor and find the battle of its channel."""

from __future__ import annotations

import logging

import discord

from bot.members import MemberCheck
from bot.service import Actor, BattleRecord, TableService
from rules.errors import GameError, NotFoundError

log = logging.getLogger(__name__)


def service_of(interaction: discord.Interaction) -> TableService:
    """Return the table service of the bot handling this interaction."""
    return interaction.client.service  # type: ignore[attr-defined,no-any-return]


def actor_of(interaction: discord.Interaction) -> Actor:
    """Return who is acting, with their roles and whether they may manage the server."""
    if interaction.guild_id is None:
        raise GameError("battlepost runs battles in server channels; use this command in a server, not in a DM.")
    user = interaction.user
    roles = frozenset(r.id for r in getattr(user, "roles", ()))
    perms = interaction.permissions
    return Actor(
        user_id=user.id, guild_id=interaction.guild_id, name=user.display_name, role_ids=roles,
        manage_guild=bool(perms.manage_guild or perms.administrator),
    )


def channel_key(interaction: discord.Interaction) -> int:
    """Return the channel or thread id the interaction came from."""
    if interaction.channel_id is None:
        raise GameError("This command must be used in a channel.")
    return interaction.channel_id


async def battle_here(interaction: discord.Interaction) -> BattleRecord:
    """Return the battle of the interaction's channel or thread, or explain how to start one."""
    actor = actor_of(interaction)
    return await service_of(interaction).battle_here(actor.guild_id, channel_key(interaction))


async def battle_to_read(interaction: discord.Interaction, battle_id: int | None = None) -> BattleRecord:
    """Return a battle to read: the one named by id, else this channel's, else the last one that ended here."""
    actor = actor_of(interaction)
    service = service_of(interaction)
    if battle_id is not None:
        return await service.get_battle(actor.guild_id, battle_id)
    try:
        return await service.battle_here(actor.guild_id, channel_key(interaction))
    except NotFoundError:
        here = channel_key(interaction)
        ended = [b for b in await service.list_battles(actor.guild_id, include_ended=True)
                 if (b.thread_id or b.channel_id) == here and b.status == "ended"]
        if not ended:
            raise
        return await service.get_battle(actor.guild_id, max(ended, key=lambda b: b.updated_at).id)


def member_check(interaction: discord.Interaction) -> MemberCheck:
    """Return a check of whether a user id belongs to a member of the interaction's server."""
    guild = interaction.guild

    async def is_member(user_id: int) -> bool:
        if guild is None:
            return False
        if guild.get_member(user_id) is not None:
            return True
        try:
            await guild.fetch_member(user_id)
        except discord.NotFound:
            return False
        except discord.HTTPException:
            # Unsure is treated as absent: the unit waits for the GM rather than pinging a stranger.
            log.warning("could not look up member %s of guild %s", user_id, guild.id)
            return False
        return True

    return is_member
