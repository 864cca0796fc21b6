"""Slash commands of M42 units: /action, /place and /radius."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from bot.mapview import squares_overlay
from cogs.common.autocomplete import unit_choices
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import INFO, outcome_embed, safe
from cogs.common.replies import defer, reply
from cogs.common.transformers import CellArg
from cogs.m42.choices import action_choices
from rules.errors import NotAllowedError
from rules.orders import Order
from rules.outcome import Highlight
from rules.systems.m42.actions import MAX_FLOORS
from rules.systems.m42.board import Battle
from rules.systems.m42.orders import Act, Place
from rules.systems.m42.reach import command_radius, opening_room
from rules.systems.m42.units import Unit

MAX_SPOTS_TEXT = 400


class M42Cog(commands.Cog):
    """Take an M42 action, place models by hand, and see where a unit's models may stand."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(name="action", description="M42: take an action; the leader moves, then its models are placed")
    @app_commands.describe(
        unit="Your unit", action="Advance 6\", Shooting Advance 6\", Fall Back 12\", At-The-Double 12\", Assault...",
        to="The leader's square, like J5", floor="Floor of a building or ruin to end on (0: the ground)",
        models="Squares for the other models, like `I5 J4 J6^1`; the bot places any not given",
    )
    @app_commands.autocomplete(unit=unit_choices, action=action_choices)
    async def action(self, interaction: discord.Interaction, unit: str, action: str, to: CellArg,
                     floor: app_commands.Range[int, 0, MAX_FLOORS] = 0, models: str = "") -> None:
        """Move the leader for an action and place the models, every rule checked."""
        await self._run(interaction, Act(unit=unit, action=action, to=to, level=floor, models=models[:MAX_SPOTS_TEXT]))

    @app_commands.guild_only()
    @app_commands.command(name="place", description="M42: place your unit's models by hand, several squares at once")
    @app_commands.describe(unit="Your unit",
                           models="Squares for its models, like `E6 F5 F6^1` (^1: one floor up); the bot places the rest")
    @app_commands.autocomplete(unit=unit_choices)
    async def place(self, interaction: discord.Interaction, unit: str, models: str) -> None:
        """Place models around the leader; a refusal names the rule and draws the legal squares."""
        await self._run(interaction, Place(unit=unit, models=models[:MAX_SPOTS_TEXT]))

    @app_commands.guild_only()
    @app_commands.command(name="radius", description="M42: show where your unit's models could stand now (its Command Radius)")
    @app_commands.describe(unit="Your unit (the GM may ask for any)")
    @app_commands.autocomplete(unit=unit_choices)
    async def radius(self, interaction: discord.Interaction, unit: str) -> None:
        """Draw the squares each model of the unit could stand on, as the placement rules apply now."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        actor = actor_of(interaction)
        battle = service.read_only(record)
        target = battle.unit(unit)
        if not isinstance(target, Unit):
            raise NotAllowedError(f"{battle.ruleset_id} units have no Command Radius; it is an M42 rule.")
        if target.owner != actor.user_id and not await service.is_gm(actor, record):
            raise NotAllowedError(f"{target.name} is not yours; you can see the Command Radius of your own units.")
        await defer(interaction, ephemeral=True)
        # A fine scale puts tens of thousands of squares in reach: they are judged off the event loop.
        squares = sorted(str(c) for c in await asyncio.to_thread(command_radius, battle, target))
        openings_text = await asyncio.to_thread(_openings_text, battle, target)
        png = await service.render(battle, Highlight(actor=str(target.cell), cells=squares), battle_id=record.id,
                                   overlays=[squares_overlay(squares, "Command Radius")])
        embed = discord.Embed(title=f"Command Radius of {safe(target.name)}", colour=INFO, description=(
            f"Leader on **{target.leader}**, Ld {target.ld}: its models may stand on {len(squares)} squares, "
            f"tinted on the map (2 x Ld = {2 * target.ld}\" in the open, less into area terrain or beyond an "
            "obstacle, more along a road)." + openings_text))
        await reply(interaction, embed=embed, png=png, ephemeral=True)

    async def _run(self, interaction: discord.Interaction, order: Order) -> None:
        record = await battle_here(interaction)
        service = service_of(interaction)
        result = await service.execute(actor_of(interaction), record, order, render=False)
        await defer(interaction)
        assert result.outcome is not None
        png = await service.render(result.battle, outcome=result.outcome, battle_id=record.id)
        await reply(interaction, embed=outcome_embed(result.outcome, battle_name=result.battle.name, system=result.battle.system.id,
                                                     actor_name=interaction.user.display_name), png=png)


MAX_OPENINGS_SHOWN = 10


def _openings_text(battle: Battle, unit: Unit) -> str:
    """Say, for each opening models stand outside at, how many models it takes and how many more it takes now."""
    rooms = opening_room(battle, unit)
    if not rooms:
        return ""
    lines = [f"\n- {r.label} ({r.width:g}\"): takes {r.takes} model(s), {r.left} more now" for r in rooms[:MAX_OPENINGS_SHOWN]]
    more = f"\n- and {len(rooms) - MAX_OPENINGS_SHOWN} more" if len(rooms) > MAX_OPENINGS_SHOWN else ""
    return ("\nOpenings models stand outside at (one model per full 0.5\" of width, 004:L104, A95):"
            + "".join(lines) + more)
