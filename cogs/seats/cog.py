"""/seat release, /seat approval, and the Take seat and Approve buttons, alive across restarts.

A button names its battle and the player who left the seat; the seat itself lives in the database.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.absence import on_notice
from bot.seats import approve, release, remove_player, take
from bot.service import Notice
from cogs.common.components import battle_and_actor, guarded
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import edit_pressed, reply, send

log = logging.getLogger(__name__)

SEAT_COLOUR = discord.Colour.from_rgb(90, 140, 220)
DISORDER_COLOUR = discord.Colour.from_rgb(200, 80, 60)
MAX_DISORDER_AFTER = 20


def _append(interaction: discord.Interaction, line: str) -> discord.Embed | None:
    """Return the pressed post's embed with a line added at its end."""
    message = interaction.message
    if message is None or not message.embeds:
        return None
    embed = message.embeds[0]
    embed.description = f"{embed.description or ''}\n\n{line}"[:4096]
    return embed


class TakeSeatButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"bp:seat:(?P<battle>[0-9]+):(?P<user>[0-9]+)"):
    """Take over a freed seat: its units, its side thread and its pings."""

    def __init__(self, battle_id: int, user_id: int) -> None:
        super().__init__(discord.ui.Button(label="Take seat", style=discord.ButtonStyle.success,
                                           custom_id=f"bp:seat:{battle_id}:{user_id}"))
        self.battle_id = battle_id
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TakeSeatButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Take the seat, or ask the GM to approve."""
        await guarded(interaction, self._press)

    async def _press(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        seat, taken = await take(service_of(interaction), actor, record, self.user_id)
        if taken:
            embed = _append(interaction, f"**{safe(actor.name)} took this seat**: {seat.sides} is theirs to command.")
            await edit_pressed(interaction, embed=embed, view=None)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(ApproveSeatButton(self.battle_id, self.user_id))
        embed = _append(interaction, f"**{safe(actor.name)} asks to take this seat**; the GM approves.")
        await edit_pressed(interaction, embed=embed, view=view)


class ApproveSeatButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=r"bp:seatok:(?P<battle>[0-9]+):(?P<user>[0-9]+)"):
    """Let the member who asked for a seat take it (GM)."""

    def __init__(self, battle_id: int, user_id: int) -> None:
        super().__init__(discord.ui.Button(label="Approve substitute", style=discord.ButtonStyle.primary,
                                           custom_id=f"bp:seatok:{battle_id}:{user_id}"))
        self.battle_id = battle_id
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ApproveSeatButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Give the seat to its candidate."""
        await guarded(interaction, self._press)

    async def _press(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        seat = await approve(service_of(interaction), actor, record, self.user_id)
        embed = _append(interaction, f"**The GM approved**: <@{seat.taken_by}> commands {seat.sides} now.")
        await edit_pressed(interaction, embed=embed, view=None)


class FreeAbsentSeatButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                           template=r"bp:cdfree:(?P<battle>[0-9]+):(?P<user>[0-9]+)"):
    """Free an absent player's seat for a substitute (the GM or another player of the battle)."""

    def __init__(self, battle_id: int, user_id: int) -> None:
        super().__init__(discord.ui.Button(label="Free the seat for a substitute", style=discord.ButtonStyle.primary,
                                           custom_id=f"bp:cdfree:{battle_id}:{user_id}"))
        self.battle_id = battle_id
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> FreeAbsentSeatButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Free the seat and offer it to the channel."""
        await guarded(interaction, self._press)

    async def _press(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        seat = await release(service_of(interaction), actor, record, self.user_id, absent=True)
        embed = _append(interaction, f"**{safe(actor.name)} freed the seat** for a substitute.")
        await edit_pressed(interaction, embed=embed, view=None)
        post, view = seat_post(record.id, self.user_id, seat.sides, len(seat.units), True)
        post.description = (post.description or "").replace("The GM freed", f"{safe(actor.name)} freed", 1)
        channel = interaction.client.get_partial_messageable(record.thread_id or record.channel_id,
                                                            guild_id=record.guild_id)
        await send(channel, embed=post, view=view)


class RemoveAbsentButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                         template=r"bp:cdout:(?P<battle>[0-9]+):(?P<user>[0-9]+)"):
    """Take an absent player's units away: the GM commands them (the GM or another player of the battle)."""

    def __init__(self, battle_id: int, user_id: int) -> None:
        super().__init__(discord.ui.Button(label="Remove the player", style=discord.ButtonStyle.danger,
                                           custom_id=f"bp:cdout:{battle_id}:{user_id}"))
        self.battle_id = battle_id
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RemoveAbsentButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["battle"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Remove the absent player."""
        await guarded(interaction, self._press)

    async def _press(self, interaction: discord.Interaction) -> None:
        record, actor = await battle_and_actor(interaction, self.battle_id)
        names = await remove_player(service_of(interaction), actor, record, self.user_id)
        embed = _append(interaction, f"**{safe(actor.name)} removed <@{self.user_id}>**: the GM commands "
                                     f"{safe(', '.join(names)) or 'their units'} now.")
        await edit_pressed(interaction, embed=embed, view=None)


def seat_post(battle_id: int, user_id: int, sides: str, units: int, by_gm: bool) -> tuple[discord.Embed,
                                                                                          discord.ui.View]:
    """Build the post offering a freed seat to the channel."""
    why = "The GM freed" if by_gm else "A player freed"
    embed = discord.Embed(title=f"A seat is free: {sides}", colour=SEAT_COLOUR, description=(
        f"{why} the seat of <@{user_id}> ({units} unit{'s' if units != 1 else ''} of {safe(sides)}); the GM "
        "commands them until somebody takes it. Press **Take seat** to play them: their turns, pings and "
        "side thread become yours."))
    view = discord.ui.View(timeout=None)
    view.add_item(TakeSeatButton(battle_id, user_id))
    return embed, view


@app_commands.guild_only()
class SeatCog(commands.GroupCog, group_name="seat", group_description="Leave a battle, or let a substitute in"):
    """Seats: who plays which units, and substitutes."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        """Register the persistent buttons, and follow missed deadlines."""
        self.bot.add_dynamic_items(*BUTTONS)
        self.bot.service.listeners.append(self.on_battle_notice)  # type: ignore[attr-defined]

    async def cog_unload(self) -> None:
        """Forget the persistent buttons, and stop following missed deadlines."""
        self.bot.remove_dynamic_items(*BUTTONS)
        listeners = self.bot.service.listeners  # type: ignore[attr-defined]
        if self.on_battle_notice in listeners:
            listeners.remove(self.on_battle_notice)

    async def on_battle_notice(self, notice: Notice) -> bool:
        """Count missed deadlines; tell the channel when a player falls into civil disorder or comes back."""
        if notice.kind not in ("deadline", "committed") and notice.turn is None:
            return True
        changed = await on_notice(self.bot.service, notice)  # type: ignore[attr-defined]
        record = notice.record
        channel = self.bot.get_partial_messageable(record.thread_id or record.channel_id, guild_id=record.guild_id)
        for absence in changed.fell:
            sides = ", ".join(sorted({u.side for u in notice.battle.iter_units() if u.owner == absence.user_id}))
            embed = discord.Embed(title=f"Civil disorder: {safe(sides) or 'a player'}", colour=DISORDER_COLOUR,
                                  description=(
                f"<@{absence.user_id}> let {absence.missed} deadlines in a row pass. Their units now play their "
                "standing orders (or hold) at each of their turns, until they give an order themselves.\n"
                "The GM or another player may free the seat for a substitute, or remove the player."))
            view = discord.ui.View(timeout=None)
            view.add_item(FreeAbsentSeatButton(record.id, absence.user_id))
            view.add_item(RemoveAbsentButton(record.id, absence.user_id))
            await send(channel, embed=embed, view=view)
        for absence in changed.back:
            await send(channel, content=f"<@{absence.user_id}> gave an order: their civil disorder is over.")
        return True

    @app_commands.command(name="release", description="Free your seat for a substitute (the GM: anyone's)")
    @app_commands.describe(player="GM: the player whose seat to free (leave out for your own)")
    async def release_seat(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """Free a seat and post it for a substitute."""
        record = await battle_here(interaction)
        actor = actor_of(interaction)
        whose = player.id if player is not None else actor.user_id
        seat = await release(service_of(interaction), actor, record, whose)
        embed, view = seat_post(record.id, whose, seat.sides, len(seat.units), whose != actor.user_id)
        await reply(interaction, embed=embed, view=view)

    @app_commands.command(name="approval", description="GM: whether a substitute needs your approval to take a seat")
    @app_commands.describe(mode="on: you approve each substitute; off (the default): anyone may take a free seat")
    async def approval(self, interaction: discord.Interaction, mode: Literal["on", "off"]) -> None:
        """Set whether substitutes need the GM's approval."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        await service.set_seat_approval(actor_of(interaction), record, mode == "on")
        text = ("Substitutes now ask, and you approve each one with a button on the seat's post." if mode == "on"
                else "Anyone may now take a free seat with its Take seat button.")
        await reply(interaction, embed=discord.Embed(description=text, colour=INFO), ephemeral=True)

    @app_commands.command(name="disorder", description="GM: after how many missed deadlines in a row a side falls into civil disorder")
    @app_commands.describe(missed=f"Missed deadlines in a row (1-{MAX_DISORDER_AFTER}; 0: never; 2 by default)")
    async def disorder(self, interaction: discord.Interaction,
                       missed: app_commands.Range[int, 0, MAX_DISORDER_AFTER]) -> None:
        """Set when civil disorder begins."""
        record = await battle_here(interaction)
        service = service_of(interaction)
        await service.set_disorder_after(actor_of(interaction), record, missed)
        text = (f"A player who lets {missed} deadline{'s' if missed != 1 else ''} in a row pass falls into civil "
                "disorder: their units play their standing orders until they act again." if missed
                else "Nobody falls into civil disorder in this battle, however many deadlines pass.")
        await reply(interaction, embed=discord.Embed(description=text, colour=INFO), ephemeral=True)


BUTTONS = (TakeSeatButton, ApproveSeatButton, FreeAbsentSeatButton, RemoveAbsentButton)
