"""The /ca group: a Combat Action unit's activation and the actions of the AP table."""

from discord.ext import commands

from cogs.combat_action.cog import CombatActionCog
from cogs.combat_action.front import FRONT_END
from cogs.common.systems import setup_front_end


async def setup(bot: commands.Bot) -> None:
    """Register the system's front end and add its commands."""
    await setup_front_end(bot, "combat_action", FRONT_END, CombatActionCog(bot))


__all__ = ["FRONT_END", "setup"]
