"""The /ca group: a Combat Action unit's activation and the actions of the AP table."""

from discord.ext import commands

from cogs.combat_action.cog import CombatActionCog


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot."""
    await bot.add_cog(CombatActionCog(bot))
