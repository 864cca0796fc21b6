"""Strategic Combat's front end: its attacks and battlefield actions, /trap, /feature, /act and GM overrides."""

from discord import app_commands
from discord.ext import commands

from cogs.common.action_hooks import note_targets, show_outcomes
from cogs.common.systems import setup_front_end
from cogs.strategic.act import ActCog
from cogs.strategic.actions import ActionsCog
from cogs.strategic.combat import CombatCog
from cogs.strategic.feature import FeatureCog
from cogs.strategic.front import FRONT_END
from cogs.strategic.gm import gm_commands
from cogs.strategic.odds import OUTCOME_KINDS, attack_odds, combat_outcome
from cogs.strategic.trap import TrapCog

SYSTEM_ID = "strategic"


async def setup(bot: commands.Bot) -> None:
    """Register Strategic's front end and add its commands; its GM overrides join the shared /gm group."""
    note_targets(SYSTEM_ID, attack_odds)
    show_outcomes(OUTCOME_KINDS, combat_outcome)
    await setup_front_end(bot, SYSTEM_ID, FRONT_END, CombatCog(bot), ActionsCog(bot), TrapCog(bot), FeatureCog(bot),
                          ActCog(bot))
    gm = bot.tree.get_command("gm")
    if isinstance(gm, app_commands.Group):
        for command in gm_commands():
            gm.add_command(command, override=True)


async def teardown(bot: commands.Bot) -> None:
    """Take Strategic's GM overrides out of /gm again."""
    gm = bot.tree.get_command("gm")
    if isinstance(gm, app_commands.Group):
        for name in ("move", "freeze", "edit", "set"):
            gm.remove_command(name)
