"""M42's own verbs: an action to any floor with models placed by hand, placing models, and the Command Radius."""

from discord.ext import commands

from cogs.common.systems import setup_front_end
from cogs.m42.cog import M42Cog
from cogs.m42.front import FRONT_END


async def setup(bot: commands.Bot) -> None:
    """Register the system's front end and add its commands."""
    await setup_front_end(bot, "m42", FRONT_END, M42Cog(bot))
