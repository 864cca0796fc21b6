"""The /help command."""

from discord.ext import commands

from cogs.help.cog import HelpCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(HelpCog(bot))
