"""Run a combat order through the table service and post its outcome, with the map when it shows something.

The answer carries the unit's next actions as buttons.
"""

from __future__ import annotations

import discord

from bot.service import BattleRecord, Result
from cogs.common.action_panel import next_step
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import outcome_embed, with_note
from cogs.common.mapfiles import draws_something
from cogs.common.replies import defer, reply
from cogs.common.side_secrets import tell_side
from cogs.common.systems import system_embed
from cogs.common.undo import undo_view
from rules.orders import Order
from rules.outcome import Outcome


async def post_order(interaction: discord.Interaction, order: Order, record: BattleRecord | None = None) -> Result:
    """Apply an order for the user and post the outcome in the channel; refusals stay ephemeral.

    `record` is the channel's battle when the command looked it up already.
    """
    record = record if record is not None else await battle_here(interaction)
    service = service_of(interaction)
    # Resolve before deferring: a refusal then answers privately, and nothing was changed.
    result = await service.execute(actor_of(interaction), record, order, render=False, follow=getattr(order, "unit", None))
    outcome = result.outcome
    assert outcome is not None  # execute always returns the outcome of the order it applied
    await defer(interaction, when_slow=True)
    name = interaction.user.display_name

    def build(shown: Outcome) -> discord.Embed:
        return system_embed(shown, result.battle, name) or outcome_embed(
            shown, battle_name=result.battle.name, actor_name=name, system=result.battle.system.id)

    outcome = await tell_side(interaction.client, service, result.record, result.battle, outcome, build)
    png = None
    if draws_something(outcome.highlight):
        png = await service.render(result.battle, outcome=outcome, battle_id=record.id)
    embed = build(outcome)
    after, note = await next_step(result, getattr(order, "unit", None), name)
    with_note(embed, note)
    await reply(interaction, embed=embed, png=png, view=await undo_view(interaction, result, after))
    return result
