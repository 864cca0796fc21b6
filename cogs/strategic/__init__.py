"""Strategic Combat's front end: /attack, /range, the other combat actions, /trap and /feature."""

from discord.ext import commands

from cogs.common.action_hooks import note_targets, show_outcomes
from cogs.strategic.actions import ActionsCog
from cogs.strategic.combat import CombatCog
from cogs.strategic.feature import FeatureCog
from cogs.strategic.odds import OUTCOME_KINDS, attack_odds, combat_outcome
from cogs.strategic.trap import TrapCog


async def setup(bot: commands.Bot) -> None:
    """Add the combat cogs to the bot, and say how its attacks read on the action buttons."""
    note_targets("strategic", attack_odds)
    show_outcomes(OUTCOME_KINDS, combat_outcome)
    await bot.add_cog(CombatCog(bot))
    await bot.add_cog(ActionsCog(bot))
    await bot.add_cog(TrapCog(bot))
    await bot.add_cog(FeatureCog(bot))
