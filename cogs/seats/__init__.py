"""/seat: players leave a battle and substitutes take their place."""

from discord.ext import commands

from cogs.seats.cog import SeatCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(SeatCog(bot))
