"""Lay a unit's next actions out as buttons (and a menu past their room), within Discord's 5 rows of 5."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.service import Result
from cogs.common.action_hooks import outcome_embed_for
from cogs.common.action_items import OPTION_TEXT_MAX, ActionButton, MoreActions, Ref, short
from cogs.common.actions import ActionGroup, action_groups
from rules.battle import Battle
from rules.units import Unit

MAX_COMPONENTS = 25
MENU_OPTIONS = 25
# With a menu the panel keeps 19 buttons: four rows hold them and one free place (a Whole map button),
# and the menu takes the fifth row whole.
BUTTONS_WITH_MENU = 19
# Grouping this many orders already generated takes well under a millisecond: on the event loop, with no
# thread hop; a wider reach (a fine grid) is grouped in a thread.
GROUP_ON_LOOP = 250


def style_of(group: ActionGroup) -> discord.ButtonStyle:
    """Colour a button by what it leads to: a square (blue), a target (red), the end of the turn (green)."""
    if group.ends_turn:
        return discord.ButtonStyle.success
    if group.choosing == "square":
        return discord.ButtonStyle.primary
    if group.choosing == "unit":
        return discord.ButtonStyle.danger
    return discord.ButtonStyle.secondary


def split_panel(groups: list[ActionGroup], room: int) -> tuple[list[ActionGroup], list[ActionGroup]]:
    """Return the actions shown as buttons and those listed in the menu, for `room` free components.

    One place is always left for a Whole map button. Ending the turn stays a button however many
    actions there are.
    """
    if len(groups) <= room - 1:
        return list(groups), []
    buttons_room = max(0, min(BUTTONS_WITH_MENU, room - 6))
    enders = [g for g in groups if g.ends_turn]
    others = [g for g in groups if not g.ends_turn]
    keep = others[: max(0, buttons_room - len(enders))]
    menu = others[len(keep):][:MENU_OPTIONS]
    return keep + enders, menu


def add_panel(view: discord.ui.View, battle_id: int, unit_id: str, groups: list[ActionGroup],
              reserve: int = 0) -> list[ActionGroup]:
    """Add a unit's actions to a view, in the room it has left less `reserve` places kept for buttons added after;
    return the actions that found no place."""
    room = MAX_COMPONENTS - len(view.children) - reserve
    buttons, menu = split_panel(groups, room)
    for group in buttons:
        view.add_item(ActionButton(Ref(battle_id, unit_id, group.key), group.label, style_of(group)))
    if menu:
        options = [discord.SelectOption(label=short(g.label, OPTION_TEXT_MAX), value=g.key) for g in menu]
        view.add_item(MoreActions(Ref(battle_id, unit_id), options, "More actions\u2026"))
    shown = {g.key for g in buttons} | {g.key for g in menu}
    return [g for g in groups if g.key not in shown]


def panel_view(battle_id: int, unit_id: str, groups: list[ActionGroup]) -> discord.ui.View | None:
    """Return a view holding a unit's actions, or None when it has none."""
    if not groups:
        return None
    view = discord.ui.View(timeout=None)
    add_panel(view, battle_id, unit_id, groups)
    return view


async def groups_of(battle: Battle[Any], unit: Unit) -> list[ActionGroup]:
    """Return a unit's actions, worked out off the event loop (a wide reach takes milliseconds)."""
    return await asyncio.to_thread(action_groups, battle, unit)


async def next_actions(battle: Battle[Any], battle_id: int, unit_ref: str) -> discord.ui.View | None:
    """Return the buttons of a unit's next actions after an order, or None when it has nothing left to do."""
    if battle.status != "active" or not battle.system.has_map:
        return None
    unit = battle.find_unit(unit_ref)
    if unit is None or not unit.alive:
        return None
    return panel_view(battle_id, unit.id, await groups_of(battle, unit))


async def next_step(result: Result, unit_ref: str | None, actor_name: str = "") -> tuple[discord.ui.View | None, str]:
    """After a unit's order (executed with `follow`): its next actions as buttons, or the note that its turn ended.

    The table service decided both in the order's own trip (`result.after`, `result.ended`); nothing is generated
    here. Returns the buttons (None when there are none) and a note for the reply when the turn was ended.
    """
    battle = result.battle
    unit = battle.find_unit(unit_ref) if unit_ref else None
    if unit is None:
        return None, ""
    if result.ended is not None and result.ended.outcome is not None:
        said = outcome_embed_for(result.ended.outcome, result.ended.battle, actor_name).description or ""
        return None, f"**{unit.name} has nothing left to do, so its turn ends.**\n{said}".strip()
    if result.after is None:
        return None, ""
    if len(result.after) <= GROUP_ON_LOOP:
        groups = action_groups(battle, unit, result.after)
    else:
        # Grouping a very wide reach's orders takes milliseconds: off the event loop, as generating them was.
        groups = await asyncio.to_thread(action_groups, battle, unit, result.after)
    return panel_view(result.record.id, unit.id, groups), ""
