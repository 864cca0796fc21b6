"""Persistent buttons on turn prompts: End turn, My options and Show map, alive across restarts.

Each button carries its battle id (and unit) in its custom id, so a bot started tomorrow rebuilds it
from the id alone (discord.ui.DynamicItem). Buttons pressed in a direct message act in the battle's
own server, for the player who pressed them.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.service import Actor, BattleRecord
from bot.tree import send_error, user_message
from cogs.common.context import actor_of, service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import reply
from cogs.turn.options import options_embed
from cogs.turn.text import turn_embed
from rules.turnorders import EndTurn

log = logging.getLogger(__name__)

MAX_UNIT_BUTTONS = 12  # two buttons per unit plus Show map stay within Discord's 25 components
LABEL_MAX = 80


async def guarded(interaction: discord.Interaction, handler: Callable[[discord.Interaction], Awaitable[None]]) -> None:
    """Run a component handler; refusals go back to the presser alone, surprises are logged with an id."""
    try:
        await handler(interaction)
    except Exception as exc:
        message = user_message(exc)
        if message is None:
            error_id = secrets.token_hex(4)
            data: dict[str, Any] = dict(interaction.data or {})
            log.error("error %s in component %s by user %s in guild %s", error_id, data.get("custom_id"),
                      interaction.user.id, interaction.guild_id, exc_info=exc)
            message = f"Sorry, something went wrong on our side (error `{error_id}`). Nothing was changed."
        await send_error(interaction, message)


async def battle_and_actor(interaction: discord.Interaction, battle_id: int) -> tuple[BattleRecord, Actor]:
    """Return the battle a button names and who pressed it (in a DM, as a player of the battle's server)."""
    service = service_of(interaction)
    if interaction.guild_id is None:
        record = await service.battle_by_id(battle_id)
        user = interaction.user
        return record, Actor(user_id=user.id, guild_id=record.guild_id, name=user.display_name)
    actor = actor_of(interaction)
    return await service.get_battle(actor.guild_id, battle_id), actor


def _label(prefix: str, unit: str) -> str:
    text = f"{prefix}: {unit}"
    return text if len(text) <= LABEL_MAX else text[: LABEL_MAX - 1] + "\u2026"


class EndTurnButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:end:(?P<battle>[0-9]+):(?P<unit>.+)"):
    """End one unit's turn."""

    def __init__(self, battle_id: int, unit: str) -> None:
        super().__init__(discord.ui.Button(label=_label("End turn", unit), style=discord.ButtonStyle.primary,
                                           custom_id=f"bp:end:{battle_id}:{unit}"))
        self.battle_id = battle_id
        self.unit = unit

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> EndTurnButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]), match["unit"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """End the unit's turn for its owner or the GM."""
        await guarded(interaction, self._end)

    async def _end(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        result = await service_of(interaction).execute(actor, record, EndTurn(unit=self.unit), render=False)
        assert result.outcome is not None
        await reply(interaction, embed=turn_embed(result.outcome, result.battle, actor_name=interaction.user.display_name))


class OptionsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:opts:(?P<battle>[0-9]+):(?P<unit>.+)"):
    """Show a unit's owner what it can do now: moves by mode, attacks in range."""

    def __init__(self, battle_id: int, unit: str) -> None:
        super().__init__(discord.ui.Button(label=_label("My options", unit), style=discord.ButtonStyle.secondary,
                                           custom_id=f"bp:opts:{battle_id}:{unit}"))
        self.battle_id = battle_id
        self.unit = unit

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> OptionsButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]), match["unit"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer the unit's options to its owner or the GM, privately."""
        await guarded(interaction, self._options)

    async def _options(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        service = service_of(interaction)
        battle = await service.load(record)
        unit = battle.unit(self.unit)
        if unit.owner != actor.user_id and not await service.is_gm(actor, record):
            from rules.errors import NotAllowedError

            raise NotAllowedError(f"{unit.name} is not yours; only its player or the GM can see its options.")
        await interaction.response.defer(thinking=True, ephemeral=True)
        embed, png = await options_embed(service, battle, unit)
        await reply(interaction, embed=embed, png=png, ephemeral=True)


class MapButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:map:(?P<battle>[0-9]+)"):
    """Show the whole battle map, privately."""

    def __init__(self, battle_id: int) -> None:
        super().__init__(discord.ui.Button(label="Show map", style=discord.ButtonStyle.secondary, emoji="\U0001f5fa\ufe0f",
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
        record, _actor = await battle_and_actor(interaction, self.battle_id)
        service = service_of(interaction)
        battle = await service.load(record)
        await interaction.response.defer(thinking=True, ephemeral=True)
        png = await service.render(battle, full=True)
        embed = discord.Embed(title=f"{safe(battle.name)}: map", colour=INFO)
        await reply(interaction, embed=embed, png=png, ephemeral=True)


def turn_view(battle_id: int, units: list[str]) -> discord.ui.View:
    """Return the buttons of a turn prompt: End turn and My options per unit, and Show map."""
    view = discord.ui.View(timeout=None)
    for name in units[:MAX_UNIT_BUTTONS]:
        view.add_item(EndTurnButton(battle_id, name))
        view.add_item(OptionsButton(battle_id, name))
    view.add_item(MapButton(battle_id))
    return view


DYNAMIC_ITEMS = (EndTurnButton, OptionsButton, MapButton)
