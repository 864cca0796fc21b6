"""The /gm group: undo, overrides, hidden rolls, ending the battle and the turn clock."""

from discord.ext import commands

from cogs.gm.cog import GmCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(GmCog(bot))
