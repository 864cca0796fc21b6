"""/battles: every battle waiting for the player, on every server they share with the bot, with its deadline."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.mybattles import DueBattle, battles_due, send_digests
from cogs.common.context import service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import reply, send

log = logging.getLogger(__name__)

SHOWN = 20  # battles listed in one answer; the rest are counted


def deadline_of(battle: DueBattle) -> str:
    """Say when a battle's turn ends, as a Discord timestamp each reader sees in their own time."""
    if battle.paused:
        return "clock paused"
    if battle.due_at is None:
        return "no deadline"
    due = int(battle.due_at)
    return f"deadline <t:{due}:f> (<t:{due}:R>)"


def due_lines(battles: Sequence[DueBattle]) -> str:
    """Write one line per battle: its name linked to its channel, the turn, the player's units and the deadline."""
    lines = [f"**[{safe(b.name)}]({b.link})**: {safe(b.turn)}; {safe(', '.join(b.due))}; {deadline_of(b)}"
             for b in battles[:SHOWN]]
    if len(battles) > SHOWN:
        lines.append(f"… and {len(battles) - SHOWN} more.")
    return "\n".join(lines)


class MyBattlesCog(commands.Cog):
    """List a player's battles across servers."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Send the daily digests at every scheduler pass."""
        self.bot.service.scheduler.passes.append(self.send_digests)  # type: ignore[attr-defined]

    async def cog_unload(self) -> None:
        """Stop sending the daily digests."""
        passes = self.bot.service.scheduler.passes  # type: ignore[attr-defined]
        if self.send_digests in passes:
            passes.remove(self.send_digests)

    async def send_digests(self) -> int:
        """Send the daily digests due now; return how many went out."""
        return await send_digests(self.bot.service, self._digest)  # type: ignore[attr-defined]

    async def _digest(self, user_id: int, battles: list[DueBattle]) -> bool:
        """Send one player their digest by direct message; return False when they cannot be reached."""
        shown = [b for b in battles if self.bot.get_guild(b.guild_id) is not None]
        if not shown:
            return False
        embed = discord.Embed(title=f"Your daily digest: {len(shown)} battle{'s' if len(shown) != 1 else ''} "
                                    "waiting for you", colour=INFO, description=due_lines(shown))
        embed.set_footer(text="/settings digest off stops these messages.")
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await send(user, embed=embed)
        except discord.HTTPException as exc:
            log.info("could not send user %s their daily digest (%s)", user_id, exc.status)
            return False
        return True

    @app_commands.command(name="battles", description="Your battles waiting for you, on every server, with deadlines")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.allowed_installs(guilds=True, users=False)
    async def battles(self, interaction: discord.Interaction) -> None:
        """List the battles where it is the player's turn."""
        found = await battles_due(service_of(interaction), interaction.user.id)
        # Only servers the bot is still in: a battle of a server it left cannot be played.
        found = [b for b in found if interaction.client.get_guild(b.guild_id) is not None]
        if not found:
            await reply(interaction, "No battle is waiting for you right now.", ephemeral=True)
            return
        embed = discord.Embed(title=f"Waiting for you: {len(found)} battle{'s' if len(found) != 1 else ''}",
                              colour=INFO, description=due_lines(found))
        await reply(interaction, embed=embed, ephemeral=True)
