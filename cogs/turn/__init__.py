"""The /turn group, the status board and turn pings, and the persistent turn buttons."""

from discord.ext import commands

from cogs.turn.cog import TurnCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(TurnCog(bot))
