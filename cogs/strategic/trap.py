"""The /trap group: a side springs its traps; units search for the enemy's."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.autocomplete import unit_choices
from cogs.common.post import post_order
from cogs.strategic.autocomplete import side_choices, trap_choices
from rules.coords import Cell
from rules.systems.strategic.actions.battlefield import DetectTraps, TriggerTrap


@app_commands.guild_only()
class TrapCog(commands.GroupCog, group_name="trap", group_description="Spring your side's traps, find the enemy's"):
    """Trigger and detect Bakelite Traps and Fire Traps."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="trigger", description="Spring one of your side's traps (its Supreme Commander must live)")
    @app_commands.describe(side="Your side", at="Square of the trap, like C3 (your side's traps are offered)")
    @app_commands.autocomplete(side=side_choices, at=trap_choices)
    async def trigger(self, interaction: discord.Interaction, side: str, at: str) -> None:
        """Set off a trap; a reaction that costs no action."""
        await post_order(interaction, TriggerTrap(side=side, at=Cell.parse(at)))

    @app_commands.command(name="detect", description="Search your unit's square and the squares around it for traps")
    @app_commands.describe(unit="Your unit (an Awareness test at -20)")
    @app_commands.autocomplete(unit=unit_choices)
    async def detect(self, interaction: discord.Interaction, unit: str) -> None:
        """Look for hidden enemy traps nearby."""
        await post_order(interaction, DetectTraps(unit=unit))
