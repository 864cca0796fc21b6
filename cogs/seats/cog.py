"""/seat release, /seat approval, and the Take seat and Approve buttons, alive across restarts.

A button names its battle and the player who left the seat; the seat itself lives in the database.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.seats import approve, release, take
from cogs.common.components import battle_and_actor, guarded
from cogs.common.context import actor_of, battle_here, service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import edit_pressed, reply

SEAT_COLOUR = discord.Colour.from_rgb(90, 140, 220)


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
        """Register the persistent buttons."""
        self.bot.add_dynamic_items(TakeSeatButton, ApproveSeatButton)

    async def cog_unload(self) -> None:
        """Forget the persistent buttons."""
        self.bot.remove_dynamic_items(TakeSeatButton, ApproveSeatButton)

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
        await service.require_gm(actor_of(interaction), record, "set how seats are taken")
        await service.db.seats.set_approval(record.id, mode == "on")
        text = ("Substitutes now ask, and you approve each one with a button on the seat's post." if mode == "on"
                else "Anyone may now take a free seat with its Take seat button.")
        await reply(interaction, embed=discord.Embed(description=text, colour=INFO), ephemeral=True)
