"""Autocomplete from the battle's cached state: at most 25 choices, the caller's own first."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common.context import service_of
from rules.ruleset import get_ruleset
from rules.system import ruleset_ids

LIMIT = 25


def _matches(current: str, *names: str) -> bool:
    needle = current.strip().lower()
    return not needle or any(needle in n.lower() for n in names)


async def unit_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the units of this channel's battle, the caller's own first."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return []
    found = await service_of(interaction).peek(interaction.guild_id, interaction.channel_id)
    if found is None:
        return []
    _record, battle = found
    mine: list[app_commands.Choice[str]] = []
    others: list[app_commands.Choice[str]] = []
    for unit in battle.iter_units():
        if not _matches(current, unit.name):
            continue
        where = f", {unit.cell}" if battle.system.has_map else ""
        label = f"{unit.name} ({unit.side}{where})"
        (mine if unit.owner == interaction.user.id else others).append(
            app_commands.Choice(name=label[:100], value=unit.name)
        )
    return (mine + others)[:LIMIT]


async def move_mode_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the move modes of this channel's battle's ruleset, its default first."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return []
    found = await service_of(interaction).peek(interaction.guild_id, interaction.channel_id)
    if found is None:
        return []
    ruleset = found[1].ruleset
    modes = sorted(ruleset.move_modes, key=lambda m: m != ruleset.default_move_mode)
    return [app_commands.Choice(name=m + (" (default)" if m == ruleset.default_move_mode else ""), value=m)
            for m in modes if _matches(current, m)][:LIMIT]


async def ruleset_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the rulesets the engine plays."""
    out = []
    for rid in ruleset_ids():
        r = get_ruleset(rid)
        if _matches(current, rid, r.name):
            out.append(app_commands.Choice(name=f"{rid}: {r.name}"[:100], value=rid))
    return out[:LIMIT]


async def terrain_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the terrains of this channel's battle's ruleset."""
    rulesets = [get_ruleset(r) for r in ruleset_ids()]
    if interaction.guild_id is not None and interaction.channel_id is not None:
        found = await service_of(interaction).peek(interaction.guild_id, interaction.channel_id)
        if found is not None:
            rulesets = [found[1].ruleset]
    out: list[app_commands.Choice[str]] = []
    seen: set[str] = set()
    for r in rulesets:
        for t in r.terrain.values():
            if t.key in seen or not _matches(current, t.key, t.name):
                continue
            seen.add(t.key)
            extra = f" (AP {t.ap}, DTV {t.dtv})" if t.ap or t.dtv else ""
            out.append(app_commands.Choice(name=f"{t.name}{extra}"[:100], value=t.key))
    return out[:LIMIT]


async def constant_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the rule constants of this channel's battle, with their current value."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return []
    found = await service_of(interaction).peek(interaction.guild_id, interaction.channel_id)
    if found is None:
        return []
    battle = found[1]
    out = []
    for key in sorted(battle.ruleset.constants):
        if _matches(current, key):
            out.append(app_commands.Choice(name=f"{key} = {battle.const(key)}"[:100], value=key))
    return out[:LIMIT]
