"""Shared helpers of persistent buttons: refusals to the presser alone, and the battle a button names."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.service import Actor, BattleRecord, TableService
from bot.tree import send_error, user_message
from cogs.common.context import actor_of, service_of
from rules.errors import NotAllowedError
from rules.units import Unit

log = logging.getLogger(__name__)


async def guarded(interaction: discord.Interaction, handler: Callable[[discord.Interaction], Awaitable[None]]) -> None:
    """Run a component handler; refusals go back to the presser alone, surprises are logged with an id."""
    try:
        await handler(interaction)
    except Exception as exc:
        message = user_message(exc)
        if message is None:
            error_id = secrets.token_hex(4)
            data: dict[str, Any] = dict(interaction.data or {})
            log.error("error %s in component %s by user %s in guild %s", error_id, data.get("custom_id"),
                      interaction.user.id, interaction.guild_id, exc_info=exc)
            message = f"Sorry, something went wrong on our side (error `{error_id}`). Nothing was changed."
        await send_error(interaction, message)


async def battle_and_actor(interaction: discord.Interaction, battle_id: int) -> tuple[BattleRecord, Actor]:
    """Return the battle a button names and who pressed it (in a DM, as a player of the battle's server)."""
    service = service_of(interaction)
    if interaction.guild_id is None:
        record = await service.battle_by_id(battle_id)
        user = interaction.user
        return record, Actor(user_id=user.id, guild_id=record.guild_id, name=user.display_name)
    actor = actor_of(interaction)
    return await service.get_battle(actor.guild_id, battle_id), actor


async def require_commander(service: TableService, actor: Actor, record: BattleRecord, unit: Unit) -> None:
    """Refuse anyone but the unit's player and the GM a unit's buttons."""
    if unit.owner != actor.user_id and not await service.is_gm(actor, record):
        raise NotAllowedError(f"{unit.name} is not yours to command; only its player or the GM can use its buttons.")
