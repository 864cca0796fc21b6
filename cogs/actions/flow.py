"""What pressing an action button does: take the action, or open its square or target choice, then post.

Only the unit's commander and the GM may press; anyone else is told so privately and nothing changes.
Every press is checked against the battle as it is now (a button from yesterday offers only what is
still legal). Once an action is taken from a panel, that panel's buttons for the unit are disabled and
the result is posted for everyone with the unit's next actions under it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.service import Actor, BattleRecord, MapImage, TableService
from cogs.actions.areas import Area
from cogs.actions.choosers import square_chooser, target_chooser
from cogs.common.action_hooks import outcome_embed_for
from cogs.common.action_items import Ref, handles
from cogs.common.action_panel import groups_of, next_step, panel_view
from cogs.common.actions import ActionGroup, find_group
from cogs.common.components import battle_and_actor, require_commander
from cogs.common.confirm import asked_to_end_turns
from cogs.common.context import service_of
from cogs.common.embeds import with_note
from cogs.common.mapfiles import MAP_NAME, draws_something, map_file
from cogs.common.replies import defer, echo_from_dm, edit_pressed, reply
from cogs.common.side_secrets import tell_side
from cogs.common.undo import Seen, undo_view
from cogs.common.words import command_text
from rules import turns
from rules.battle import Battle
from rules.coords import Cell
from rules.errors import GameError, InvalidOrderError, NotFoundError
from rules.orders import Order
from rules.units import Unit

log = logging.getLogger(__name__)



@dataclass
class Pressed:
    """Who pressed, in which battle, for which unit, and the unit's actions as the battle stands now."""

    service: TableService
    record: BattleRecord
    actor: Actor
    battle: Battle[Any]
    unit: Unit
    groups: list[ActionGroup]


async def pressed(interaction: discord.Interaction, ref: Ref) -> Pressed:
    """Load what a press is about and check the presser commands the unit."""
    record, actor = await battle_and_actor(interaction, ref.battle)
    service = service_of(interaction)
    battle = service.read_only(record)
    unit = battle.find_unit(ref.unit)
    if unit is None:
        raise NotFoundError("That unit is no longer in the battle, so its buttons do nothing now.")
    await require_commander(service, actor, record, unit)
    return Pressed(service, record, actor, battle, unit, await groups_of(battle, unit))


def gone(press: Pressed) -> str:
    """Say why an action offered earlier is not open any more."""
    battle, unit = press.battle, press.unit
    if battle.status != "active":
        return "The battle is not running, so its buttons do nothing now."
    why = turns.why_not_now(battle, unit.id) if turns.engaged(battle) else None
    return f"That action is no longer open to {unit.name}: {why or 'the battle has moved on since it was offered.'}"


async def refuse_with_panel(interaction: discord.Interaction, press: Pressed, message: str) -> None:
    """Refuse privately, offering the unit's actions as they are now when it has any."""
    view = panel_view(press.record.id, press.unit.id, press.groups)
    if view is not None:
        message += f"\nWhat {press.unit.name} can do now:"
    await reply(interaction, message, view=view, ephemeral=True)


def panel_id(interaction: discord.Interaction) -> int:
    """Return the id of the message pressed, when it is one the bot can edit later (not a private one)."""
    message = interaction.message
    if message is None or message.flags.ephemeral:
        return 0
    return message.id


def spent(view: discord.ui.View, ref: Ref) -> discord.ui.View:
    """Disable a unit's action buttons and menu in a panel's view, leaving the rest (the map button) alone."""
    mine = (f"bp:do:{ref.battle}:{ref.unit}:", f"bp:more:{ref.battle}:{ref.unit}")
    for item in view.children:
        custom_id = getattr(item, "custom_id", None)
        if isinstance(custom_id, str) and custom_id.startswith(mine) and hasattr(item, "disabled"):
            item.disabled = True
    return view


@handles("do")
async def press_action(interaction: discord.Interaction, ref: Ref, _values: list[str]) -> None:
    """Take the action pressed, or open its square or target choice privately."""
    press = await pressed(interaction, ref)
    group = find_group(press.groups, ref.key)
    if group is None:
        await refuse_with_panel(interaction, press, gone(press))
        return
    if group.choosing is None:
        if await asked_to_end_turns(interaction, press.record, press.actor, press.battle, group.orders[:1]):
            return
        await take(interaction, press, group.orders[0], ref, from_panel=True)
        return
    await defer(interaction, ephemeral=True)
    choice = Ref(ref.battle, ref.unit, ref.key, panel_id(interaction))
    if group.choosing == "square":
        embed, png, view = await square_chooser(press.service, press.battle, choice, press.unit, group)
    else:
        embed, png, view = await target_chooser(press.service, press.battle, choice, press.unit, group)
    await reply(interaction, embed=embed, png=png, view=view, ephemeral=True)


