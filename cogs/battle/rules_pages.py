"""/battle rules show: the ruleset's named constants with the GM's overrides, in pages with buttons."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.battle.rules_text import constant_lines, homebrew_sections
from cogs.common.components import battle_and_actor, guarded
from cogs.common.context import service_of
from cogs.common.embeds import INFO
from cogs.common.pages import page_embed, paginate
from cogs.common.replies import edit_pressed
from rules.battle import Battle

FOOTER = "A GM changes one with /battle rules set key value"


def rule_lines(battle: Battle) -> list[str]:
    """Return the battle's homebrew rows under their headings, then one line per rule constant."""
    lines: list[str] = []
    for title, rows in homebrew_sections(battle):
        lines += [f"**{title}**", *rows]
    if lines:
        lines.append("**Rule constants**")
    return lines + constant_lines(battle)


def rules_message(battle: Battle, battle_id: int, page: int) -> tuple[discord.Embed, discord.ui.View | None]:
    """Build one page of the rule constants, with buttons to the others when there are several."""
    pages = paginate(rule_lines(battle))
    number = min(max(1, page), len(pages))
    embed = page_embed(f"Rule constants: {battle.ruleset_id}", pages, number, FOOTER, INFO)
    if len(pages) == 1:
        return embed, None
    view = discord.ui.View(timeout=None)
    view.add_item(RulesPageButton(battle_id, number - 1, f"\u25c0 Page {max(1, number - 1)}", disabled=number <= 1))
    view.add_item(RulesPageButton(battle_id, number + 1, f"Page {min(len(pages), number + 1)} \u25b6",
                                  disabled=number >= len(pages)))
    return embed, view


class RulesPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"bp:rules:(?P<battle>[0-9]+):(?P<page>[0-9]+)"):
    """Turn the pages of the rule constants."""

    def __init__(self, battle_id: int, page: int, label: str = "Page", *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"bp:rules:{battle_id}:{max(0, page)}"))
        self.battle_id = battle_id
        self.page = max(1, page)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RulesPageButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page this button points at."""
        await guarded(interaction, self._turn)

    async def _turn(self, interaction: discord.Interaction) -> None:
        record, _actor = await battle_and_actor(interaction, self.battle_id)
        battle = await service_of(interaction).load(record)
        embed, view = rules_message(battle, record.id, self.page)
        await edit_pressed(interaction, embed=embed, view=view)
