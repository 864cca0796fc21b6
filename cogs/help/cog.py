"""A short guide per role: GM setup in five steps, and the player commands."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.embeds import INFO
from cogs.common.replies import reply

GM_GUIDE = (
    "1. `/battle new name:… ruleset:strategic-e width:30 height:20` in the channel (or `thread:True`).\n"
    "2. `/map paint terrain:forest from:C3 to:F8` (or `cells:A1 B4`) to lay out the ground.\n"
    "3. `/unit add name:Eva-01 side:NERV at:E5 owner:@player ag:45` for each unit.\n"
    "4. `/battle info` and `/map show full:True` to check the setup.\n"
    "5. `/battle start`. Later: `/battle end`; `/settings gm-role` lets a role referee."
)
PLAYER_GUIDE = (
    "`/move unit:… to:E5 mode:full` moves along the cheapest legal path; leave out `to` to see your reach.\n"
    "`/act unit:… stat:ag modifier:-10` makes a d100 test with its breakdown.\n"
    "`/roll dice:2d10+5` rolls in the open.\n"
    "`/unit info unit:…` shows a stat block; `/map show` the map around the last action."
)


class HelpCog(commands.Cog):
    """Explain battlepost to GMs and players."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to run a battle (GM) or play in one (player)")
    @app_commands.describe(role="Which guide to show")
    async def help(self, interaction: discord.Interaction, role: Literal["gm", "player"] | None = None) -> None:
        """Show the guides."""
        embed = discord.Embed(title="battlepost", colour=INFO,
                              description="Play-by-post battles on a grid: the bot checks orders, rolls in the open "
                                          "and posts the map.")
        if role in (None, "gm"):
            embed.add_field(name="GM: set up a battle in five steps", value=GM_GUIDE, inline=False)
        if role in (None, "player"):
            embed.add_field(name="Players", value=PLAYER_GUIDE, inline=False)
        await reply(interaction, embed=embed, ephemeral=True)
