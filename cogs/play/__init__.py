"""The players' verbs every system shares: /move, /attack (each system says what it gives) and /roll."""

from discord.ext import commands

from cogs.play.attack import AttackCog
from cogs.play.cog import PlayCog


async def setup(bot: commands.Bot) -> None:
    """Add the cogs to the bot."""
    await bot.add_cog(PlayCog(bot))
    await bot.add_cog(AttackCog(bot))
