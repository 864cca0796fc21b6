"""Ask before what cannot be taken back: a private question with Confirm and Cancel, alive across restarts.

The orders a Confirm gives are written in the question's footer as the commands that give them (the order's own
text where no command says it whole), so the button needs no memory: after a restart it reads them back from
the message it sits on. Each press goes through the
table service as the presser, so the first confirmation wins and a second is refused (the turn or the
battle is already over).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.service import Actor, BattleRecord, Result
from cogs.common.action_hooks import outcome_embed_for
from cogs.common.action_panel import next_step
from cogs.common.components import battle_and_actor, guarded
from cogs.common.context import service_of
from cogs.common.embeds import safe, with_note
from cogs.common.mapfiles import draws_something
from cogs.common.replies import echo_from_dm, edit_pressed, reply
from cogs.common.undo import undo_view
from cogs.common.words import command_text, order_text
from rules import turns
from rules.battle import Battle
from rules.errors import GameError, InvalidOrderError
from rules.orders import Order

WARN = discord.Colour.from_rgb(220, 150, 40)
FOOTER_HEAD = "On confirm:"

# What a confirmation does: given the presser and the orders read back, post the result for everyone.
Confirmed = Callable[[discord.Interaction, BattleRecord, Actor, list[Order]], Awaitable[None]]
_CONFIRMED: dict[str, Confirmed] = {}


def on_confirm(what: str) -> Callable[[Confirmed], Confirmed]:
    """Register what confirming a question of this kind does (`orders` gives the orders as they are)."""

    def wrap(fn: Confirmed) -> Confirmed:
        _CONFIRMED[what] = fn
        return fn

    return wrap


def question(battle_id: int, what: str, title: str, text: str, orders: Sequence[Order],
             confirm: str) -> tuple[discord.Embed, discord.ui.View]:
    """Build a question: what will happen, and the buttons to go ahead or to leave things as they are."""
    embed = discord.Embed(title=title[:256], colour=WARN, description=text[:4000])
    embed.set_footer(text="\n".join([FOOTER_HEAD, *(_written(o) for o in orders)])[:2048])
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(battle_id, what, confirm))
    view.add_item(CancelButton(battle_id))
    return embed, view


def _written(order: Order) -> str:
    """Write an order for a question's footer: the command a player knows, when it reads back as the same order."""
    command = command_text(str(order))
    back = order_text(command)
    try:
        same = back is not None and Order.parse(back) == order
    except GameError:
        same = False
    return command if same else str(order)


