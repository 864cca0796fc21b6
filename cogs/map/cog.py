"""Slash commands of /map."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.attachments import file_stem, read_text, send_text_file
from cogs.common.autocomplete_setup import map_terrain_choices
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import INFO, outcome_embed, safe
from cogs.common.embeds_setup import setup_embed
from cogs.common.replies import defer, reply
from cogs.common.systems import require_map
from cogs.common.transformers import CellArg, cells_from_text
from rules import orders as o
from rules.battle import Battle
from rules.errors import GameError
from rules.systems.strategic.actions.terrain import ImportMap
from rules.systems.strategic.features import visible_features
from rules.systems.strategic.mapfile import format_map

MAP_SUFFIXES = (".txt", ".map")
MAP_GUIDE = "one character per square and a `# legend:` line; /map export writes one"


def own_sides(battle: Battle, user_id: int) -> list[str]:
    """Return the sides of the units a user commands, in the battle's order."""
    mine = {u.side.lower() for u in battle.iter_units() if u.owner == user_id}
    return [s.name for s in battle.sides if s.name.lower() in mine]


def secret_sides(battle: Battle, user_id: int) -> list[str]:
    """Return the user's sides if they can see a hidden feature the public map leaves out, else nothing."""
    sides = own_sides(battle, user_id)
    if any(f.hidden for f in visible_features(battle, set(sides), gm=False)):
        return sides
    return []


class MapCog(commands.GroupCog, group_name="map", group_description="Show the battle map, paint terrain, import and export it"):
    """Show the map, paint terrain, and move whole maps in and out as text files."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="show", description="Show the battle map (with your side's hidden features, only to you)")
    @app_commands.describe(
        full="Show the whole map instead of the area around the last action",
        hidden="GM: show every hidden feature (traps), only to you",
    )
    async def show(self, interaction: discord.Interaction, full: bool = False, hidden: bool = False) -> None:
        """Post the map of this channel's battle; hidden features go only to those allowed to see them."""
        record = await battle_here(interaction)
        require_map(record.ruleset, "show a map")
        service = service_of(interaction)
        actor = actor_of(interaction)
        battle = await service.load(record)
        if hidden:
            await service.require_gm(actor, record, "see every hidden feature")
        # A player whose side laid traps sees them, but only in a reply nobody else can read.
        sides = [] if hidden else secret_sides(battle, actor.user_id)
        private = hidden or bool(sides)
        await defer(interaction, ephemeral=private)
        highlight = {} if full else {"path": battle.last.get("path", [])}
        png = await service.render(battle, highlight, full=full, viewer_sides=sides, show_hidden=hidden)
        embed = discord.Embed(title=f"{safe(battle.name)}: map", colour=INFO)
        footer = f"{battle.scale_text()} \u00b7 round {battle.round}" if battle.round else battle.scale_text()
        if hidden:
            footer += " \u00b7 GM view: every hidden feature shown, only to you"
        elif sides:
            footer += f" \u00b7 only you see this map: it shows the hidden features of {', '.join(sides)}"
        embed.set_footer(text=footer[:2048])
        await reply(interaction, embed=embed, png=png, ephemeral=private)

    @app_commands.command(name="paint", description="Paint terrain on a rectangle or a list of squares (GM)")
    @app_commands.describe(
        terrain="Terrain to paint",
        from_="First corner, like A1",
        to="Opposite corner, like C3 (leave out for one square)",
        cells="Instead of a rectangle, a list of squares like `A1 B4 C7`",
    )
    @app_commands.rename(from_="from")
    @app_commands.autocomplete(terrain=map_terrain_choices)
    async def paint(self, interaction: discord.Interaction, terrain: str, from_: CellArg | None = None,
                    to: CellArg | None = None, cells: str | None = None) -> None:
        """Paint terrain."""
        require_map((await battle_here(interaction)).ruleset, "paint terrain")
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

    @app_commands.command(name="import", description="Replace the map with a map file: terrain, size, storm, deep water (GM)")
    @app_commands.describe(file="A .txt map file: one character per square, a legend line (see /map export)")
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        """Import a map file; nothing changes if any line of it is wrong."""
        record = await battle_here(interaction)
        require_map(record.ruleset, "import a map")
        service = service_of(interaction)
        actor = actor_of(interaction)
        await service.require_gm(actor, record, "import a map")
        text = await read_text(file, suffixes=MAP_SUFFIXES, what="a map file", guide=MAP_GUIDE)
        result = await service.execute(actor, record, ImportMap(text=text), render=False)
        await defer(interaction)
        png = await service.render(result.battle, full=True)
        assert result.outcome is not None
        embed = setup_embed(result.outcome, battle_name=result.battle.name)
        embed.title = f"Map imported from {safe(file.filename)}"[:256]
        await reply(interaction, embed=embed, png=png)

    @app_commands.command(name="export", description="Get the map as a text file to edit and bring back with /map import")
    async def export(self, interaction: discord.Interaction) -> None:
        """Attach the battle's map file (terrain, storm and deep water; never features)."""
        record = await battle_here(interaction)
        require_map(record.ruleset, "export a map")
        battle = await service_of(interaction).load(record)
        text = format_map(battle)
        content = (f"Map of **{safe(battle.name)}** ({battle.width}\u00d7{battle.height}, {battle.ruleset_id}). "
                   "Edit it in any text editor and bring it back with /map import.")
        await send_text_file(interaction, content, text, f"{file_stem(battle.name)}-map.txt", ephemeral=True)
