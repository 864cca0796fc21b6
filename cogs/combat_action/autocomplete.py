"""Autocomplete for Combat Action commands: the chosen unit's weapons, and targets nearest first."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common.autocomplete import LIMIT
from cogs.common.context import service_of
from rules.battle import Battle
from rules.ruleset import fraction_text
from rules.scale import square_size
from rules.systems.combat_action.tables import tables
from rules.systems.combat_action.units import Unit

Choice = app_commands.Choice


def _matches(current: str, *texts: str) -> bool:
    needle = current.strip().lower()
    return not needle or any(needle in t.lower() for t in texts)


async def _battle(interaction: discord.Interaction) -> Battle | None:
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    found = await service_of(interaction).peek(interaction.guild_id, interaction.channel_id)
    return found[1] if found is not None else None


def _chosen(interaction: discord.Interaction, battle: Battle) -> Unit | None:
    name = getattr(interaction.namespace, "unit", None)
    unit = battle.find_unit(name) if isinstance(name, str) and name.strip() else None
    return unit if isinstance(unit, Unit) else None


def weapon_options(unit: Unit | None, current: str) -> list[tuple[str, str]]:
    """Return a unit's weapons as (label, name) with their class and Pen, those matching the typed text."""
    if unit is None:
        return []
    out = []
    for w in unit.weapons:
        if _matches(current, w.name):
            out.append((f"{w.name} · {tables().weapon_classes[w.wclass].name} · Pen {w.pen}", w.name))
    return out


async def weapon_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Offer the chosen unit's weapons with their class and Pen."""
    battle = await _battle(interaction)
    unit = _chosen(interaction, battle) if battle is not None else None
    return [Choice(name=label[:100], value=value[:100]) for label, value in weapon_options(unit, current)][:LIMIT]


async def target_choices(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Offer the units on the table, enemies first and nearest first, with the distance in cm."""
    battle = await _battle(interaction)
    if battle is None:
        return []
    unit = _chosen(interaction, battle)
    cm = square_size(battle)
    others = [u for u in battle.iter_units() if isinstance(u, Unit) and u.alive and not u.inside and u is not unit
              and _matches(current, u.name)]
    if unit is not None:
        others.sort(key=lambda u: (not battle.enemies(unit, u), u.cell.distance(unit.cell)))
    out = []
    for u in others[:LIMIT]:
        far = f", {fraction_text(u.cell.distance(unit.cell) * cm)} cm" if unit is not None else ""
        out.append(Choice(name=f"{u.name} ({u.side}, {u.cell}{far})"[:100], value=u.name[:100]))
    return out
