"""/battles: every battle waiting for the player, on every server they share with the bot, with its deadline."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.mybattles import DueBattle, battles_due
from cogs.common.context import service_of
from cogs.common.embeds import INFO, safe
from cogs.common.replies import reply

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
