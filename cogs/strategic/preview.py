"""Format a range preview: distance, R, the band table and every to-hit modifier that needs no dice."""

from __future__ import annotations

from typing import Any

import discord

from cogs.common.embeds import INFO, safe, signed
from cogs.strategic.embeds_combat import breakdown_lines, line_of_fire_line
from rules.battle import Battle
from rules.rolltests import Tally
from rules.systems.strategic.details import FireNotes

NOTHING_ROLLED = "Preview only: nothing was rolled, spent or changed."


def _band_table(preview: dict[str, Any]) -> str:
    """Return the weapon's bands as `Short 2–5 (+10)`, the one the target falls in in bold."""
    current = (preview.get("band") or {}).get("key")
    parts = []
    for band in preview["bands"]:
        if band["from"] is None:
            continue  # a band that covers no whole square at this range
        span = f"{band['from']}" if band["from"] == band["to"] else f"{band['from']}\u2013{band['to']}"
        text = f"{safe(band['name'])} {span} ({signed(int(band['mod']))})"
        parts.append(f"**{text}**" if band["key"] == current else text)
    return " \u00b7 ".join(parts)


def _summary(preview: dict[str, Any], battle: Battle) -> list[str]:
    d = int(preview["distance"])
    lines = [f"{preview['from']} \u2192 {preview['to']}: **{d}** square{'s' if d != 1 else ''} "
             f"({battle.scale_text()})"]
    name = safe(preview["weapon"])
    if preview["melee"]:
        reach = int(preview.get("reach", 0))
        where = "the same square" if reach == 0 else f"{reach} square{'s' if reach != 1 else ''}"
        verdict = "\u2705 within reach" if preview["in_range"] else "\u274c out of reach: move closer first"
        lines.append(f"{name} is a melee weapon: it reaches {where} \u2192 {verdict}")
        return lines
    lines.append(f"{name}: range {preview['range']} {preview['range_unit']} \u2192 R **{preview['R']}** "
                 f"{preview['square_unit']}")
    lines.append(_band_table(preview))
    band = preview.get("band")
    if band is not None:
        lines.append(f"\u2705 In range: **{safe(band['name'])}** ({signed(int(band['mod']))})")
    else:
        lines.append(f"\u274c Out of range: the {name} reaches at most **{preview['max_range']}** squares")
    return lines


def range_embed(preview: dict[str, Any], battle: Battle, *, owner: str, from_unit: bool) -> discord.Embed:
    """Build the ephemeral preview of a shot by a unit, or with its weapon from a bare square."""
    title = f"Range: {safe(owner)}'s {safe(preview['weapon'])} at {preview['to']}"
    embed = discord.Embed(title=title[:256], colour=INFO)
    lines = _summary(preview, battle)
    if not from_unit:
        lines.insert(0, f"Measured from {preview['from']}, not from {safe(owner)}'s own square.")
    target = preview.get("target")
    lines.append(f"Target on {preview['to']}: **{safe(target)}**" if target else f"Nobody stands on {preview['to']}.")
    fire = None if preview["melee"] else line_of_fire_line(FireNotes.build(
        {k: preview[k] for k in ("line_of_fire", "storm", "storm_negated")}), battle)
    if fire:
        lines.append(fire)
    embed.description = "\n".join(lines)[:4096]
    bd = preview.get("breakdown")
    if bd is not None:
        value = breakdown_lines(Tally.from_dict(bd))
        if from_unit:
            value.append(f"Target number if fired now: **{bd['target']}** (a d100 at or under it hits)")
        else:
            # From a bare square nobody's skill applies: only the situational modifiers are known.
            value = value[1:] or ["No modifiers."]
            value.append("Add the firing unit's BS (and its aim) to these for the target number.")
        embed.add_field(name="To-hit modifiers (no dice)", value="\n".join(value)[:1024], inline=False)
    embed.set_footer(text=NOTHING_ROLLED)
    return embed
