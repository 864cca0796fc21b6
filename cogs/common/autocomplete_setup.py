"""Autocomplete for setting a battle up: sides, and terrain with its map character."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common.context import service_of
from rules.battle import Battle
from rules.ruleset import Ruleset, get_ruleset
from rules.system import ruleset_ids

LIMIT = 25


def _matches(current: str, *names: str) -> bool:
    needle = current.strip().lower()
    return not needle or any(needle in n.lower() for n in names)


async def _battle(interaction: discord.Interaction) -> Battle | None:
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    found = await service_of(interaction).peek(interaction.guild_id, interaction.channel_id)
    return found[1] if found is not None else None


def _sides(battle: Battle, user_id: int, current: str) -> list[app_commands.Choice[str]]:
    mine = {u.side.lower() for u in battle.iter_units() if u.owner == user_id}
    counts: dict[str, int] = {}
    for unit in battle.iter_units():
        counts[unit.side.lower()] = counts.get(unit.side.lower(), 0) + 1
    own: list[app_commands.Choice[str]] = []
    others: list[app_commands.Choice[str]] = []
    for side in battle.sides:
        if not _matches(current, side.name):
            continue
        n = counts.get(side.name.lower(), 0)
        label = f"{side.name} ({n} unit{'s' if n != 1 else ''}{', yours' if side.name.lower() in mine else ''})"
        (own if side.name.lower() in mine else others).append(app_commands.Choice(name=label[:100], value=side.name))
    return own + others


async def side_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the sides of this channel's battle, the caller's own first."""
    battle = await _battle(interaction)
    return _sides(battle, interaction.user.id, current)[:LIMIT] if battle is not None else []


async def new_side_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the battle's sides, and the typed name as a new side when no side has it."""
    battle = await _battle(interaction)
    choices = _sides(battle, interaction.user.id, current) if battle is not None else []
    typed = current.strip()
    if typed and len(typed) <= 64 and not any(c.value.lower() == typed.lower() for c in choices):
        # After the sides it may have meant, so a prefix of an existing side does not read as a new one first.
        choices = [*choices[:LIMIT - 1], app_commands.Choice(name=f"{typed} (new side)"[:100], value=typed)]
    return choices[:LIMIT]


def _terrain_label(ruleset: Ruleset, key: str) -> str:
    t = ruleset.terrain[key]
    stats = [f"AP {t.ap}"] if t.ap else []
    stats += [f"DTV {t.dtv}"] if t.dtv else []
    extra = f", {', '.join(stats)}" if stats else ""
    return f"{t.name} (`{t.char}` in map files{extra})"


async def map_terrain_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the terrains of this battle's ruleset with the character a map file uses for each."""
    battle = await _battle(interaction)
    rulesets = [battle.ruleset] if battle is not None else [get_ruleset(r) for r in ruleset_ids()]
    out: list[app_commands.Choice[str]] = []
    seen: set[str] = set()
    for ruleset in rulesets:
        for t in ruleset.terrain.values():
            if t.key in seen or not _matches(current, t.key, t.name):
                continue
            seen.add(t.key)
            out.append(app_commands.Choice(name=_terrain_label(ruleset, t.key)[:100], value=t.key))
    return out[:LIMIT]
