"""Combat and the living battlefield: /attack, /range, the other combat actions and /trap."""

from discord.ext import commands

from cogs.combat.actions import ActionsCog
from cogs.combat.cog import CombatCog
from cogs.combat.trap import TrapCog


async def setup(bot: commands.Bot) -> None:
    """Add the combat cogs to the bot."""
    await bot.add_cog(CombatCog(bot))
    await bot.add_cog(ActionsCog(bot))
    await bot.add_cog(TrapCog(bot))
