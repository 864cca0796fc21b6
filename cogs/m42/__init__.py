"""M42's own verbs: an action to any floor with models placed by hand, placing models, and the Command Radius."""

from discord.ext import commands

from cogs.common.systems import register_front_end
from cogs.m42.cog import M42Cog
from cogs.m42.front import FRONT_END


async def setup(bot: commands.Bot) -> None:
    """Give the system its front-end pieces and add its cog to the bot."""
    register_front_end("m42", FRONT_END)
    await bot.add_cog(M42Cog(bot))


__all__ = ["FRONT_END", "setup"]