def orders_of(message: discord.Message | None) -> list[Order]:
    """Read the orders a question will give back from its footer."""
    footer = message.embeds[0].footer.text if message is not None and message.embeds else None
    lines = (footer or "").split("\n")
    if not lines or lines[0] != FOOTER_HEAD:
        raise InvalidOrderError("This message is not a question battlepost asked; nothing was changed.")
    return [Order.parse(order_text(line) or line) for line in lines[1:] if line.strip()]


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"bp:ok:(?P<battle>[0-9]+):(?P<what>[a-z-]+)"):
    """Go ahead with what the question says."""

    def __init__(self, battle_id: int, what: str, label: str = "Confirm") -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=discord.ButtonStyle.danger,
                                           custom_id=f"bp:ok:{battle_id}:{what}"))
        self.battle_id = battle_id
        self.what = what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ConfirmButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Give the question's orders as the presser; a refusal leaves the question open."""
        await guarded(interaction, self._confirm)

    async def _confirm(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        handler = _CONFIRMED.get(self.what)
        if handler is None:
            raise InvalidOrderError("battlepost no longer knows this question; ask again with the command.")
        await handler(interaction, record, actor, orders_of(interaction.message))


class CancelButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:no:(?P<battle>[0-9]+)"):
    """Leave things as they are."""

    def __init__(self, battle_id: int) -> None:
        super().__init__(discord.ui.Button(label="Cancel", style=discord.ButtonStyle.secondary,
                                           custom_id=f"bp:no:{battle_id}"))
        self.battle_id = battle_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> CancelButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Close the question; nothing changes."""
        await guarded(interaction, self._cancel)

    async def _cancel(self, interaction: discord.Interaction) -> None:
        await edit_pressed(interaction, content="Cancelled: nothing was changed.", embed=None, view=None)


async def ask(interaction: discord.Interaction, battle_id: int, what: str, title: str, text: str,
              orders: Sequence[Order], confirm: str) -> None:
    """Ask the user privately before going ahead; nothing changes until they confirm."""
    embed, view = question(battle_id, what, title, text, orders, confirm)
    await reply(interaction, embed=embed, view=view, ephemeral=True)


def unused_points(battle: Battle[Any], orders: Sequence[Order]) -> list[tuple[str, int]]:
    """Return the units whose turn these orders end with action points left, and how many."""
    if battle.status != "active" or not turns.engaged(battle):
        return []
    names: list[str] = []
    due: list[str] | None = None  # worked out once, and only for an order that names no unit
    for order in orders:
        if order.kind != "end-turn":
            continue
        named = getattr(order, "unit", "")
        if not named and due is None:
            due = list(turns.next_due(battle))
        names += [named] if named else ([due[0]] if due is not None and len(due) == 1 else [])
    found = []
    for name in dict.fromkeys(names):
        unit = battle.find_unit(name)
        if unit is None or turns.why_not_now(battle, unit.id) is not None:
            continue  # the rules refuse that end of turn themselves, with their reason
        left = turns.actions_left(battle, unit.id)
        if left > 0:
            found.append((unit.name, left))
    return found


async def asked_to_end_turns(interaction: discord.Interaction, record: BattleRecord, actor: Actor,
                             battle: Battle[Any], orders: Sequence[Order]) -> bool:
    """Ask before ending turns with action points unused; return whether a question was asked.

    Only the units' commanders are asked: anyone else is refused by the rules when the order is given.
    """
    unused = unused_points(battle, orders)
    if not unused:
        return False
    service = service_of(interaction)
    if not await service.is_gm(actor, record) and any(
            battle.unit(name).owner != actor.user_id for name, _left in unused):
        return False
    battle_id = record.id
    several = len(unused) > 1 or len(orders) > 1
    if turns.turn_rules(battle.ruleset_id).budget == 1:  # one action a turn (M42): no points to speak of
        who = ", ".join(f"{safe(name)} has not taken its action" for name, _left in unused)
        title, lost = "End the turn without acting?", "An action not taken is lost when the turn ends."
    else:
        who = ", ".join(f"{safe(name)} has **{left} AP** left" for name, left in unused)
        title, lost = "End the turn with action points unused?", "Unused action points are lost when the turn ends."
    await ask(interaction, battle_id, "orders", title if not several else title.replace("the turn", "these turns"),
              f"{who}. {lost}", orders, "End turn anyway" if not several else "End them anyway")
    return True


async def close_question(interaction: discord.Interaction, done: str) -> None:
    """Answer a Confirm by closing its question, so it cannot be pressed again."""
    await edit_pressed(interaction, content=done, embed=None, view=None)


@on_confirm("orders")
async def give_orders(interaction: discord.Interaction, record: BattleRecord, actor: Actor, orders: list[Order]) -> None:
    """Give the confirmed orders in turn and post what they did, with the unit's next actions."""
    service = service_of(interaction)
    follow = getattr(orders[-1], "unit", None)
    results: list[Result] = []
    for i, order in enumerate(orders):
        # Only the last order's unit is followed: its next actions (or its idle turn's end) close the reply.
        results.append(await service.execute(actor, record, order, render=False,
                                             follow=follow if i == len(orders) - 1 else None))
    last = results[-1]
    outcome = last.outcome
    assert outcome is not None
    png = None
    if draws_something(outcome.highlight):
        png = await service.render(last.battle, outcome=outcome, battle_id=record.id)
    embed = outcome_embed_for(outcome, last.battle, interaction.user.display_name)
    if len(results) > 1:
        shown = [outcome_embed_for(r.outcome, r.battle, interaction.user.display_name) for r in results
                 if r.outcome is not None]
        embed.description = "\n".join(e.description or e.title or "" for e in shown)[:4000]
        if all(o.kind == "end-turn" for o in orders):
            embed.title = "Turns ended"
    after, note = await next_step(last, follow, interaction.user.display_name)
    with_note(embed, note)
    await close_question(interaction, "Confirmed.")
    await reply(interaction, embed=embed, png=png, view=await undo_view(interaction, last, after))
    await echo_from_dm(interaction, record.thread_id or record.channel_id, record.guild_id, embed=embed, png=png)


DYNAMIC_ITEMS = (ConfirmButton, CancelButton)
