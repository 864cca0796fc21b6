"""Autocomplete from the battle's cached state: at most 25 choices, the caller's own first."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands

from bot.clockhours import zone_choices
from cogs.common.context import actor_of, service_of
from cogs.common.secrets import own_sides
from cogs.common.systems import front_end
from rules.battle import Battle
from rules.ruleset import get_ruleset
from rules.system import ruleset_ids
from rules.units import Unit
from rules.visibility import Viewer, seen_units

LIMIT = 25


def _matches(current: str, *names: str) -> bool:
    needle = current.strip().lower()
    return not needle or any(needle in n.lower() for n in names)


def _unit_choice(battle: Battle[Any], unit: Unit) -> app_commands.Choice[str]:
    where = f", {unit.cell}" if battle.system.has_map else ""
    return app_commands.Choice(name=f"{unit.name} ({unit.side}{where})"[:100], value=unit.name[:100])


async def _units(interaction: discord.Interaction, current: str, *, commanded: bool) -> list[app_commands.Choice[str]]:
    """Offer this channel's battle's units, the caller's own first; `commanded`: only those they may command."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return []
    service = service_of(interaction)
    found = await service.peek(interaction.guild_id, interaction.channel_id)
    if found is None:
        return []
    record, battle = found
    gm = await service.is_gm(actor_of(interaction), record)
    everyone = not commanded or gm
    viewer = Viewer.of(own_sides(battle, interaction.user.id), gm=gm)
    mine: list[app_commands.Choice[str]] = []
    others: list[app_commands.Choice[str]] = []
    for unit in seen_units(battle, viewer):
        if not _matches(current, unit.name):
            continue
        if unit.owner == interaction.user.id:
            mine.append(_unit_choice(battle, unit))
        elif everyone:
            others.append(_unit_choice(battle, unit))
    return (mine + others)[:LIMIT]


async def unit_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the units the caller may command, their own first (a GM commands every unit)."""
    return await _units(interaction, current, commanded=True)


async def any_unit_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer every unit of the battle, the caller's own first: for commands that only look at a unit."""
    return await _units(interaction, current, commanded=False)


async def move_mode_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the move modes of this channel's battle's ruleset, its default first."""
    battle = await _battle_here(interaction)
    if battle is None:
        return []
    ruleset = battle.ruleset
    # A mode with an order of its own (a Strategic charge, which ends in an attack) is not a /move mode.
    modes = sorted((m for m in ruleset.move_modes if not battle.system.plays(m)),
                   key=lambda m: m != ruleset.default_move_mode)
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


async def _battle_here(interaction: discord.Interaction) -> Battle | None:
    """Return the kept battle of the channel an autocomplete is typed in, if any (no database trip)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    found = await service_of(interaction).peek(interaction.guild_id, interaction.channel_id)
    return found[1] if found is not None else None


async def constant_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the rule constants of this channel's battle, with their current value."""
    battle = await _battle_here(interaction)
    if battle is None:
        return []
    out = []
    for key in sorted(battle.ruleset.constants):
        if _matches(current, key):
            out.append(app_commands.Choice(name=f"{key} = {battle.const(key)}"[:100], value=key))
    return out[:LIMIT]


async def zone_options(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer IANA time zones containing what was typed, at most 25."""
    # The first call reads the zone list from disk (about 0.1 s): off the event loop.
    names = await asyncio.to_thread(zone_choices, current[:64])
    return [app_commands.Choice(name=name, value=name) for name in names]


def _target_label(origin: Unit | None, unit: Unit, has_map: bool) -> str:
    where = f"{unit.side}, {unit.cell}" if has_map else unit.side
    if origin is not None and has_map:
        d = origin.cell.distance(unit.cell)
        where += f", {d} square{'s' if d != 1 else ''} away"
    return f"{unit.name} ({where})"


async def target_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer units to attack: enemies of the chosen unit first, nearest first, then its system's object targets."""
    battle = await _battle_here(interaction)
    if battle is None:
        return []
    picked = getattr(interaction.namespace, "unit", None)
    origin = battle.find_unit(picked) if isinstance(picked, str) and picked.strip() else None
    if origin is not None:
        my_sides = {origin.side.lower()}
    else:
        my_sides = {u.side.lower() for u in battle.iter_units() if u.owner == interaction.user.id}
    # A unit hiding from the attacker's side is no target it can pick, so it is not offered (nor its square).
    viewer = Viewer.of(my_sides)
    candidates = [u for u in seen_units(battle, viewer)
                  if u is not origin and _matches(current, u.name, u.side)]
    has_map = battle.system.has_map

    def rank(u: Unit) -> tuple[bool, int, str]:
        # Enemies before allies; then the nearest, since that is what a player usually shoots at.
        distance = origin.cell.distance(u.cell) if origin is not None and has_map else 0
        return (u.side.lower() in my_sides, distance, u.name.lower())

    out = [app_commands.Choice(name=_target_label(origin, u, has_map)[:100], value=u.name[:100])
           for u in sorted(candidates, key=rank)]
    extra = front_end(battle).extra_targets
    for label, value in (extra(battle, current) if extra is not None else []):
        out.insert(min(len(out), LIMIT - 1), app_commands.Choice(name=label[:100], value=value[:100]))
    return out[:LIMIT]


async def weapon_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Offer the weapons /attack may use, as the battle's system lists them (the chosen unit's first)."""
    battle = await _battle_here(interaction)
    if battle is None:
        return []
    own = front_end(battle).weapon_choices
    if own is None:
        return []
    picked = getattr(interaction.namespace, "unit", None)
    base = battle.find_unit(picked) if isinstance(picked, str) and picked.strip() else None
    return [app_commands.Choice(name=label[:100], value=value[:100]) for label, value in own(battle, base, current)][:LIMIT]