@handles("more")
async def pick_action(interaction: discord.Interaction, ref: Ref, values: list[str]) -> None:
    """Take the action picked from the More actions menu, as its button would."""
    await press_action(interaction, Ref(ref.battle, ref.unit, values[0] if values else ""), [])


async def _chosen_group(interaction: discord.Interaction, ref: Ref) -> tuple[Pressed, ActionGroup | None]:
    press = await pressed(interaction, ref)
    return press, find_group(press.groups, ref.key)


@handles("ar")
async def pick_area(interaction: discord.Interaction, ref: Ref, values: list[str]) -> None:
    """Narrow a square choice to the area picked."""
    try:
        area = Area.parse(values[0])
    except (ValueError, IndexError):
        raise InvalidOrderError("That area is not one this menu offered; press the action's button again.") from None
    press, group = await _chosen_group(interaction, ref)
    if group is None or group.choosing != "square":
        await refuse_with_panel(interaction, press, gone(press))
        return
    embed, png, view = await square_chooser(press.service, press.battle, ref, press.unit, group, area)
    files = [] if png is None else [_file(png)]
    if png is not None:
        embed.set_image(url=f"attachment://{MAP_NAME}")
    await edit_pressed(interaction, embed=embed, attachments=files, view=view)


def _file(png: MapImage) -> discord.File:
    file = map_file(png)
    assert file is not None
    return file


@handles("sq")
async def pick_square(interaction: discord.Interaction, ref: Ref, values: list[str]) -> None:
    """Take the action to the square picked."""
    try:
        cell = Cell.parse(values[0])
    except (GameError, IndexError):
        raise InvalidOrderError("That square is not one this menu offered; press the action's button again.") from None
    press, group = await _chosen_group(interaction, ref)
    order = group.order_for(cell) if group is not None else None
    if order is None:
        await refuse_with_panel(interaction, press, gone(press) if group is None else
                                f"{press.unit.name} cannot go to {cell} now; pick again from its actions.")
        return
    await take(interaction, press, order, ref, from_panel=False)


@handles("tg")
async def pick_target(interaction: discord.Interaction, ref: Ref, values: list[str]) -> None:
    """Take the action against the unit picked."""
    press, group = await _chosen_group(interaction, ref)
    target = press.battle.find_unit(values[0]) if values else None
    order = group.order_for(target.name) if group is not None and target is not None else None
    if order is None:
        name = target.name if target is not None else "That unit"
        await refuse_with_panel(interaction, press, gone(press) if group is None else
                                f"{name} is not a target {press.unit.name} can take now; pick again from its actions.")
        return
    await take(interaction, press, order, ref, from_panel=False)


async def take(interaction: discord.Interaction, press: Pressed, order: Order, ref: Ref, *, from_panel: bool) -> None:
    """Apply the order, close the panel or the choice it came from, and post the result with what comes next."""
    service = press.service
    result = await service.execute(press.actor, press.record, order, render=False, follow=ref.unit)
    outcome = result.outcome
    assert outcome is not None
    # Everything slow comes before the answer, so the result follows it at once.
    actor_name = interaction.user.display_name
    outcome = await tell_side(interaction.client, service, result.record, result.battle, outcome,
                              lambda shown: outcome_embed_for(shown, result.battle, actor_name))
    png = None
    if draws_something(outcome.highlight):
        png = await service.render(result.battle, outcome=outcome, battle_id=result.record.id)
    embed = outcome_embed_for(outcome, result.battle, actor_name)
    after, note = await next_step(result, ref.unit, actor_name)
    with_note(embed, note)
    if from_panel and interaction.message is not None:
        await edit_pressed(interaction, view=spent(discord.ui.View.from_message(interaction.message,
                                                                                         timeout=None), ref))
    else:
        await edit_pressed(interaction, content=f"Done: `{command_text(str(order), result.battle.system.id)}`. The result is posted below.", embed=None,
                                                attachments=[], view=None)
    await reply(interaction, embed=embed, png=png,
                view=await undo_view(interaction, result, after, Seen(press.record.version, press.battle)))
    await echo_from_dm(interaction, result.record.thread_id or result.record.channel_id, result.record.guild_id,
                       embed=outcome_embed_for(outcome, result.battle, actor_name), png=png)
    if not from_panel and ref.panel:
        await disable_panel(interaction, ref)


async def disable_panel(interaction: discord.Interaction, ref: Ref) -> None:
    """Disable the unit's buttons on the panel a choice was opened from; a panel gone or out of reach is left."""
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable):
        return
    try:
        message = await channel.fetch_message(ref.panel)
        await message.edit(view=spent(discord.ui.View.from_message(message, timeout=None), ref))
    except discord.HTTPException as exc:
        log.info("could not disable the action panel %s of battle %s (%s)", ref.panel, ref.battle, exc)
