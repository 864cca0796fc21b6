"""Fight a Surface Combat engagement and post its report, with what comes next: the next game turn, or the end.

The slash commands, the plan buttons and the clock's deadline all post a fought engagement this one way.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.service import Actor, BattleRecord
from cogs.common.components import battle_and_actor, guarded
from cogs.common.context import service_of
from cogs.common.replies import reply, send
from cogs.surface.buttons import report_view
from cogs.surface.report import report_embed
from rules.battle import Battle
from rules.errors import IllegalOrderError
from rules.systems.surface.details import SurfaceReport
from rules.systems.surface.orders import NextTurn, Resolve
from rules.systems.surface.state import state

NEXT_TURN_TEXT = "A new game turn begins: each side commits a new plan."


def game_turn(battle: Battle) -> int:
    """Return the game turn a Surface battle is in."""
    return state(battle).turn


class NextTurnButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"bp:snext:(?P<battle>[0-9]+):(?P<turn>[0-9]+)"):
    """Open the next game turn (GM): the survivors fight on and each side plans again."""

    def __init__(self, battle_id: int, turn: int) -> None:
        super().__init__(discord.ui.Button(label="Next game turn (GM)", style=discord.ButtonStyle.primary,
                                           custom_id=f"bp:snext:{battle_id}:{turn}"))
        self.battle_id = battle_id
        self.turn = turn

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> NextTurnButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]), int(match["turn"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the next game turn, once: a second press finds it open already."""
        await guarded(interaction, self._next)

    async def _next(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        service = service_of(interaction)
        await service.require_gm(actor, record, "open the next game turn")
        battle = await service.load(record)
        if state(battle).turn != self.turn:
            raise IllegalOrderError(f"Game turn {self.turn} is over already; the next one is open.")
        await run_next_turn(interaction, record, actor, NextTurn())


def after_fight_view(battle_id: int, battle: Battle, report: SurfaceReport) -> discord.ui.View | None:
    """Return the report's page buttons and, while the battle can go on, the GM's Next game turn button."""
    view = report_view(battle_id, battle, report, 1) or discord.ui.View(timeout=None)
    if battle.status == "active" and battle.system.verdict(battle) is None:
        view.add_item(NextTurnButton(battle_id, game_turn(battle)))
    return view if view.children else None


async def fight_and_report(interaction: discord.Interaction, record: BattleRecord, actor: Actor, order: Resolve) -> None:
    """Fight the engagement as the actor and post the report for everyone, with its chart."""
    service = service_of(interaction)
    result = await service.execute(actor, record, order, render=False)
    assert result.outcome is not None
    report = result.outcome.details_as(SurfaceReport)
    assert report is not None  # a resolve that succeeds reports the engagement
    embed = report_embed(result.battle, report, 1)
    png = await service.surface_chart(report, result.battle)
    view = after_fight_view(record.id, result.battle, report)
    if interaction.guild_id is None:
        # The last plan came from a direct message: the battle is fought for everyone, in its channel.
        channel = interaction.client.get_partial_messageable(record.thread_id or record.channel_id,
                                                             guild_id=record.guild_id)
        await send(channel, embed=embed, png=png, view=view)
        await reply(interaction, f"The battle is fought: its report is posted in the battle's channel "
                    f"(<#{record.thread_id or record.channel_id}>).", ephemeral=True)
        return
    await reply(interaction, embed=embed, png=png, view=view)


async def run_next_turn(interaction: discord.Interaction, record: BattleRecord, actor: Actor, order: NextTurn) -> None:
    """Open the next game turn as the actor and say so for everyone (the plans' ping follows)."""
    await service_of(interaction).execute(actor, record, order, render=False)
    await reply(interaction, NEXT_TURN_TEXT)
