"""The embed of a unit's stat block."""

from __future__ import annotations

import discord

from cogs.common.embeds import INFO, safe
from rules.systems.strategic.units import CHARACTERISTIC_NAMES, Unit


def _traits(unit: Unit) -> list[str]:
    traits = []
    if unit.supreme_commander:
        traits.append("Supreme Commander")
    if unit.flyer:
        traits.append(f"Flyer({unit.flyer}), altitude {unit.altitude}")
    elif unit.altitude:
        traits.append(f"altitude {unit.altitude}")
    if unit.hoverer:
        traits.append(f"Hoverer({unit.hoverer})")
    if unit.aquatic:
        traits.append("Aquatic")
    if unit.amphibious:
        traits.append("Amphibious")
    if unit.anti_fog:
        traits.append("anti-fog")
    if unit.is_horde and unit.movement_points:
        traits.append(f"MP {unit.movement_points}")
    return traits


def unit_embed(unit: Unit) -> discord.Embed:
    """Describe a unit's stat block."""
    embed = discord.Embed(title=f"{safe(unit.name)} ({safe(unit.side)})", colour=INFO)
    kind = "Horde" if unit.is_horde else "Independent Character / E-Scale unit"
    health = (f"Magnitude **{unit.magnitude}/{unit.max_magnitude}** \u00b7 {unit.squads} squad(s)" if unit.is_horde
              else f"Wounds **{unit.wounds}/{unit.max_wounds}**")
    owner = f"<@{unit.owner}>" if unit.owner else "the GM"
    lines = [f"{kind} \u00b7 {unit.unit_class} \u00b7 on **{unit.cell}** \u00b7 commanded by {owner}", health]
    traits = _traits(unit)
    if traits:
        lines.append("Traits: " + ", ".join(traits))
    if unit.statuses:
        lines.append("Status: " + ", ".join(unit.statuses))
    embed.description = "\n".join(lines)
    chars = []
    for key in CHARACTERISTIC_NAMES:
        times = f" (\u00d7{unit.unnatural[key]})" if unit.unnatural.get(key, 1) > 1 else ""
        chars.append(f"{key.upper()} {unit.chars.get(key, 0)}{times}")
    embed.add_field(name="Characteristics", value=" \u00b7 ".join(chars), inline=False)
    armour = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in unit.armour.items())
    embed.add_field(name="Armour (AP)", value=armour or "none", inline=False)
    if unit.skills:
        skills = ", ".join(f"{safe(k.replace('_', ' '))} {v}" for k, v in sorted(unit.skills.items()))
        embed.add_field(name="Skills", value=skills[:1024], inline=False)
    if unit.weapons:
        wl = []
        for w in unit.weapons[:10]:
            rng = "melee" if w.melee else f"{w.range} {w.range_unit}"
            words = ", ".join(safe(q) for q in w.quality_words())
            wl.append(f"**{safe(w.name)}** {rng}, {w.damage} {w.dtype}, pen {w.pen}" + (f" ({words})" if words else ""))
        if len(unit.weapons) > 10:
            wl.append(f"\u2026 and {len(unit.weapons) - 10} more")
        embed.add_field(name="Weapons", value="\n".join(wl)[:1024], inline=False)
    if unit.notes:
        embed.add_field(name="Notes", value=safe(unit.notes)[:1024], inline=False)
    return embed
