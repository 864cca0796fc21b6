"""Sentences and embeds for setting a battle up: features, feature points, map files and imported units."""

from __future__ import annotations

import discord

import rules.core_effects as core
import rules.systems.m42.effects as m42
import rules.systems.strategic.effects as strategic
from cogs.common.embeds import INFO, MAX_LINES, effect_line, outcome_embed, safe, signed
from cogs.common.words import footer_text
from rules.effects import Effect
from rules.outcome import Outcome

SETUP_TITLES = {
    "place-feature": "Feature placed", "remove-feature": "Feature removed", "set-fp": "Feature points",
    "import-map": "Map imported", "edit-unit": "Unit edited",
}


# What the counts of a map import mean, in the order they are read out.
MAP_MARKS = {
    "deep": ("deep-water square", "deep-water squares"), "storm": ("storm square", "storm squares"),
    "road": ("road square", "road squares"), "floors": ("square of several floors", "squares of several floors"),
    "edges": ("obstacle on a side", "obstacles on sides"),
}


def _squares(cells: list[str]) -> str:
    return ", ".join(safe(c) for c in cells)


def _count(n: int, one: str, many: str) -> str:
    if n == 0:
        return f"no {many}"
    return f"1 {one}" if n == 1 else f"{n} {many}"


def _map_imported(e: strategic.MapImported | m42.MapImported) -> str:
    counts = ({"deep": e.deep, "storm": e.storm} if isinstance(e, strategic.MapImported)
              else {"road": e.road, "floors": e.floors, "edges": e.edges})
    parts = [_count(counts[key], one, many) for key, (one, many) in MAP_MARKS.items() if key in counts]
    return f"New map: {e.width}\u00d7{e.height} squares, {', '.join(parts)}."


def setup_effect_line(effect: Effect) -> str:
    """Return one setup effect as a sentence; other effects read as embeds.effect_line writes them."""
    if isinstance(effect, strategic.FeaturePlaced):
        side, name = safe(effect.side), safe(effect.name)
        where = _squares(list(effect.cells))
        if effect.hidden:
            return f"{side} laid a hidden {name} ({effect.cost} FP) on {where}; only {side} and the GM see it."
        return f"{side} bought a {name} ({effect.cost} FP) on {where}."
    if isinstance(effect, strategic.FeatureRemoved):
        owner = f" ({safe(effect.side)})" if effect.side else ""
        line = f"The {safe(effect.name)}{owner} on {safe(effect.cell)} was removed"
        if effect.refund:
            return f"{line}; {effect.refund} FP go back to {safe(effect.side)}."
        return f"{line}."
    if isinstance(effect, strategic.FpSet):
        side = safe(effect.side)
        if effect.override is not None:
            return f"{side}'s feature point pool is fixed at **{effect.pool} FP** by the GM."
        if effect.adjust:
            return (f"{side}'s feature point pool is the usual one {signed(effect.adjust)} (mission adjustment): "
                    f"**{effect.pool} FP**.")
        return f"{side}'s feature point pool is the usual one: **{effect.pool} FP**."
    if isinstance(effect, (strategic.MapImported, m42.MapImported)):
        return _map_imported(effect)
    if isinstance(effect, core.UnitEdited):
        fields = ", ".join(safe(str(f).replace("_", " ")) for f in effect.fields)
        return f"{safe(effect.unit)}: changed {fields}."
    return effect_line(effect)


def setup_embed(outcome: Outcome, *, battle_name: str, extra: list[str] | None = None,
                system: str | None = None) -> discord.Embed:
    """Build the embed of a setup order, its effects written as sentences (`system`: its system id)."""
    embed = outcome_embed(outcome, battle_name=battle_name, system=system)
    title = SETUP_TITLES.get(outcome.kind)
    if title:
        embed.title = f"{title}: {safe(outcome.actor)}" if outcome.actor else title
    lines = [setup_effect_line(e) for e in outcome.effects] + list(extra or [])
    embed.description = "\n".join(lines[:MAX_LINES]) or None
    embed.set_footer(text=footer_text(battle_name, outcome.order, system=system)[:2048])
    return embed


def import_embed(filename: str, placed: list[Effect], *, battle_name: str) -> discord.Embed:
    """Build the embed of a stat-block import: every unit placed, one line each."""
    count = len(placed)
    title = f"{count} unit{'s' if count != 1 else ''} imported from {safe(filename)}"
    lines = [effect_line(e) for e in placed]
    if len(lines) > MAX_LINES:
        lines = [*lines[:MAX_LINES - 1], f"\u2026 and {len(lines) - MAX_LINES + 1} more (see /battle info)"]
    embed = discord.Embed(title=title[:256], description="\n".join(lines), colour=INFO)
    embed.set_footer(text=f"{battle_name} \u00b7 stat-block import"[:2048])
    return embed
