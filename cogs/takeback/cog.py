"""/undo and its buttons: an Undo under a player's order, and Approve/Refuse on a request to the other sides.

Every button rebuilds itself from its custom id (the battle, and for a request the battle's newest order when
it was asked), and the request itself lives in the database, so buttons keep working across restarts.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import Actor, BattleRecord, Result
from bot.takeback import TakebackPlan, answer, opponents_of, take_back
from cogs.common.components import battle_and_actor, guarded
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import edit_pressed, reply, send
from cogs.common.undo import undo_button
from rules.battle import Battle

ASK_COLOUR = discord.Colour.from_rgb(220, 150, 40)


def _lines(plan: TakebackPlan) -> str:
    return "\n".join(f"#{e.seq} `{safe(e.order_text)}`" for e in plan.undone[:10]) + (
        f"\n… and {plan.count - 10} more" if plan.count > 10 else "")


async def _undo(interaction: discord.Interaction, record: BattleRecord, actor: Actor) -> None:
    """Take back the presser's last order, or ask the other sides and post the request where they see it."""
    service = service_of(interaction)
    plan, result = await take_back(service, actor, record)
    if result is not None:
        embed = discord.Embed(title="Order taken back", colour=INFO,
                              description=f"{safe(actor.name or 'A player')} took back {_lines(plan)}.\n"
                                          "The battle is as it was before it.")
        await reply(interaction, embed=embed, png=result.png)
        return
    battle = Battle.from_dict(record.state)
    asked = sorted(opponents_of(battle, actor.user_id))
    pings = " ".join(f"<@{uid}>" for uid in asked)
    plural = "this order" if plan.count == 1 else f"these {plan.count} orders (theirs is the oldest)"
    embed = discord.Embed(
        title="Takeback asked", colour=ASK_COLOUR,
        description=(f"{safe(actor.name or 'A player')} asks to take back {plural}:\n{_lines(plan)}\n\n"
                     f"It needs the other side's approval because {plan.reason}. One approval from another "
                     "side's player, or the GM, carries it."))
    view = discord.ui.View(timeout=None)
    view.add_item(AnswerButton(record.id, plan.newest_seq, True))
    view.add_item(AnswerButton(record.id, plan.newest_seq, False))
    await reply(interaction, content=pings or None, embed=embed, view=view,
                mentions=discord.AllowedMentions(users=[discord.Object(uid) for uid in asked]))


class UndoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bp:undo:(?P<battle>[0-9]+)"):
    """Take back the presser's own last order in this battle."""

    def __init__(self, battle_id: int) -> None:
        super().__init__(undo_button(battle_id))
        self.battle_id = battle_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> UndoButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Take back the presser's last order (or ask the other sides)."""
        await guarded(interaction, self._press)

    async def _press(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        await _undo(interaction, record, actor)


class AnswerButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"bp:tb:(?P<battle>[0-9]+):(?P<seq>[0-9]+):(?P<yes>[yn])"):
    """Approve or refuse a takeback request, as a player of another side or the GM."""

    def __init__(self, battle_id: int, newest_seq: int, approve: bool) -> None:
        super().__init__(discord.ui.Button(
            label="Approve" if approve else "Refuse",
            style=discord.ButtonStyle.success if approve else discord.ButtonStyle.danger,
            custom_id=f"bp:tb:{battle_id}:{newest_seq}:{'y' if approve else 'n'}"))
        self.battle_id = battle_id
        self.newest_seq = newest_seq
        self.approve = approve

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> AnswerButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]), int(match["seq"]), match["yes"] == "y")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Settle the request; the first answer wins, a later one is refused privately."""
        await guarded(interaction, self._press)

    async def _press(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        request, result = await answer(service_of(interaction), actor, record, self.newest_seq, self.approve)
        who = safe(actor.name or "The GM")
        done = (f"**Approved by {who}**: {request.count} order(s) taken back, from #{request.order_seq} on."
                if result is not None else f"**Refused by {who}**: the order stands.")
        embed = interaction.message.embeds[0] if interaction.message and interaction.message.embeds else None
        if embed is not None:
            embed.description = f"{embed.description or ''}\n\n{done}"[:4096]
        await edit_pressed(interaction, embed=embed, view=None)
        if result is not None:
            await _post_restored(interaction, result)


async def _post_restored(interaction: discord.Interaction, result: Result) -> None:
    """Show the battle after an approved takeback where the request was answered."""
    channel = interaction.channel
    if result.png is not None and isinstance(channel, discord.abc.Messageable):
        await send(channel, content="The battle after the takeback:", png=result.png)


class TakebackCog(commands.Cog):
    """Players take their own orders back."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Register the persistent buttons."""
        self.bot.add_dynamic_items(UndoButton, AnswerButton)

    async def cog_unload(self) -> None:
        """Forget the persistent buttons."""
        self.bot.remove_dynamic_items(UndoButton, AnswerButton)

    @app_commands.guild_only()
    @app_commands.command(name="undo", description="Take back your own last order (the other side approves, if it rolled dice or showed something)")
    async def undo(self, interaction: discord.Interaction) -> None:
        """Take back your last order."""
        record = await battle_here(interaction)
        await _undo(interaction, record, actor_of(interaction))
