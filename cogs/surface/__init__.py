"""The /surface group: forces, leaders, secret plans, resolution and the battle report of Surface Combat."""

from discord.ext import commands

from cogs.surface.cog import SurfaceCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(SurfaceCog(bot))
