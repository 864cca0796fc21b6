"""The /unit group: add, import, inspect, edit and remove units."""

from discord.ext import commands

from cogs.unit.cog import UnitCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(UnitCog(bot))
