"""Run a combat order through the table service and post its outcome, with the map when it shows something."""

from __future__ import annotations

import discord

from bot.service import Result
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds_combat import combat_embed
from cogs.common.replies import defer, reply
from cogs.common.systems import system_embed
from rules.orders import Order

# Highlight keys that draw something on the map; an outcome marking only its actor needs no picture.
DRAWN = ("line", "target", "path", "marks")


async def post_order(interaction: discord.Interaction, order: Order) -> Result:
    """Apply an order for the user and post the outcome in the channel; refusals stay ephemeral."""
    record = await battle_here(interaction)
    service = service_of(interaction)
    # Resolve before deferring: a refusal then answers privately, and nothing was changed.
    result = await service.execute(actor_of(interaction), record, order, render=False)
    outcome = result.outcome
    assert outcome is not None  # execute always returns the outcome of the order it applied
    await defer(interaction, when_slow=True)
    png = None
    if any(outcome.highlight.get(key) for key in DRAWN):
        png = await service.render(result.battle, outcome=outcome, battle_id=record.id)
    name = interaction.user.display_name
    embed = system_embed(outcome, result.battle, name) or combat_embed(
        outcome, result.battle, battle_name=result.battle.name, actor_name=name)
    await reply(interaction, embed=embed, png=png)
    return result
