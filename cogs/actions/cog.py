"""Accept the action panel's buttons and menus, whenever they were posted."""

from __future__ import annotations

from discord.ext import commands

from cogs.actions import flow
from cogs.common.action_items import DYNAMIC_ITEMS


class ActionButtonsCog(commands.Cog):
    """The persistent buttons and menus of a unit's next actions (no slash commands of its own)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.flow = flow  # importing the flow registers what each button and menu does

    async def cog_load(self) -> None:
        """Accept the action buttons and menus, including those posted before a restart."""
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        """Forget the action buttons and menus."""
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
