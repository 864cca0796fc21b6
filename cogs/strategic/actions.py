"""The other combat actions: /aim, /hide, /maneuver, /defend, /extinguish and /break-free."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.autocomplete import target_choices, unit_choices
from cogs.common.post import post_order
from cogs.common.transformers import CellArg
from rules.systems.strategic.actions.battlefield import BreakFree, Extinguish
from rules.systems.strategic.actions.other import Aim, Defend, Hide, Maneuver


class ActionsCog(commands.Cog):
    """Aim, hide, force an opponent back, stand on guard, put out flames and break free."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(name="aim", description="Take aim: a bonus on your unit's next attack")
    @app_commands.describe(unit="Your unit", mode="half: a Half action for +10; full: a Full action for +20")
    @app_commands.autocomplete(unit=unit_choices)
    async def aim(self, interaction: discord.Interaction, unit: str, mode: Literal["half", "full"] = "half") -> None:
        """Store an aim bonus until the unit's next attack."""
        await post_order(interaction, Aim(unit=unit, mode=mode))

    @app_commands.guild_only()
    @app_commands.command(name="hide", description="Test Stealth to hide in the terrain your unit stands on")
    @app_commands.describe(unit="Your unit (it must stand in terrain that gives cover, like Forest)")
    @app_commands.autocomplete(unit=unit_choices)
    async def hide(self, interaction: discord.Interaction, unit: str) -> None:
        """Hide a unit."""
        await post_order(interaction, Hide(unit=unit))

    @app_commands.guild_only()
    @app_commands.command(name="maneuver", description="Force a melee opponent back with an opposed WS test")
    @app_commands.describe(unit="Your unit", target="The opponent in melee to push back",
                           to="Square to push it to (needed when both share a square)")
    @app_commands.autocomplete(unit=unit_choices, target=target_choices)
    async def maneuver(self, interaction: discord.Interaction, unit: str, target: str,
                       to: CellArg | None = None) -> None:
        """Push an opponent away on a won opposed test."""
        await post_order(interaction, Maneuver(unit=unit, target=target, to=to))

    @app_commands.guild_only()
    @app_commands.command(name="defend", description="Stand on guard until the next round: melee attacks get harder")
    @app_commands.describe(unit="Your unit")
    @app_commands.autocomplete(unit=unit_choices)
    async def defend(self, interaction: discord.Interaction, unit: str) -> None:
        """Take a defensive stance."""
        await post_order(interaction, Defend(unit=unit))

    @app_commands.guild_only()
    @app_commands.command(name="extinguish", description="Put out the fire on your unit")
    @app_commands.describe(unit="Your burning unit (next to water or in a storm it needs no test)")
    @app_commands.autocomplete(unit=unit_choices)
    async def extinguish(self, interaction: discord.Interaction, unit: str) -> None:
        """Put out a burning unit."""
        await post_order(interaction, Extinguish(unit=unit))

    @app_commands.guild_only()
    @app_commands.command(name="break-free", description="Test Strength to break out of a Bakelite Trap or ice")
    @app_commands.describe(unit="Your unit that is held")
    @app_commands.autocomplete(unit=unit_choices)
    async def break_free(self, interaction: discord.Interaction, unit: str) -> None:
        """Shake off Bakelite or ice."""
        await post_order(interaction, BreakFree(unit=unit))
