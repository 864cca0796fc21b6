"""/undo: players take back their own last order, alone or with the other sides' approval."""

from discord.ext import commands

from cogs.takeback.cog import TakebackCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(TakebackCog(bot))
