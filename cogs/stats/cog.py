"""/stats me: a player's orders, times to act, missed deadlines and takebacks over all their battles."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.stats import my_stats
from cogs.common.context import service_of
from cogs.common.replies import reply
from cogs.stats.embeds import me_embed


class StatsCog(commands.GroupCog, group_name="stats", group_description="Statistics of play"):
    """A player's statistics."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="me", description="Your orders, times to act, missed deadlines and takebacks over all your battles")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    async def me(self, interaction: discord.Interaction) -> None:
        """Show the player's own statistics, privately."""
        stats, battles = await my_stats(service_of(interaction), interaction.user.id)
        if not battles:
            await reply(interaction, "You have not given an order in any battle yet.", ephemeral=True)
            return
        await reply(interaction, embed=me_embed(stats, battles), ephemeral=True)
