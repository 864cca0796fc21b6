"""Slash commands of /surface: add forces, set leaders, commit secret plans, resolve, read the report."""

from __future__ import annotations

import io
import json
from collections import Counter
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import Listener
from cogs.common.attachments import read_text
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import defer, reply
from cogs.surface.buttons import ReportPageButton, report_view
from cogs.surface.fight import NEXT_TURN_TEXT, fight_and_report
from cogs.surface.fought import fought_report, kept_report
from cogs.surface.info import force_fields, surface_stage
from cogs.surface.notices import SurfaceNotices, deadline_text
from cogs.surface.plan_buttons import DYNAMIC_ITEMS
from cogs.surface.report import report_embed
from cogs.surface.setup_panel import SETUP_ITEMS
from rules.coords import Cell
from rules.errors import GameError
from rules.filelimits import TYPED_JSON, load_json
from rules.orders import AddUnit, Order
from rules.systems.surface.details import PlanDetails
from rules.systems.surface.effects import UnitAdded
from rules.systems.surface.forces import survivors
from rules.systems.surface.orders import ImportForces, NextTurn, Resolve, SetSide, SubmitPlan
from rules.systems.surface.unittypes import FLAGS, unit_types

TYPE_CHOICES = [app_commands.Choice(name=t.name, value=t.key) for t in unit_types().values()][:25]


def _listeners(bot: commands.Bot) -> list[Listener]:
    return bot.service.listeners  # type: ignore[attr-defined,no-any-return]


