"""The /surface group: forces, leaders, secret plans, resolution and the battle report of Surface Combat."""

from discord.ext import commands

from cogs.common.systems import register_front_end
from cogs.surface.cog import SurfaceCog
from cogs.surface.front import FRONT_END


async def setup(bot: commands.Bot) -> None:
    """Give the system its front-end pieces and add its cog to the bot."""
    register_front_end("surface", FRONT_END)
    await bot.add_cog(SurfaceCog(bot))


__all__ = ["FRONT_END", "setup"]
