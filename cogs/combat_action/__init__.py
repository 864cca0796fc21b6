"""The /ca group: a Combat Action unit's activation and the actions of the AP table."""

from discord.ext import commands

from cogs.combat_action.cog import CombatActionCog
from cogs.combat_action.front import FRONT_END
from cogs.common.systems import register_front_end


async def setup(bot: commands.Bot) -> None:
    """Give the system its front-end pieces and add its cog to the bot."""
    register_front_end("combat_action", FRONT_END)
    await bot.add_cog(CombatActionCog(bot))


__all__ = ["FRONT_END", "setup"]
