"""The players' verbs: /move, /act and /roll."""

from discord.ext import commands

from cogs.play.cog import PlayCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(PlayCog(bot))
