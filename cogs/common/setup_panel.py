"""The GM's setup panel: while a battle is set up, its status board says what is still missing before the
start and holds buttons for the steps (add units from a file, paint terrain, start), refreshed with every order."""

from __future__ import annotations

from typing import Any

import discord

from bot.service import BattleRecord
from cogs.common.embeds import safe
from rules.battle import Battle
from rules.ending import sides_with_units

MISSING_FIELD = "Setup: still missing before the start"
SETUP_STEPS = {
    "file": ("Add units from a file", discord.ButtonStyle.secondary, "\U0001f4c4"),
    "paint": ("Paint terrain", discord.ButtonStyle.secondary, "\U0001f58c\ufe0f"),
    "start": ("Start", discord.ButtonStyle.success, "\u25b6\ufe0f"),
}


def still_missing(battle: Battle) -> list[str]:
    """Say what a battle in setup lacks before /battle start takes it: two sides with units."""
    sides = sides_with_units(battle)
    if not sides:
        return ["Units: no side has units yet. Add them with /unit add, or from a file with /unit import."]
    if len(sides) == 1:
        return [f"A second side: only {safe(sides[0])} has units. Add units of another side (`/unit add ... "
                "side:NAME`)."]
    return []


def setup_lines(battle: Battle) -> list[str]:
    """Return the panel's text: what is missing, or that the battle is ready, and the optional steps left."""
    missing = still_missing(battle)
    lines = [f"\u274c {line}" for line in missing] or ["\u2705 Ready: the GM presses **Start** (or /battle start)."]
    if all(key == battle.ruleset.default_terrain for key in battle.terrain):
        lines.append("\u2022 Optional: the map is all open ground; **Paint terrain** (or /map paint) lays some.")
    unowned = [u.name for u in battle.iter_units() if u.owner is None and u.takes_turns]
    if unowned:
        shown = ", ".join(safe(n) for n in unowned[:5]) + (" ..." if len(unowned) > 5 else "")
        verb = "has" if len(unowned) == 1 else "have"
        lines.append(f"\u2022 Optional: {shown} {verb} no player, so the GM plays {'it' if len(unowned) == 1 else 'them'}"
                     " (/gm assign gives a player).")
    return lines


def add_setup_field(embed: discord.Embed, battle: Battle) -> discord.Embed:
    """Put the setup panel's text on a board embed, while the battle is set up."""
    if battle.status == "setup":
        embed.insert_field_at(0, name=MISSING_FIELD, value="\n".join(setup_lines(battle))[:1024], inline=False)
    return embed


def setup_button(step: str, battle_id: int) -> discord.ui.Button[Any]:
    """Return one setup button (`file`, `paint` or `start`); /battle's cog answers it by its custom id."""
    label, style, emoji = SETUP_STEPS[step]
    return discord.ui.Button(label=label, style=style, emoji=emoji, custom_id=f"bp:setup-{step}:{battle_id}")


def setup_view(record: BattleRecord, battle: Battle) -> discord.ui.View | None:
    """Return the setup buttons while the battle is set up, None after its start (the board drops them)."""
    if battle.status != "setup":
        return None
    view = discord.ui.View(timeout=None)
    for step in SETUP_STEPS:
        if step != "paint" or battle.system.has_map:
            view.add_item(setup_button(step, record.id))
    return view
