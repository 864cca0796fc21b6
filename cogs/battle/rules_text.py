"""What `/battle rules show` lists: the rule constants with the GM's overrides, and the battle's homebrew
terrain and its system's rows (strategic's features, M42's actions), as embeds that each keep within Discord's limits."""

from __future__ import annotations

import discord

from cogs.common.embeds import INFO, safe, signed
from cogs.common.systems import front_end
from rules.battle import Battle
from rules.constants import list_constants
from rules.ruleset import TerrainType, get_ruleset

FIELD_CHARS = 1000  # under the 1,024 of a field
EMBED_CHARS = 5500  # under the 6,000 of an embed, with room for the title and footer
MAX_FIELDS = 25


def constant_lines(battle: Battle) -> list[str]:
    """Return each rule constant as a line: value, default if overridden, ruling and what it does."""
    lines = []
    for c in list_constants(battle):
        mark = f" (default {c['default']})" if c["overridden"] else ""
        ruling = f" [{c['ruling']}]" if c["ruling"] else ""
        lines.append(f"`{c['key']}` = **{safe(c['value'])}**{mark}{ruling}: {safe(c['doc'])}")
    return lines


def terrain_line(t: TerrainType) -> str:
    """Describe a homebrew terrain as a GM wrote it."""
    parts = [f"DTV {t.dtv}", f"AP {t.ap}", f"hit penalty {signed(t.hit_penalty)}", f"{t.elevation} ground",
             "no hiding" if t.stealth is None else f"stealth {signed(t.stealth)}"]
    if t.hit_bonus:
        parts.append(f"hit bonus {signed(t.hit_bonus)}")
    if t.flammable:
        parts.append("burns")
    return f"**{safe(t.name)}** (`{t.key}`, map `{safe(t.char)}`): " + ", ".join(parts)


def homebrew_terrain(battle: Battle) -> list[TerrainType]:
    """Return the battle's homebrew terrain (none without a homebrew table)."""
    base = get_ruleset(battle.ruleset_id)
    return [t for k, t in battle.ruleset.terrain.items() if k not in base.terrain]


def homebrew_sections(battle: Battle) -> list[tuple[str, list[str]]]:
    """Return the battle's homebrew terrain and system rows (features, M42's actions) as titled lists of lines."""
    own = front_end(battle).homebrew_sections
    sections = [("Homebrew terrain", [terrain_line(t) for t in homebrew_terrain(battle)]),
                *(own(battle) if own is not None else [])]
    return [(title, lines) for title, lines in sections if lines]


def imported_embed(battle: Battle, filename: str) -> discord.Embed:
    """Build the answer to a homebrew import: the rows' names, and where to read the rest."""
    terrain = homebrew_terrain(battle)
    own = front_end(battle).homebrew_names or front_end(battle).homebrew_sections
    embed = discord.Embed(title=f"Homebrew imported from {safe(filename)}"[:256], colour=INFO,
                          description="Play the rows like the built-in ones: paint terrain with /map paint, buy "
                                      "features with /feature place, take actions with /action; /battle rules show "
                                      "lists every value.")
    for title, names in (("Terrain", [f"{safe(t.name)} (`{t.char}`)" for t in terrain]),
                         *(own(battle) if own is not None else [])):
        if names:
            text = ", ".join(names)
            embed.add_field(name=f"{title.removeprefix('Homebrew ').capitalize()} ({len(names)})",
                            value=text if len(text) <= 1024 else text[:1020] + " \u2026", inline=False)
    return embed


