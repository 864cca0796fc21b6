"""Combat and the living battlefield: /attack, /range, the other combat actions and /trap."""

from discord.ext import commands

from cogs.combat.actions import ActionsCog
from cogs.combat.cog import CombatCog
from cogs.combat.odds import OUTCOME_KINDS, attack_odds, combat_outcome
from cogs.combat.trap import TrapCog
from cogs.common.action_hooks import note_targets, show_outcomes


async def setup(bot: commands.Bot) -> None:
    """Add the combat cogs to the bot, and say how its attacks read on the action buttons."""
    note_targets("strategic", attack_odds)
    show_outcomes(OUTCOME_KINDS, combat_outcome)
    await bot.add_cog(CombatCog(bot))
    await bot.add_cog(ActionsCog(bot))
    await bot.add_cog(TrapCog(bot))
