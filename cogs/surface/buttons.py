"""The battle report's page buttons: anyone opens the round-by-round log privately and pages through it.

The custom id carries the battle, the game turn and the page, so a button keeps working after a restart,
and a button of an earlier turn's report says so instead of showing another turn's log.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.answers import defer
from cogs.common.components import battle_and_actor, guarded
from cogs.common.context import service_of
from cogs.surface.fought import fought_report
from cogs.surface.report import page_count, report_embed
from rules.battle import Battle
from rules.errors import IllegalOrderError
from rules.systems.surface.details import SurfaceReport
from rules.systems.surface.state import state


def _turn(battle: Battle) -> int:
    return state(battle).turn


class ReportPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=r"bp:srep:(?P<battle>[0-9]+):(?P<turn>[0-9]+):(?P<page>[0-9]+):(?P<dir>[pn])"):
    """Open a page of the round-by-round log (earlier or later), seen only by whoever pressed it."""

    def __init__(self, battle_id: int, turn: int, page: int, direction: str, *, disabled: bool = False) -> None:
        label = "\u25c0 Earlier rounds" if direction == "p" else "Later rounds \u25b6"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"bp:srep:{battle_id}:{turn}:{max(1, page)}:{direction}"))
        self.battle_id = battle_id
        self.turn = turn
        self.page = max(1, page)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReportPageButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]), int(match["turn"]), int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page this button points at."""
        await guarded(interaction, self._show)

    async def _show(self, interaction: discord.Interaction) -> None:
        message = interaction.message
        # The public report stays as everyone sees it; paging happens in a private copy. Answer Discord at
        # once: a long engagement's log takes a moment to read back.
        private = message is not None and message.flags.ephemeral
        await defer(interaction, ephemeral=True, thinking=not private)
        record, _ = await battle_and_actor(interaction, self.battle_id)
        service = service_of(interaction)
        battle = await service.load(record)
        if _turn(battle) != self.turn:
            raise IllegalOrderError(f"This report is of game turn {self.turn}, which is over; `/surface report` "
                                    "shows the latest.")
        report = await fought_report(service, record, battle)
        embed = report_embed(battle, report, self.page)
        view = report_view(record.id, battle, report, self.page) or discord.utils.MISSING
        if private:
            await interaction.edit_original_response(embed=embed, view=view)
        else:
            await interaction.followup.send(embed=embed, view=view, ephemeral=True)


def report_view(battle_id: int, battle: Battle, report: SurfaceReport, page: int) -> discord.ui.View | None:
    """Return the Earlier/Later buttons of a report page, or nothing when the log fits one page."""
    pages = page_count(report)
    if pages <= 1:
        return None
    page = max(1, min(page, pages))
    view = discord.ui.View(timeout=None)
    turn = _turn(battle)
    view.add_item(ReportPageButton(battle_id, turn, page - 1, "p", disabled=page <= 1))
    view.add_item(ReportPageButton(battle_id, turn, page + 1, "n", disabled=page >= pages))
    return view
