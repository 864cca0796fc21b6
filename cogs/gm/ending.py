"""Ending a battle: asked first (/battle end and /gm end alike), then the summary for everyone."""

from __future__ import annotations

import discord

from bot.service import Actor, BattleRecord, TableService
from bot.stats import battle_stats
from cogs.common.confirm import ask, close_question, on_confirm
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import safe
from cogs.common.replies import reply, send
from cogs.common.systems import front_end
from cogs.gm.summary import end_embed
from cogs.stats.embeds import stats_embed
from rules import orders as o
from rules.battle import Battle
from rules.ending import rounds_fought


async def ask_to_end(interaction: discord.Interaction) -> None:
    """Ask the GM, privately, to confirm ending the channel's battle."""
    record = await battle_here(interaction)
    service = service_of(interaction)
    await service.require_gm(actor_of(interaction), record, "end the battle")
    await ask(interaction, record.id, "end", f"End {record.name}?",
              f"**{safe(record.name)}** ends for everyone: no more orders, and its summary is posted here. "
              "The log, the export and /battle info stay readable.", [o.End()], "End the battle")


async def summary_of(service: TableService, record: BattleRecord, battle: Battle) -> discord.Embed:
    """Return the summary of an ended battle: its system's own, else rounds, survivors and casualties."""
    count = await service.db.events.count(record.id)
    front = front_end(battle)
    if front.end_summary is not None:
        return await front.end_summary(service, record, battle, count)
    # The rounds fought and the units gone for good are read back from the log, as the battle no longer has them.
    outcomes = [e.outcome for e in await service.all_events(record) if e.outcome and not e.undone]
    gone: dict[str, list[str]] = {}
    if front.gone_units is not None:
        for side, name in (pair for outcome in outcomes for pair in front.gone_units(outcome)):
            gone.setdefault(side, []).append(name)
    return end_embed(battle, count, rounds=rounds_fought(outcomes), gone=gone)


@on_confirm("end")
async def end_battle(interaction: discord.Interaction, record: BattleRecord, actor: Actor, orders: list[o.Order]) -> None:
    """End the battle (the first confirmation wins; a second finds it over) and post its summary."""
    service = service_of(interaction)
    result = await service.execute(actor, record, o.End(), render=False)
    png = await service.render(result.battle, full=True, battle_id=record.id) if result.battle.system.has_map else None
    embed = await summary_of(service, record, result.battle)
    # The players' statistics and each side's losses close the battle, in its channel, right after the summary:
    # worked out first, so nothing is left to compute once the GM has their answer.
    stats = await battle_stats(service, result.record)
    await close_question(interaction, "Confirmed: the battle is over.")
    await reply(interaction, embed=embed, png=png)
    channel = interaction.client.get_partial_messageable(record.thread_id or record.channel_id, guild_id=record.guild_id)
    await send(channel, embed=stats_embed(record.name, stats), png=stats.chart)
