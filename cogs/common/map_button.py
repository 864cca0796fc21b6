"""The persistent "Whole map" button: under a cropped map, and on turn prompts as "Show map"."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.answers import defer
from cogs.common.components import battle_and_actor, guarded
from cogs.common.context import service_of
from cogs.common.embeds import INFO, safe
from cogs.common.mapfiles import MAP_NAME, map_file
from cogs.common.secrets import secret_viewer

MAX_COMPONENTS = 25


class MapButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:map:(?P<battle>[0-9]+)"):
    """Show the whole battle map, privately (with the presser's side's hidden features)."""

    def __init__(self, battle_id: int, label: str = "Whole map") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, emoji="\U0001f5fa\ufe0f",
                                           custom_id=f"bp:map:{battle_id}"))
        self.battle_id = battle_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MapButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Post the full map to the presser."""
        await guarded(interaction, self._show)

    async def _show(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        service = service_of(interaction)
        battle = service.read_only(record)
        await defer(interaction, ephemeral=True)
        image = await service.render(battle, full=True, viewer=secret_viewer(battle, actor.user_id),
                                     battle_id=record.id)
        embed = discord.Embed(title=f"{safe(battle.name)}: map", colour=INFO)
        embed.set_image(url=f"attachment://{MAP_NAME}")
        file = map_file(image)
        assert file is not None
        await interaction.followup.send(embed=embed, file=file, ephemeral=True)


def with_map_button(view: discord.ui.View | None, battle_id: int) -> discord.ui.View:
    """Return the view with a Whole map button added (a new view when there is none), if it has room."""
    target = view if view is not None else discord.ui.View(timeout=None)
    if len(target.children) < MAX_COMPONENTS and not any(
        isinstance(item, MapButton) for item in target.children
    ):
        target.add_item(MapButton(battle_id))
    return target
