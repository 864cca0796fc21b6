"""Strategic Combat's front end: its attacks and battlefield actions, /trap, /feature, /act and GM overrides."""

from discord.ext import commands

from cogs.common.action_hooks import note_targets, show_outcomes
from cogs.common.systems import remove_subcommands, setup_front_end
from cogs.strategic.act import ActCog
from cogs.strategic.actions import ActionsCog
from cogs.strategic.combat import CombatCog
from cogs.strategic.feature import FeatureCog
from cogs.strategic.front import FRONT_END
from cogs.strategic.gm import gm_commands
from cogs.strategic.odds import OUTCOME_KINDS, attack_odds, combat_outcome
from cogs.strategic.trap import TrapCog

SYSTEM_ID = "strategic"
GM_OVERRIDES = ("move", "freeze", "edit", "set")


async def setup(bot: commands.Bot) -> None:
    """Register Strategic's front end and add its commands; its GM overrides join the shared /gm group."""
    note_targets(SYSTEM_ID, attack_odds)
    show_outcomes(OUTCOME_KINDS, combat_outcome)
    await setup_front_end(bot, SYSTEM_ID, FRONT_END, CombatCog(bot), ActionsCog(bot), TrapCog(bot), FeatureCog(bot),
                          ActCog(bot), subcommands={"gm": gm_commands()})


async def teardown(bot: commands.Bot) -> None:
    """Take Strategic's GM overrides out of /gm again."""
    remove_subcommands(bot, {"gm": GM_OVERRIDES})


__all__ = ["FRONT_END", "setup"]
