"""The /surface group: forces, leaders, secret plans, resolution and the battle report of Surface Combat."""

from discord.ext import commands

from cogs.common.systems import setup_front_end
from cogs.surface.cog import SurfaceCog
from cogs.surface.front import FRONT_END


async def setup(bot: commands.Bot) -> None:
    """Register the system's front end and add its commands."""
    await setup_front_end(bot, "surface", FRONT_END, SurfaceCog(bot))


__all__ = ["FRONT_END", "setup"]
