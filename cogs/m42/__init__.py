"""M42's own verbs: an action to any floor with models placed by hand, placing models, and the Command Radius."""

from discord.ext import commands

from cogs.m42.cog import M42Cog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(M42Cog(bot))