@app_commands.guild_only()
class SurfaceCog(commands.GroupCog, group_name="surface",
                 group_description="Surface Combat: forces, secret pre-battle plans and the battle report"):
    """Set up and fight a Surface Combat engagement."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.notices = SurfaceNotices(bot)
        super().__init__()

    async def cog_load(self) -> None:
        """Hear the clock's notices of surface battles and accept the report's page buttons."""
        _listeners(self.bot).append(self.notices)
        self.bot.add_dynamic_items(ReportPageButton, *DYNAMIC_ITEMS, *SETUP_ITEMS)

    async def cog_unload(self) -> None:
        """Stop listening and forget the buttons."""
        listeners = _listeners(self.bot)
        if self.notices in listeners:
            listeners.remove(self.notices)
        self.bot.remove_dynamic_items(ReportPageButton, *DYNAMIC_ITEMS, *SETUP_ITEMS)

    @app_commands.command(name="add", description="Add a unit to a side's force (GM)")
    @app_commands.describe(name="Unit name", side="Side it fights for", type_="Unit type (default ratings)",
                           owner="Player who commands the unit (lets them plan for the side)",
                           ratings="Rating overrides as JSON, like {\"accuracy\": 6} (also \"damage\" it carries)",
                           flags="Extra flags, comma separated: " + ", ".join(FLAGS))
    @app_commands.rename(type_="type")
    @app_commands.choices(type_=TYPE_CHOICES)
    async def add(self, interaction: discord.Interaction, name: str, side: str, type_: str,
                  owner: discord.Member | None = None, ratings: str | None = None, flags: str | None = None) -> None:
        """Add a ground force."""
        stats: dict[str, Any] = {"type": type_}
        if ratings:
            try:
                extra = load_json(ratings, TYPED_JSON)
            except json.JSONDecodeError:
                raise GameError("`ratings` must be JSON, like {\"accuracy\": 6, \"morale\": 7}.") from None
            if not isinstance(extra, dict):
                raise GameError("`ratings` must be a JSON object, like {\"accuracy\": 6}.")
            stats.update(extra)
        if flags:
            stats["flags"] = [f.strip() for f in flags.split(",") if f.strip()]
        order = AddUnit(name=name, side=side, at=Cell(0, 0), owner=owner.id if owner else None, stats=stats)
        await self._run(interaction, order, f"{name} joins {side}.")

    @app_commands.command(name="import", description="Add every unit of a forces file from /surface export (GM)")
    @app_commands.describe(file="The forces.json file /surface export gave (survivors with their damage)")
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        """Carry forces over from an earlier battle: every unit of the file, or none if one is wrong."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        actor = actor_of(interaction)
        await service.require_gm(actor, record, "import forces")
        text = await read_text(file, suffixes=(".json",), what="a forces file",
                               guide="the forces.json that /surface export gives")
        # Hundreds of units take a moment; defer privately, so a refusal reaches only the GM.
        await defer(interaction, ephemeral=True)
        try:
            result = await service.execute(actor, record, ImportForces(forces=text), render=False)
        except GameError as exc:
            raise type(exc)(f"{exc.message}\nNothing was imported.") from None
        assert result.outcome is not None
        counts = Counter(e.side for e in result.outcome.of(UnitAdded))
        sides = ", ".join(f"{safe(side)} {n}" for side, n in counts.items())
        total = sum(counts.values())
        await interaction.edit_original_response(content=f"Imported `{safe(file.filename)}`; the list is posted for "
                                                 "everyone.")
        await reply(interaction, f"Imported {total} unit{'s' if total != 1 else ''} from "
                    f"`{safe(file.filename)}`: {sides}. `/battle info` lists them.")

    @app_commands.command(name="side", description="Set a side's leader and situation (GM)")
    @app_commands.describe(side="Side", leader="Leader's name", ability="Leader Ability rating",
                           blockaded="Is the planet blockaded against this side? (halves escape)",
                           last_ground="Has this side no more territory to cede? (defeat means escape)")
    async def side(self, interaction: discord.Interaction, side: str, leader: str = "",
                   ability: app_commands.Range[int, 0, 100] = 0, blockaded: bool = False,
                   last_ground: bool = False) -> None:
        """Set a side's standing."""
        order = SetSide(side=side, leader=leader, ability=ability, blockaded=blockaded, last_ground=last_ground)
        await self._run(interaction, order, f"{side}: leader {leader or '(none)'}, Ability {ability}.")

    @app_commands.command(name="plan", description="Commit your side's secret Pre-Battle Plan")
    @app_commands.describe(side="Your side", intensity="Battle Intensity (more rounds)",
                           daring="Daring of the maneuvers (more rounds)",
                           dropped="Units dropped from transports this turn, comma separated",
                           besieged="Is your force besieged? (recovers only 1 damage point)")
    async def plan(self, interaction: discord.Interaction, side: str, intensity: app_commands.Range[int, 0, 10] = 1,
                   daring: app_commands.Range[int, 0, 10] = 0, dropped: str = "", besieged: bool = False) -> None:
        """Commit a plan, seen only by you; the battle is fought as soon as both plans are in."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        await defer(interaction, ephemeral=True)
        units = tuple(p.strip() for p in dropped.split(",") if p.strip())
        order = SubmitPlan(side=side, intensity=intensity, daring=daring, dropped=units, besieged=besieged)
        result = await service.execute(actor_of(interaction), record, order, render=False)
        plan = result.outcome.details_as(PlanDetails) if result.outcome else None
        word = "replaced" if plan is not None and plan.replaced else "committed"
        await reply(interaction, f"Plan for {safe(plan.side if plan is not None else side)} {word}: intensity "
                    f"{intensity}, daring {daring}, {len(units)} dropped, {'besieged' if besieged else 'not besieged'}. "
                    "Only you see this; you may replace it until the battle is fought.", ephemeral=True)
        if plan is not None and plan.ready:
            await self._resolve(interaction, Resolve())

    @app_commands.command(name="resolve", description="Fight the engagement (both plans in, or force as GM)")
    @app_commands.describe(force="GM: fight now; sides without a plan take the default plan",
                           standing="GM, with force: sides without a plan repeat their plan of the last turn")
    async def resolve(self, interaction: discord.Interaction, force: bool = False, standing: bool = False) -> None:
        """Resolve the engagement and post the report."""
        await defer(interaction)
        await self._resolve(interaction, Resolve(force=force, standing=standing))

    @app_commands.command(name="status", description="Where the engagement stands: game turn, plans in, deadline")
    async def status(self, interaction: discord.Interaction) -> None:
        """Show the forces, which sides have committed a plan (never what it is), and the clock."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        battle = await service.load(record)
        clock = await service.clock_of(record)
        embed = discord.Embed(title=f"Surface Combat: {safe(battle.name)}"[:256], colour=INFO)
        lines = [f"Status **{battle.status}** \u00b7 {surface_stage(battle)}"]
        if clock.turn_key is not None:
            lines.append(deadline_text(clock, battle))
        embed.description = "\n".join(lines)
        for name, value in force_fields(battle):
            embed.add_field(name=name, value=value, inline=False)
        embed.set_footer(text=f"battle #{record.id}")
        await reply(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="report", description="Show the battle report, a page of the round-by-round log")
    @app_commands.describe(page="Page of the log")
    async def report(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 100_000] = 1) -> None:
        """Show the last report."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        battle = await service.load(record)
        kept_report(battle)  # refused privately, before the public answer is on its way
        await defer(interaction)
        found = await fought_report(service, record, battle)
        embed = report_embed(battle, found, page)
        await reply(interaction, embed=embed, view=report_view(record.id, battle, found, page))

    @app_commands.command(name="export", description="Export the surviving forces for the next battle")
    async def export(self, interaction: discord.Interaction) -> None:
        """Attach the survivors, with their ratings and damage, as JSON."""
        battle = await service_of(interaction).load(await battle_here(interaction))
        data = json.dumps(survivors(battle), indent=2).encode()
        await interaction.response.send_message(
            "Surviving forces with their ratings and damage; `/surface import` adds them to another battle.",
            file=discord.File(io.BytesIO(data), filename="forces.json"))

    @app_commands.command(name="next-turn", description="Open the next game turn on this planet (GM)")
    async def next_turn(self, interaction: discord.Interaction) -> None:
        """Clear plans; the survivors fight on."""
        await self._run(interaction, NextTurn(), NEXT_TURN_TEXT)

    async def _resolve(self, interaction: discord.Interaction, order: Resolve) -> None:
        await fight_and_report(interaction, await battle_here(interaction), actor_of(interaction), order)

    async def _run(self, interaction: discord.Interaction, order: Order, text: str) -> None:
        record = await battle_here(interaction)
        service = service_of(interaction)
        await service.execute(actor_of(interaction), record, order, render=False)
        await reply(interaction, safe(text))
