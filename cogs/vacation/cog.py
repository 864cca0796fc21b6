"""Slash commands of /vacation: a player away from every battle of a server, and back."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import human_duration
from bot.clockhours import full, stamp
from bot.vacations import Played, add_vacation, allowance_left, end_vacation, player_zone, vacations_of
from cogs.common.context import actor_of, service_of
from cogs.common.embeds import safe
from cogs.common.replies import reply, send
from cogs.turn.notifier import pinging


def _told(played: Played, user_id: int) -> list[int]:
    """Return whom a player's vacation concerns in a battle: the other players and the GM."""
    others = {u.owner for u in played.battle.iter_units() if u.owner and u.owner != user_id}
    return sorted(others | {played.record.created_by} - {user_id})


def _battle_line(played: Played, user_id: int) -> str:
    moved = played.clock.vacation_turn.get(str(user_id))
    now = f" (this turn's deadline moved by {human_duration(moved)})" if moved else ""
    return f"**{safe(played.record.name)}**: {human_duration(allowance_left(played.clock, user_id))} of allowance left{now}"


@app_commands.guild_only()
class VacationCog(commands.GroupCog, group_name="vacation", group_description="Time away from every battle here"):
    """Mark yourself away: your deadlines move, and the other players are told."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def _tell(self, played: Sequence[Played], user_id: int, text: str) -> None:
        """Post once in each battle's channel, mentioning the other players and the GM."""
        for one in played:
            told = _told(one, user_id)
            channel = self.bot.get_partial_messageable(one.record.thread_id or one.record.channel_id,
                                                       guild_id=one.record.guild_id)
            who = " ".join(f"<@{u}>" for u in told)
            await send(channel, content=f"{who + ': ' if who else ''}{text}"[:2000], mentions=pinging(told))

    @app_commands.command(name="start", description="Be away from every battle on this server from one day to another")
    @app_commands.describe(first="Your first day away, like 2026-12-24 (in your /settings timezone)",
                           last="Your last day away, like 2027-01-02; you are back the day after")
    @app_commands.rename(first="from", last="to")
    async def start(self, interaction: discord.Interaction, first: app_commands.Range[str, 1, 20],
                    last: app_commands.Range[str, 1, 20]) -> None:
        """Mark yourself away."""
        actor = actor_of(interaction)
        service = service_of(interaction)
        vacation, played = await add_vacation(service, actor.guild_id, actor.user_id, first, last)
        zone = await player_zone(service, actor.user_id)
        lines = [f"You are away from {stamp(vacation.starts)} to {full(vacation.ends)} (days read in {zone}).",
                 "Deadlines of your turns move by the time you are away, up to each battle's allowance."]
        lines += [_battle_line(p, actor.user_id) for p in played] or ["You play in no running battle here yet."]
        await reply(interaction, "\n".join(lines)[:2000], ephemeral=True)
        await self._tell(played, actor.user_id,
                         f"<@{actor.user_id}> is away from {full(vacation.starts)} to {full(vacation.ends)}; "
                         "the deadlines of their turns move by that time, within this battle's vacation allowance.")

    @app_commands.command(name="end", description="End your vacation now (or drop the next one)")
    async def end(self, interaction: discord.Interaction) -> None:
        """End your vacation early."""
        actor = actor_of(interaction)
        service = service_of(interaction)
        vacation, played = await end_vacation(service, actor.guild_id, actor.user_id)
        if vacation.starts > service.clock():
            await reply(interaction, f"Your vacation from {full(vacation.starts)} is dropped.", ephemeral=True)
            return
        lines = ["Welcome back: your vacation has ended, and your deadlines moved back to what it used."]
        lines += [_battle_line(p, actor.user_id) for p in played]
        await reply(interaction, "\n".join(lines)[:2000], ephemeral=True)
        await self._tell(played, actor.user_id, f"<@{actor.user_id}> is back from vacation early.")

    @app_commands.command(name="show", description="Your vacations on this server, and the allowance left per battle")
    async def show(self, interaction: discord.Interaction) -> None:
        """Show your vacations."""
        actor = actor_of(interaction)
        found = await vacations_of(service_of(interaction), actor.guild_id, actor.user_id)
        if not found:
            await reply(interaction, "You have no vacation planned here; `/vacation start from:… to:…` sets one.",
                        ephemeral=True)
            return
        text = "\n".join(f"From {full(v.starts)} to {full(v.ends)}" for v in found)
        await reply(interaction, text[:2000], ephemeral=True)
