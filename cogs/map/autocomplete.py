"""Autocomplete of /map show: the weapons of the unit chosen for `range`, as its system lists them."""

from __future__ import annotations

import discord
from discord.app_commands import Choice

from cogs.common.autocomplete import LIMIT
from cogs.common.context import service_of
from cogs.common.systems import front_end


async def range_weapon_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Offer the ranged weapons of the unit named in `range`."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return []
    found = await service_of(interaction).peek(interaction.guild_id, interaction.channel_id)
    if found is None:
        return []
    battle = found[1]
    own = front_end(battle).range_weapons
    name = getattr(interaction.namespace, "range", None)
    unit = battle.find_unit(name) if isinstance(name, str) and name.strip() else None
    if own is None or unit is None:
        return []
    return [Choice(name=label[:100], value=value[:100]) for label, value in own(battle, unit, current)][:LIMIT]
