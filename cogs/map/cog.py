"""Slash commands of /map."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.autocomplete import terrain_choices
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import INFO, outcome_embed, safe
from cogs.common.replies import defer, reply
from cogs.common.transformers import CellArg, cells_from_text
from rules import orders as o
from rules.errors import GameError


class MapCog(commands.GroupCog, group_name="map", group_description="Show the battle map and paint terrain"):
    """Show the map and paint terrain."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="show", description="Show the battle map")
    @app_commands.describe(full="Show the whole map instead of the area around the last action")
    async def show(self, interaction: discord.Interaction, full: bool = False) -> None:
        """Post the map of this channel's battle."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        battle = await service.load(record)
        await defer(interaction)
        highlight = {} if full else {"path": battle.last.get("path", [])}
        png = await service.render(battle, highlight, full=full)
        embed = discord.Embed(title=f"{safe(battle.name)}: map", colour=INFO)
        embed.set_footer(text=f"{battle.ruleset.scale} \u00b7 round {battle.round}" if battle.round else battle.ruleset.scale)
        await reply(interaction, embed=embed, png=png)

    @app_commands.command(name="paint", description="Paint terrain on a rectangle or a list of squares (GM)")
    @app_commands.describe(
        terrain="Terrain to paint",
        from_="First corner, like A1",
        to="Opposite corner, like C3 (leave out for one square)",
        cells="Instead of a rectangle, a list of squares like `A1 B4 C7`",
    )
    @app_commands.rename(from_="from")
    @app_commands.autocomplete(terrain=terrain_choices)
    async def paint(self, interaction: discord.Interaction, terrain: str, from_: CellArg | None = None,
                    to: CellArg | None = None, cells: str | None = None) -> None:
        """Paint terrain."""
        if cells and (from_ is not None or to is not None):
            raise GameError("Give either `from` (and `to`) for a rectangle, or `cells` for a list, not both.")
        if not cells and from_ is None:
            raise GameError("Say where to paint: `from` (and `to` for a rectangle) or `cells` (like `A1 B4`).")
        order = o.Paint(terrain=terrain, cells=cells_from_text(cells)) if cells else o.Paint(terrain=terrain, frm=from_, to=to)
        record = await battle_here(interaction)
        service = service_of(interaction)
        result = await service.execute(actor_of(interaction), record, order, render=False)
        await defer(interaction)
        png = await service.render(result.battle, full=True)
        assert result.outcome is not None
        await reply(interaction, embed=outcome_embed(result.outcome, battle_name=result.battle.name), png=png)
