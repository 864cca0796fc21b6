"""The /turn group, the status board and turn pings, and the persistent turn buttons."""

from discord.ext import commands

from cogs.common.action_hooks import show_outcomes
from cogs.turn.cog import TurnCog
from cogs.turn.text import turn_outcome
from rules.turns import TURN_KINDS


async def setup(bot: commands.Bot) -> None:
    """Add the cog to the bot; turn orders given by buttons read as /turn's answers do."""
    show_outcomes(TURN_KINDS, turn_outcome)
    await bot.add_cog(TurnCog(bot))
