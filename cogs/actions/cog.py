"""Accept the action panel's buttons and menus, and the Confirm and Cancel of questions, whenever posted."""

from __future__ import annotations

from discord.ext import commands

from cogs.actions import flow
from cogs.common import confirm
from cogs.common.action_items import DYNAMIC_ITEMS as ACTION_ITEMS

DYNAMIC_ITEMS = (*ACTION_ITEMS, *confirm.DYNAMIC_ITEMS)


class ActionButtonsCog(commands.Cog):
    """The persistent buttons and menus of a unit's next actions (no slash commands of its own)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        # Importing these registers what each button, menu and confirmation does.
        self.flow = flow
        self.confirm = confirm

    async def cog_load(self) -> None:
        """Accept the action buttons and menus, including those posted before a restart."""
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        """Forget the action buttons and menus."""
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
