"""Slash commands of /unit."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.autocomplete import unit_choices
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import INFO, outcome_embed, safe
from cogs.common.replies import defer, reply
from cogs.common.transformers import CellArg
from rules import orders as o
from rules.units import CHARACTERISTIC_NAMES, Unit


def stats_from(**options: Any) -> dict[str, Any]:
    """Keep the stat options the user actually gave."""
    return {k: v for k, v in options.items() if v is not None}


def unit_embed(unit: Unit) -> discord.Embed:
    """Describe a unit's stat block."""
    embed = discord.Embed(title=f"{safe(unit.name)} ({safe(unit.side)})", colour=INFO)
    kind = "Horde" if unit.is_horde else "Independent Character / E-Scale unit"
    health = (f"Magnitude **{unit.magnitude}/{unit.max_magnitude}** \u00b7 {unit.squads} squad(s)" if unit.is_horde
              else f"Wounds **{unit.wounds}/{unit.max_wounds}**")
    owner = f"<@{unit.owner}>" if unit.owner else "the GM"
    lines = [f"{kind} \u00b7 {unit.unit_class} \u00b7 on **{unit.cell}** \u00b7 commanded by {owner}", health]
    traits = []
    if unit.flyer:
        traits.append(f"Flyer({unit.flyer}), altitude {unit.altitude}")
    if unit.hoverer:
        traits.append(f"Hoverer({unit.hoverer})")
    if unit.aquatic:
        traits.append("Aquatic")
    if unit.amphibious:
        traits.append("Amphibious")
    if traits:
        lines.append("Traits: " + ", ".join(traits))
    if unit.statuses:
        lines.append("Status: " + ", ".join(unit.statuses))
    embed.description = "\n".join(lines)
    chars = " \u00b7 ".join(f"{k.upper()} {unit.chars.get(k, 0)}" for k in CHARACTERISTIC_NAMES)
    embed.add_field(name="Characteristics", value=chars, inline=False)
    armour = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in unit.armour.items())
    embed.add_field(name="Armour (AP)", value=armour or "none", inline=False)
    if unit.weapons:
        wl = []
        for w in unit.weapons[:10]:
            rng = "melee" if w.melee else f"{w.range} {w.range_unit}"
            wl.append(f"**{safe(w.name)}** {rng}, {w.damage} {w.dtype}, pen {w.pen}")
        embed.add_field(name="Weapons", value="\n".join(wl)[:1024], inline=False)
    return embed


class UnitCog(commands.GroupCog, group_name="unit", group_description="Add, inspect, edit and remove units"):
    """Add, inspect, edit and remove units."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="add", description="Put a unit on the map (GM)")
    @app_commands.describe(
        name="Unit name (1-64 characters, unique in this battle)", side="Side it fights for (created if new)",
        at="Square to place it on, like E5", owner="Player who commands it (leave out: the GM)",
        kind="ic: character or E-Scale unit; horde: a Horde", ag="Agility (movement is its bonus)",
        bs="Ballistic Skill", ws="Weapon Skill", s="Strength", t="Toughness", int_="Intelligence",
        wounds="Wounds (characters)", magnitude="Magnitude (Hordes)", ap="Armour on every location",
        flyer="Flyer(X) movement value", hoverer="Hoverer(X) movement value",
    )
    @app_commands.rename(int_="int")
    async def add(self, interaction: discord.Interaction, name: str, side: str, at: CellArg,
                  owner: discord.User | None = None, kind: Literal["ic", "horde"] | None = None,
                  ag: app_commands.Range[int, 0, 200] | None = None, bs: app_commands.Range[int, 0, 200] | None = None,
                  ws: app_commands.Range[int, 0, 200] | None = None, s: app_commands.Range[int, 0, 200] | None = None,
                  t: app_commands.Range[int, 0, 200] | None = None, int_: app_commands.Range[int, 0, 200] | None = None,
                  wounds: app_commands.Range[int, 0, 10000] | None = None,
                  magnitude: app_commands.Range[int, 0, 10000] | None = None,
                  ap: app_commands.Range[int, 0, 100] | None = None, flyer: app_commands.Range[int, 0, 100] | None = None,
                  hoverer: app_commands.Range[int, 0, 100] | None = None) -> None:
        """Add a unit."""
        stats = stats_from(kind=kind, ag=ag, bs=bs, ws=ws, s=s, t=t, int=int_, wounds=wounds, magnitude=magnitude,
                           ap=ap, flyer=flyer, hoverer=hoverer)
        order = o.AddUnit(name=name, side=side, at=at, owner=owner.id if owner else None, stats=stats or None)
        await self._run(interaction, order)

    @app_commands.command(name="edit", description="Change a unit's stats, side or owner (GM)")
    @app_commands.describe(
        unit="Unit to edit", name="New name", side="New side", owner="New commanding player",
        ag="Agility", bs="Ballistic Skill", ws="Weapon Skill", s="Strength", t="Toughness",
        wounds="Current wounds", magnitude="Current magnitude", ap="Armour on every location",
    )
    @app_commands.autocomplete(unit=unit_choices)
    async def edit(self, interaction: discord.Interaction, unit: str, name: str | None = None,
                   side: str | None = None, owner: discord.User | None = None,
                   ag: app_commands.Range[int, 0, 200] | None = None, bs: app_commands.Range[int, 0, 200] | None = None,
                   ws: app_commands.Range[int, 0, 200] | None = None, s: app_commands.Range[int, 0, 200] | None = None,
                   t: app_commands.Range[int, 0, 200] | None = None,
                   wounds: app_commands.Range[int, 0, 10000] | None = None,
                   magnitude: app_commands.Range[int, 0, 10000] | None = None,
                   ap: app_commands.Range[int, 0, 100] | None = None) -> None:
        """Edit a unit."""
        stats = stats_from(name=name, side=side, owner=owner.id if owner else None, ag=ag, bs=bs, ws=ws, s=s,
                           t=t, wounds=wounds, magnitude=magnitude, ap=ap)
        await self._run(interaction, o.EditUnit(unit=unit, stats=stats or None))

    @app_commands.command(name="remove", description="Take a unit off the map (GM)")
    @app_commands.describe(unit="Unit to remove")
    @app_commands.autocomplete(unit=unit_choices)
    async def remove(self, interaction: discord.Interaction, unit: str) -> None:
        """Remove a unit."""
        await self._run(interaction, o.RemoveUnit(unit=unit))

    @app_commands.command(name="info", description="Show a unit's stat block")
    @app_commands.describe(unit="Unit to show")
    @app_commands.autocomplete(unit=unit_choices)
    async def info(self, interaction: discord.Interaction, unit: str) -> None:
        """Show a unit."""
        record = await battle_here(interaction)
        battle = await service_of(interaction).load(record)
        await reply(interaction, embed=unit_embed(battle.unit(unit)))

    async def _run(self, interaction: discord.Interaction, order: o.Order) -> None:
        record = await battle_here(interaction)
        service = service_of(interaction)
        result = await service.execute(actor_of(interaction), record, order, render=False)
        await defer(interaction)
        assert result.outcome is not None
        png = await service.render(result.battle, result.outcome.highlight)
        await reply(interaction, embed=outcome_embed(result.outcome, battle_name=result.battle.name), png=png)
