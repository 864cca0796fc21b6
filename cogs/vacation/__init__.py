"""The /vacation group: time away from every battle of a server."""

from discord.ext import commands

from cogs.vacation.cog import VacationCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(VacationCog(bot))
