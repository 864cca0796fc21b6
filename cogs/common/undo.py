"""The Undo button under an order's reply: shown while the order may be taken back by its player alone.

The button's press is answered by the takeback cog's persistent button of the same custom id, so it works
across restarts; here it is only built and added.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.service import Result
from bot.takeback import Seen, offers_undo
from cogs.common.context import service_of

__all__ = ["Seen", "undo_button", "undo_view", "with_undo"]


def undo_button(battle_id: int) -> discord.ui.Button[Any]:
    """Return the Undo button of a battle (its press takes back the presser's own last order there)."""
    return discord.ui.Button(label="Undo", style=discord.ButtonStyle.secondary, custom_id=f"bp:undo:{battle_id}")


def with_undo(view: discord.ui.View | None, battle_id: int) -> discord.ui.View:
    """Add an Undo button to an order's reply (left out when the reply's buttons fill the message)."""
    view = view if view is not None else discord.ui.View(timeout=None)
    try:
        view.add_item(undo_button(battle_id))
    except ValueError:
        pass  # a full panel of the unit's next actions matters more; /undo still works
    return view


async def undo_view(interaction: discord.Interaction, result: Result,
                    view: discord.ui.View | None = None, seen: Seen | None = None) -> discord.ui.View | None:
    """Return an order reply's buttons with Undo added when the order may be taken back alone (no dice, no secret).

    `seen` is the battle read before the order, when the command read it: then nothing is read or decoded again.
    """
    if not await offers_undo(service_of(interaction), result, seen):
        return view
    return with_undo(view, result.record.id)
