"""Slash commands of /map."""

from __future__ import annotations

import asyncio
import io
from dataclasses import replace
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.mapgen import STYLES, generate
from bot.mapimport import check_upload, convert
from bot.mapimport.apply import apply_map, map_orders
from bot.mapview import last_action
from cogs.common.attachments import file_stem, send_text_file
from cogs.common.autocomplete import any_unit_choices
from cogs.common.autocomplete_setup import map_terrain_choices, side_choices
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import outcome_embed, safe
from cogs.common.embeds_setup import setup_embed
from cogs.common.map_button import MapButton
from cogs.common.replies import NO_PINGS, defer, reply
from cogs.common.side_threads import SideThreads
from cogs.common.systems import require_map
from cogs.common.transformers import CellArg, cells_from_text
from cogs.map.autocomplete import range_weapon_choices
from cogs.map.show import ShowRequest, access, render_request, shown_embed
from cogs.map.text import page_embed, text_pages
from rules import orders as o
from rules.edges import MAX_INCHES
from rules.errors import GameError
from rules.mapfile import format_map

EdgeKind = Literal["wall", "hedge", "fence", "creek", "lava", "none"]
Inches = app_commands.Range[float, 0.0, MAX_INCHES]
StyleName = Literal["river-valley", "city", "mountains", "forest", "coast", "islands"]


async def change_map(interaction: discord.Interaction, order: o.Order) -> None:
    """Apply a change to the map and post the whole map with it (a rule system's own map orders too)."""
    record = await battle_here(interaction)
    require_map(record.ruleset, "change the map")
    service = service_of(interaction)
    result = await service.execute(actor_of(interaction), record, order, render=False)
    await defer(interaction)
    png = await service.render(result.battle, full=True, battle_id=record.id)
    assert result.outcome is not None
    await reply(interaction, embed=outcome_embed(result.outcome, battle_name=result.battle.name,
                                                 system=result.battle.system.id), png=png)


