"""Slash commands of /surface: add forces, set leaders, commit secret plans, resolve, read the report."""

from __future__ import annotations

import io
import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import reply
from cogs.surface.report import paginate, report_lines, summary_fields
from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError, IllegalOrderError
from rules.orders import AddUnit, Order
from rules.systems.surface.orders import NextTurn, Resolve, SetSide, SubmitPlan
from rules.systems.surface.unittypes import FLAGS, unit_types

TYPE_CHOICES = [app_commands.Choice(name=t.name, value=t.key) for t in unit_types().values()][:25]


def _surface(battle: Battle) -> None:
    if battle.ruleset_id != "surface":
        raise IllegalOrderError("This is not a Surface Combat battle; start one with `/battle new ruleset:surface`.")


def _names(battle: Battle) -> dict[str, str]:
    return {u.id: u.name for u in battle.iter_units()}


def report_embeds(battle: Battle, report: dict[str, Any], page: int) -> tuple[discord.Embed, int]:
    """Return the summary embed with one page of the round-by-round log, and the page count."""
    pages = paginate(report_lines(report, _names(battle)))
    page = max(1, min(page, len(pages)))
    embed = discord.Embed(title=f"Surface Combat: {safe(battle.name)}"[:256], colour=INFO,
                          description=pages[page - 1])
    for name, value in summary_fields(report):
        embed.add_field(name=safe(name)[:256], value=value, inline=False)
    embed.set_footer(text=f"Log page {page}/{len(pages)} · /surface report page:N for more")
    return embed, len(pages)


def survivors(battle: Battle) -> dict[str, Any]:
    """Return the surviving forces with their ratings and damage, as a document `/surface add` can rebuild."""
    out: dict[str, Any] = {"ruleset": "surface", "forces": {}}
    for u in battle.iter_units():
        if u.alive and u.state != "escaped":
            stats = {"type": u.utype, **u.ratings(), "flags": list(u.flags), "damage": u.damage}
            out["forces"].setdefault(u.side, []).append({"name": u.name, "owner": u.owner, "stats": stats})
    return out


@app_commands.guild_only()
class SurfaceCog(commands.GroupCog, group_name="surface",
                 group_description="Surface Combat: forces, secret pre-battle plans and the battle report"):
    """Set up and fight a Surface Combat engagement."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="add", description="Add a unit to a side's force (GM)")
    @app_commands.describe(name="Unit name", side="Side it fights for", type_="Unit type (default ratings)",
                           owner="Player who commands the unit (lets them plan for the side)",
                           ratings="Rating overrides as JSON, like {\"accuracy\": 6}",
                           flags="Extra flags, comma separated: " + ", ".join(FLAGS))
    @app_commands.rename(type_="type")
    @app_commands.choices(type_=TYPE_CHOICES)
    async def add(self, interaction: discord.Interaction, name: str, side: str, type_: str,
                  owner: discord.Member | None = None, ratings: str | None = None, flags: str | None = None) -> None:
        """Add a ground force."""
        stats: dict[str, Any] = {"type": type_}
        if ratings:
            try:
                extra = json.loads(ratings)
            except json.JSONDecodeError:
                raise GameError("`ratings` must be JSON, like {\"accuracy\": 6, \"morale\": 7}.") from None
            if not isinstance(extra, dict):
                raise GameError("`ratings` must be a JSON object, like {\"accuracy\": 6}.")
            stats.update(extra)
        if flags:
            stats["flags"] = [f.strip() for f in flags.split(",") if f.strip()]
        order = AddUnit(name=name, side=side, at=Cell(0, 0), owner=owner.id if owner else None, stats=stats)
        await self._run(interaction, order, f"{name} joins {side}.")

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
        _surface(await service.load(record))
        await interaction.response.defer(ephemeral=True, thinking=True)
        units = tuple(p.strip() for p in dropped.split(",") if p.strip())
        order = SubmitPlan(side=side, intensity=intensity, daring=daring, dropped=units, besieged=besieged)
        result = await service.execute(actor_of(interaction), record, order, render=False)
        data = result.outcome.data if result.outcome else {}
        word = "replaced" if data.get("replaced") else "committed"
        await reply(interaction, f"Plan for {safe(side)} {word}: intensity {intensity}, daring {daring}, "
                    f"{len(units)} dropped, {'besieged' if besieged else 'not besieged'}. Only you see this.",
                    ephemeral=True)
        if data.get("ready"):
            await self._resolve(interaction, Resolve())

    @app_commands.command(name="resolve", description="Fight the engagement (both plans in, or force as GM)")
    @app_commands.describe(force="GM: fight now; sides without a plan take the default plan")
    async def resolve(self, interaction: discord.Interaction, force: bool = False) -> None:
        """Resolve the engagement and post the report."""
        await interaction.response.defer(thinking=True)
        await self._resolve(interaction, Resolve(force=force))

    @app_commands.command(name="report", description="Show the battle report, a page of the round-by-round log")
    @app_commands.describe(page="Page of the log")
    async def report(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] = 1) -> None:
        """Show the last report."""
        battle = await service_of(interaction).load(await battle_here(interaction))
        _surface(battle)
        found = battle.turn.get("surface", {}).get("report")
        if not found:
            raise IllegalOrderError("No engagement has been fought yet; both sides commit `/surface plan` first.")
        embed, _ = report_embeds(battle, found, page)
        await reply(interaction, embed=embed)

    @app_commands.command(name="export", description="Export the surviving forces for the next battle")
    async def export(self, interaction: discord.Interaction) -> None:
        """Attach the survivors, with their ratings and damage, as JSON."""
        battle = await service_of(interaction).load(await battle_here(interaction))
        _surface(battle)
        data = json.dumps(survivors(battle), indent=2).encode()
        await interaction.response.send_message(
            "Surviving forces (rebuild each with `/surface add` or a `add-unit` script line).",
            file=discord.File(io.BytesIO(data), filename="forces.json"))

    @app_commands.command(name="next-turn", description="Open the next game turn on this planet (GM)")
    async def next_turn(self, interaction: discord.Interaction) -> None:
        """Clear plans; the survivors fight on."""
        await self._run(interaction, NextTurn(), "A new game turn begins: each side commits a new plan.")

    async def _resolve(self, interaction: discord.Interaction, order: Resolve) -> None:
        record = await battle_here(interaction)
        service = service_of(interaction)
        result = await service.execute(actor_of(interaction), record, order, render=False)
        report = result.outcome.data if result.outcome else {}
        embed, _ = report_embeds(result.battle, report, 1)
        await reply(interaction, embed=embed, png=await service.surface_chart(report))

    async def _run(self, interaction: discord.Interaction, order: Order, text: str) -> None:
        record = await battle_here(interaction)
        service = service_of(interaction)
        _surface(await service.load(record))
        await service.execute(actor_of(interaction), record, order, render=False)
        await reply(interaction, safe(text))
