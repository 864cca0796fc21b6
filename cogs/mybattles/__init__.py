"""/battles: a player's battles waiting for them, on every server, answered privately (in a DM too)."""

from discord.ext import commands

from cogs.mybattles.cog import MyBattlesCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(MyBattlesCog(bot))
