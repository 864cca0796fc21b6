"""The /settings group: server and player preferences."""

from discord.ext import commands

from cogs.settings.cog import SettingsCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(SettingsCog(bot))
