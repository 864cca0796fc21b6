"""A unit's next legal actions as buttons and menus: on turn pings, under every order, alive across restarts."""

from discord.ext import commands

from cogs.actions.cog import ActionButtonsCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog that accepts the action buttons to the bot."""
    await bot.add_cog(ActionButtonsCog(bot))
