"""The /battle group: create, list, inspect, start and end battles."""

from discord.ext import commands

from cogs.battle.cog import BattleCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(BattleCog(bot))
