"""Autocomplete of M42 commands: the actions of the battle (built-in and homebrew) with their distances."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common.autocomplete import LIMIT
from cogs.common.context import service_of
from rules.battle import Battle
from rules.systems.m42.kinds import actions_of


async def action_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the actions of this channel's M42 battle, each with its distance."""
    battle: Battle = Battle.new("m42", 1, 1)
    if interaction.guild_id is not None and interaction.channel_id is not None:
        found = await service_of(interaction).peek(interaction.guild_id, interaction.channel_id)
        if found is not None and found[1].system.id == "m42":
            battle = found[1]
    needle = current.strip().lower()
    out = []
    for action in actions_of(battle).values():
        if needle and needle not in action.key and needle not in action.title.lower():
            continue
        label = f"{action.title} ({battle.const(action.constant)}\")"
        out.append(app_commands.Choice(name=label[:100], value=action.key))
    return out[:LIMIT]
