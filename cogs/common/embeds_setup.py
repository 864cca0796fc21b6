"""Sentences and embeds for setting a battle up: map files, edited and imported units (a system's own, its words)."""

from __future__ import annotations

import discord

import rules.core_effects as core
from cogs.common.embeds import INFO, MAX_LINES, effect_line, outcome_embed, safe
from cogs.common.systems import system_sentence
from cogs.common.words import footer_text
from rules.effects import Effect
from rules.outcome import Outcome

SETUP_TITLES = {"import-map": "Map imported", "edit-unit": "Unit edited"}


def squares(cells: list[str]) -> str:
    """Return squares as a list a player reads: `C3, C4`."""
    return ", ".join(safe(c) for c in cells)


def count(n: int, one: str, many: str) -> str:
    """Return `no walls`, `1 wall` or `3 walls`."""
    if n == 0:
        return f"no {many}"
    return f"1 {one}" if n == 1 else f"{n} {many}"


def map_line(width: int, height: int, marks: list[tuple[int, str, str]]) -> str:
    """Say what a map import laid down: its size, and how many of each of the system's marks, (n, one, many)."""
    parts = [count(n, one, many) for n, one, many in marks]
    return f"New map: {width}\u00d7{height} squares" + (f", {', '.join(parts)}." if parts else ".")


def setup_effect_line(effect: Effect) -> str:
    """Return one setup effect as a sentence: a system's own as its front end words it, the rest as embeds do."""
    own = system_sentence(effect, None)
    if own is not None:
        return own
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
