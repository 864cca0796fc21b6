"""M42's own verbs: an action to any floor with models placed by hand, placing models, the Command Radius,
and its map layers under /map (roads and floors)."""

from discord.ext import commands

from cogs.common.systems import remove_subcommands, setup_front_end
from cogs.m42.cog import M42Cog
from cogs.m42.front import FRONT_END
from cogs.m42.map import map_commands


async def setup(bot: commands.Bot) -> None:
    """Register the system's front end and add its commands, its map layers to the shared /map group."""
    await setup_front_end(bot, "m42", FRONT_END, M42Cog(bot), subcommands={"map": map_commands()})


async def teardown(bot: commands.Bot) -> None:
    """Take M42's map layers out of /map again."""
    remove_subcommands(bot, {"map": ("road", "floors")})


__all__ = ["FRONT_END", "setup"]
