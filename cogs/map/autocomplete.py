"""Autocomplete of /map show: the weapons of the unit chosen for `range`."""

from __future__ import annotations

import discord
from discord.app_commands import Choice

from cogs.common.autocomplete import LIMIT
from cogs.common.context import service_of
from cogs.strategic.autocomplete import chosen_unit, weapon_label


async def range_weapon_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Offer the ranged weapons of the unit named in `range`."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return []
    found = await service_of(interaction).peek(interaction.guild_id, interaction.channel_id)
    if found is None:
        return []
    battle = found[1]
    unit = chosen_unit(interaction, battle, "range")
    if unit is None:
        return []
    needle = current.strip().lower()
    return [
        Choice(name=weapon_label(battle, w)[:100], value=w.name)
        for w in unit.weapons
        if not w.melee and (not needle or needle in w.name.lower())
    ][:LIMIT]
