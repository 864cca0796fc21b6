"""The /map group: show the map, paint terrain, import and export map files."""

from discord.ext import commands

from cogs.map.cog import MapCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(MapCog(bot))
