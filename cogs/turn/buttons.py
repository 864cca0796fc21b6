"""Persistent buttons on turn prompts: End turn, My options and Show map, alive across restarts.

Each button carries its battle id (and unit) in its custom id, so a bot started tomorrow rebuilds it
from the id alone (discord.ui.DynamicItem). Buttons pressed in a direct message act in the battle's
own server, for the player who pressed them.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from cogs.common.action_panel import MAX_COMPONENTS, add_panel, next_actions
from cogs.common.actions import ActionGroup
from cogs.common.components import battle_and_actor, guarded, require_commander
from cogs.common.confirm import asked_to_end_turns
from cogs.common.context import service_of
from cogs.common.map_button import MapButton
from cogs.common.replies import defer, reply
from cogs.common.undo import Seen, undo_view
from cogs.turn.options import options_embed
from cogs.turn.players import mute_turn
from cogs.turn.text import turn_embed
from rules import turns
from rules.errors import IllegalOrderError, InvalidOrderError, NotAllowedError
from rules.turnorders import EndTurn

log = logging.getLogger(__name__)

MAX_UNIT_BUTTONS = 11  # two buttons per unit, Show map and Mute this turn stay within Discord's 25 components
PICKER_OPTIONS = 25  # units in one menu
MAX_PICKERS = 4  # menus in a message, each a row; the fifth row holds Show map, Mute this turn and More units
LABEL_MAX = 80


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
        service = service_of(interaction)
        order = EndTurn(unit=self.unit)
        battle = service.read_only(record)
        unit = battle.unit(self.unit)
        await require_commander(service, actor, record, unit)
        if await asked_to_end_turns(interaction, record, actor, battle, [order]):
            return
        result = await service.execute(actor, record, order, render=False)
        assert result.outcome is not None
        await reply(interaction, embed=turn_embed(result.outcome, result.battle, actor_name=interaction.user.display_name),
                    view=await undo_view(interaction, result, seen=Seen(record.version, battle)))


class OptionsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:opts:(?P<battle>[0-9]+):(?P<unit>.+)"):
    """Show a unit's owner what it can do now (moves by mode, attacks in range), with its actions as buttons."""

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
        await show_options(interaction, self.battle_id, self.unit)


async def show_options(interaction: discord.Interaction, battle_id: int, unit_name: str) -> None:
    """Answer a unit's options, with its next actions as buttons, privately to its player or the GM."""
    record, actor = await battle_and_actor(interaction, battle_id)
    service = service_of(interaction)
    battle = service.read_only(record)
    unit = battle.unit(unit_name)
    if unit.owner != actor.user_id and not await service.is_gm(actor, record):
        raise NotAllowedError(f"{unit.name} is not yours; only its player or the GM can see its options.")
    await defer(interaction, ephemeral=True)
    embed, png = await options_embed(service, battle, unit, battle_id=record.id)
    await reply(interaction, embed=embed, png=png, ephemeral=True, view=await next_actions(battle, record.id, unit.id))


class UnitPicker(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"bp:upick:(?P<battle>[0-9]+):(?P<page>[0-9]+)"):
    """Pick one of a crowded turn's units (25 a page) to see its options and actions, privately."""

    def __init__(self, battle_id: int, page: int, units: list[str]) -> None:
        first = page * PICKER_OPTIONS + 1
        options = [discord.SelectOption(label=name[:100], value=name[:100]) for name in units] or [
            discord.SelectOption(label="-")]
        super().__init__(discord.ui.Select(
            custom_id=f"bp:upick:{battle_id}:{page}", options=options,
            placeholder=f"Units {first}-{first + len(units) - 1}: pick one for its options"[:150]))
        self.battle_id = battle_id
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> UnitPicker:
        """Rebuild the menu from its custom id; the options come back with the message."""
        options = [o.value for o in item.options] if isinstance(item, discord.ui.Select) else []
        return cls(int(match["battle"]), int(match["page"]), options)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the picked unit's options to its player or the GM."""
        await guarded(interaction, self._pick)

    async def _pick(self, interaction: discord.Interaction) -> None:
        picked = list(self.item.values)
        if not picked:
            raise InvalidOrderError("Pick a unit from the menu.")
        await show_options(interaction, self.battle_id, picked[0])


class MoreUnitsButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                      template=r"bp:umore:(?P<battle>[0-9]+):(?P<page>[0-9]+)"):
    """Open the next pages of a crowded turn's units, privately (a message holds four menus of 25)."""

    def __init__(self, battle_id: int, page: int) -> None:
        super().__init__(discord.ui.Button(label=f"Units {page * PICKER_OPTIONS + 1} on \u25b6",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"bp:umore:{battle_id}:{page}"))
        self.battle_id = battle_id
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MoreUnitsButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the presser the next pages of the units due now."""
        await guarded(interaction, self._more)

    async def _more(self, interaction: discord.Interaction) -> None:
        record, _ = await battle_and_actor(interaction, self.battle_id)
        battle = service_of(interaction).read_only(record)
        due = [turns.name_of(battle, uid) for uid in turns.next_due(battle)]
        if len(due) <= self.page * PICKER_OPTIONS:
            raise IllegalOrderError("Those units are no longer due to act; the latest turn ping lists those that are.")
        view = discord.ui.View(timeout=None)
        _add_pickers(view, record.id, due, self.page)
        await reply(interaction, f"Units due to act, from the {self.page * PICKER_OPTIONS + 1}th on:", view=view,
                    ephemeral=True)


def _add_pickers(view: discord.ui.View, battle_id: int, units: list[str], first_page: int) -> None:
    """Add up to four unit menus of 25 from a page on, and a button to the pages after them."""
    page = first_page
    while page < first_page + MAX_PICKERS and page * PICKER_OPTIONS < len(units):
        view.add_item(UnitPicker(battle_id, page, units[page * PICKER_OPTIONS:(page + 1) * PICKER_OPTIONS]))
        page += 1
    if page * PICKER_OPTIONS < len(units):
        view.add_item(MoreUnitsButton(battle_id, page))


class MuteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:mute:(?P<battle>[0-9]+)"):
    """Mute the presser's pings and reminders for the turn running now."""

    def __init__(self, battle_id: int) -> None:
        super().__init__(discord.ui.Button(label="Mute this turn", style=discord.ButtonStyle.secondary,
                                           custom_id=f"bp:mute:{battle_id}"))
        self.battle_id = battle_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MuteButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Mute for the presser, answering only them."""
        await guarded(interaction, self._mute)

    async def _mute(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        await reply(interaction, await mute_turn(service_of(interaction), record.id, actor.user_id), ephemeral=True)


def _add_mute(view: discord.ui.View, battle_id: int) -> None:
    """Add Mute this turn where the view has room left (a full panel keeps /turn mute)."""
    if len(view.children) >= MAX_COMPONENTS:
        return
    try:
        view.add_item(MuteButton(battle_id))
    except ValueError:  # a menu takes a whole row: no room after all
        return


def turn_view(battle_id: int, units: list[str], actions: tuple[str, list[ActionGroup]] | None = None) -> discord.ui.View:
    """Return the buttons of a turn prompt, and Show map.

    With `actions` (the one unit due: its id and its next actions) the prompt offers those actions as
    buttons, then My options; otherwise End turn and My options per unit.
    """
    view = discord.ui.View(timeout=None)
    if actions is not None and actions[1]:
        add_panel(view, battle_id, *actions, reserve=3)  # My options, Show map and Mute this turn come after
        view.add_item(OptionsButton(battle_id, units[0]))
        view.add_item(MapButton(battle_id, label="Show map"))
        _add_mute(view, battle_id)
        return view
    if len(units) <= MAX_UNIT_BUTTONS:
        for name in units:
            view.add_item(EndTurnButton(battle_id, name))
            view.add_item(OptionsButton(battle_id, name))
    else:
        # Too many units for two buttons each: menus of 25 units, each pick opening the unit's options.
        _add_pickers(view, battle_id, units, 0)
    view.add_item(MapButton(battle_id, label="Show map"))
    _add_mute(view, battle_id)
    return view


DYNAMIC_ITEMS = (EndTurnButton, OptionsButton, MapButton, MuteButton, UnitPicker, MoreUnitsButton)
