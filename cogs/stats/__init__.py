"""/stats me: a player's numbers over every battle; /battle stats shares the embeds here."""

from discord.ext import commands

from cogs.stats.cog import StatsCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(StatsCog(bot))
