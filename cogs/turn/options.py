"""What a unit can do right now: its actions left, where each move mode takes it, and its system's own options."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import discord

from bot.mapview import reach_measure
from bot.service import MapImage, TableService
from cogs.common.embeds import INFO, safe
from cogs.common.systems import option_fields
from rules import turns
from rules.battle import Battle
from rules.orders import Move
from rules.units import Unit


def cost_of(battle: Battle, order: Any) -> int:
    """Return the action points an order costs in this battle."""
    return turns.order_cost(battle, order).points


def turn_line(battle: Battle, unit: Unit) -> str:
    """Say whether the unit may act now and with how many action points."""
    if battle.status != "active":
        return "The battle has not started; orders wait for /battle start." if battle.status == "setup" else \
            "The battle has ended."
    left = turns.actions_left(battle, unit.name)
    if turns.engaged(battle):
        why = turns.why_not_now(battle, unit.name)
        if why is not None:
            return why
    return f"**{left}** action point{'s' if left != 1 else ''} left this turn."


def move_lines(battle: Battle, unit: Unit, reach: Mapping[str, Mapping[str, float]], left: int | None) -> list[str]:
    """Describe each move mode: what it costs, how many squares it reaches and how far (in inches in M42)."""
    measure = reach_measure(battle) or (lambda value: f"{value:g}")
    lines = []
    for mode, cells in reach.items():
        cost = cost_of(battle, Move(unit=unit.name, to=unit.cell, mode=mode))
        far = measure(max(cells.values(), default=0))
        afford = left is None or cost <= left
        mark = "" if afford else f" \u2014 needs {cost}, not enough left"
        if battle.system.plays(mode):  # a mode that is an order of its own: a charge ends in its attack
            lines.append(f"**{mode.title()}** ({cost} AP): up to {far} away and strikes in melee \u2014 "
                         f"`/{mode}` or the {mode.title()} button{mark}")
            continue
        lines.append(f"**{mode.title()}** ({cost} AP): {len(cells)} squares, up to {far} away{mark}")
    return lines


async def options_embed(service: TableService, battle: Battle, unit: Unit, *,
                        battle_id: int | None = None) -> tuple[discord.Embed, MapImage | None]:
    """Build the private answer of My options, with the unit's reach drawn on the map."""
    embed = discord.Embed(title=f"What {safe(unit.name)} can do", colour=INFO, description=turn_line(battle, unit))
    left = turns.actions_left(battle, unit.name) if turns.engaged(battle) else None
    png: MapImage | None = None
    if unit.alive and "immobilised" not in unit.statuses and battle.system.has_map and battle.system.plays("move"):
        reach, png = await service.reach_map(battle, unit.name, battle_id=battle_id)
        moves = move_lines(battle, unit, reach, left)
        embed.add_field(name="Move (/move)", value="\n".join(moves)[:1024] or "nowhere to go", inline=False)
    # A system's options may judge thousands of squares (M42 on a fine grid): worked out off the event loop.
    for heading, value in await asyncio.to_thread(option_fields, battle, unit):
        embed.add_field(name=heading[:256], value=value[:1024] or "\u2014", inline=False)
    embed.add_field(name="Turn", value="/turn hold holds for the rest of the turn; /turn end (or the button) "
                                       "ends it and passes play on.", inline=False)
    return embed, png