@app_commands.guild_only()
class MapCog(commands.GroupCog, group_name="map", group_description="Show the battle map, paint terrain, walls, roads and floors, import and export it"):
    """Show the map (as a picture or as text), paint terrain, and bring whole maps in and out."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        """Register the Whole map button, so it answers on posts made before a restart."""
        self.bot.add_dynamic_items(MapButton)

    @app_commands.command(name="show", description="Show the map: whole, zoomed, a side's view, the previous turn, reach or range")
    @app_commands.describe(
        full="Show the whole map instead of the area around the last action",
        at="Zoom on this square (with radius)",
        radius="How many squares around `at` to show (1-50, default 6)",
        side="See the map as this side does, hidden features and all (your own side; the GM any), only to you",
        previous="Show the previous turn: the map as it ended, with its moves and shots",
        reach="Tint where this unit can move in each mode, only to you",
        range_="Ring this unit's weapon range bands, only to you",
        weapon="The weapon for `range` (its first ranged weapon if left out)",
        hidden="GM: show every hidden feature (traps), only to you",
        greyscale="Draw the map in greys: patterns and shapes tell everything apart",
    )
    @app_commands.rename(range_="range")
    @app_commands.autocomplete(side=side_choices, reach=any_unit_choices, range_=any_unit_choices, weapon=range_weapon_choices)
    async def show(self, interaction: discord.Interaction, full: bool = False, at: CellArg | None = None,
                   radius: app_commands.Range[int, 1, 50] | None = None, side: str | None = None,
                   previous: bool = False, reach: str | None = None, range_: str | None = None,
                   weapon: str | None = None, hidden: bool = False, greyscale: bool = False) -> None:
        """Post the map of this channel's battle; anything hidden goes only to those allowed to see it."""
        record = await battle_here(interaction)
        require_map(record.ruleset, "show a map")
        service = service_of(interaction)
        actor = actor_of(interaction)
        battle = service.read_only(record)
        request = ShowRequest(full=full, at=at, radius=radius, side=side, previous=previous, reach=reach,
                              range_of=range_, weapon=weapon, hidden=hidden, greyscale=greyscale)
        # Everything that can refuse runs before deferring, so a refusal stays private and quick.
        seen = await access(service, actor, record, battle, request)
        threads = SideThreads(self.bot)
        to_side = request.side is not None and await threads.enabled(record.id)
        await defer(interaction, ephemeral=seen.private or to_side)
        shown = await render_request(service, record, battle, request, seen)
        if to_side:
            # A side's view belongs in its own thread, where all its players find it.
            found = battle.side(request.side or "")
            assert found is not None  # access refused a side that is not in the battle
            side = found.name
            shown = replace(shown, notes=(f"{side}'s view, with its hidden units and features: only {side} and the "
                                          "GM see it",))
            where = await threads.post(record, battle, side, embed=shown_embed(battle, shown), png=shown.image)
            await reply(interaction, f"{safe(side)}'s view is posted {where.mention}.", ephemeral=True)
            return
        await reply(interaction, embed=shown_embed(battle, shown), png=shown.image, ephemeral=shown.private)

    @app_commands.command(name="text", description="The map as text for screen readers: units, what is around them, terrain")
    @app_commands.describe(
        page="Which page to read (a big battle runs over several)",
        side="Read it as this side sees it, hidden features and all (your own side; the GM any)",
        hidden="GM: include every hidden feature",
    )
    @app_commands.autocomplete(side=side_choices)
    async def text(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 500] = 1,
                   side: str | None = None, hidden: bool = False) -> None:
        """Answer the whole map as text, a page at a time, with the full text attached; only to you."""
        record = await battle_here(interaction)
        require_map(record.ruleset, "read a map aloud")
        service = service_of(interaction)
        actor = actor_of(interaction)
        battle = service.read_only(record)
        seen = await access(service, actor, record, battle, ShowRequest(side=side, hidden=hidden))
        await defer(interaction, ephemeral=True)
        text = await service.text_map(battle, viewer=seen.viewer, highlight=last_action(battle, seen.viewer))
        pages = text_pages(text)
        if page > len(pages):
            raise GameError(f"The map text has {len(pages)} page{'s' if len(pages) != 1 else ''}; ask for page 1 "
                            f"to {len(pages)}.")
        file = discord.File(io.BytesIO(text.full().encode("utf-8")), filename=f"{file_stem(battle.name)}-map.txt")
        await interaction.followup.send(embed=page_embed(battle.name, pages, page), file=file, ephemeral=True,
                                        allowed_mentions=NO_PINGS)

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
        await self._change(interaction, order)

    @app_commands.command(name="edge", description="Put a wall, hedge, fence, creek or lava channel on square sides (GM)")
    @app_commands.describe(
        edges="Sides like `L1|M1` or `C3:n` (n s e w), or a run like `L1-L9:e`; several with commas",
        obstacle="What stands there; `none` takes the obstacles off those sides",
        height="Height in inches; taller than 3 stops an infantry leader and placement beyond it",
        thickness="Width in inches; wider than 1 plays as area terrain",
        opening="Width in inches of a door, window or hole in it (0: none); a model per full half inch",
        openable="Models may stand inside behind the opening (default); false: they stand outside against the wall",
    )
    async def edge(self, interaction: discord.Interaction, edges: str, obstacle: EdgeKind = "wall",
                   height: Inches = 1.0, thickness: Inches = 0.5, opening: Inches = 0.0,
                   openable: bool = True) -> None:
        """Set or clear obstacles on the sides between squares."""
        text = edges[:2000]
        order: o.Order = o.ClearEdge(edges=text) if obstacle == "none" else o.SetEdge(
            edges=text, obstacle=obstacle, height=f"{height:g}", thickness=f"{thickness:g}", opening=f"{opening:g}",
            openable=openable)
        await self._change(interaction, order)

    async def _change(self, interaction: discord.Interaction, order: o.Order) -> None:
        """Apply a change to the map and post the whole map with it."""
        await change_map(interaction, order)

    @app_commands.command(name="import", description="Replace the map: a text map, a Tiled map, or a colour picture with its legend (GM)")
    @app_commands.describe(
        file="A .txt map, a Tiled .tmj map (or a .zip of it with its tilesets), or a .png picture",
        mapping="For a picture: its colour legend (.toml). For a Tiled map: a mapping file (.toml), if its tiles need one",
    )
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment,
                      mapping: discord.Attachment | None = None) -> None:
        """Import a map; nothing changes if any part of it is wrong."""
        record = await battle_here(interaction)
        require_map(record.ruleset, "import a map")
        service = service_of(interaction)
        actor = actor_of(interaction)
        await service.require_gm(actor, record, "import a map")
        # Sizes as Discord reports them are checked before anything is downloaded.
        check_upload(file.filename, file.size)
        if mapping is not None:
            check_upload(mapping.filename, mapping.size)
        battle = await service.load(record)
        # Reading a picture takes a moment: defer privately, so a refusal still reaches only the GM.
        await defer(interaction, ephemeral=True)
        data = await file.read()
        extra = await mapping.read() if mapping is not None else None
        imported = await asyncio.to_thread(convert, file.filename, data, battle.ruleset,
                                           mapping.filename if mapping else None, extra)
        result = await apply_map(service, actor, record, map_orders(imported.text, imported.features))
        png = await service.render(result.battle, full=True, battle_id=record.id)
        await interaction.edit_original_response(
            content=f"Map imported from `{safe(file.filename)}`; the new map is posted for everyone.")
        assert result.outcome is not None
        embed = setup_embed(result.outcome, battle_name=result.battle.name, system=result.battle.system.id)
        embed.title = f"Map imported from {safe(file.filename)}"[:256]
        lines = [f"From a {imported.kind}" + (f": {imported.summary}" if imported.summary else "") + "."]
        if imported.features:
            lines.append(f"{len(imported.features)} feature{'s' if len(imported.features) != 1 else ''} laid.")
        embed.description = ((embed.description or "") + "\n" + " ".join(lines)).strip()[:4096]
        await reply(interaction, embed=embed, png=png)

    @app_commands.command(name="generate", description="Replace the map with a generated one: same seed, same map (GM)")
    @app_commands.describe(
        style="The kind of land",
        seed="Any number: the same seed and style always give the same map",
        width="Squares across (default: the current map's)",
        height="Squares down (default: the current map's)",
    )
    async def generate_(self, interaction: discord.Interaction, style: StyleName,
                        seed: app_commands.Range[int, 0, 2_000_000_000],
                        width: app_commands.Range[int, 1, 100] | None = None,
                        height: app_commands.Range[int, 1, 100] | None = None) -> None:
        """Generate a map from a style and a seed and lay it, like an import."""
        record = await battle_here(interaction)
        require_map(record.ruleset, "generate a map")
        service = service_of(interaction)
        actor = actor_of(interaction)
        await service.require_gm(actor, record, "generate a map")
        battle = await service.load(record)
        w, h = width or battle.width, height or battle.height
        await defer(interaction, ephemeral=True)
        text = await asyncio.to_thread(generate, battle.ruleset, style, seed, w, h)
        result = await apply_map(service, actor, record, map_orders(text, ()))
        png = await service.render(result.battle, full=True, battle_id=record.id)
        await interaction.edit_original_response(content="Map generated; the new map is posted for everyone.")
        assert result.outcome is not None
        embed = setup_embed(result.outcome, battle_name=result.battle.name, system=result.battle.system.id)
        embed.title = f"Map generated: {STYLES[style][0]}, seed {seed}"[:256]
        embed.description = ((embed.description or "") + f"\n/map generate style:{style} seed:{seed} width:{w} "
                             f"height:{h} makes this map again.").strip()
        await reply(interaction, embed=embed, png=png)

    @app_commands.command(name="export", description="Get the map as a text file to edit and bring back with /map import")
    async def export(self, interaction: discord.Interaction) -> None:
        """Attach the battle's map file (terrain, its ruleset's layers and edges; never features)."""
        record = await battle_here(interaction)
        require_map(record.ruleset, "export a map")
        battle = await service_of(interaction).load(record)
        text = format_map(battle)
        content = (f"Map of **{safe(battle.name)}** ({battle.width}\u00d7{battle.height}, {battle.ruleset_id}). "
                   "Edit it in any text editor and bring it back with /map import.")
        await send_text_file(interaction, content, text, f"{file_stem(battle.name)}-map.txt", ephemeral=True)
