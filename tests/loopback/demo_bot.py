"""A small throwaway bot that exercises what the loopback stand-in must support."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from .demo_cog import CounterButton, DemoCog, PlayerCommands

log = logging.getLogger(__name__)


class DemoTree(app_commands.CommandTree):
    """Answer failed commands with an apology, then let discord.py log the error as usual."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Apologise ephemerally, then log through the default handler."""
        if not interaction.response.is_done():
            await interaction.response.send_message("Something went wrong.", ephemeral=True)
        await super().on_error(interaction, error)


class DemoBot(commands.Bot):
    """Run the demo cog; sync globally, or to one guild when guild_id is given."""

    def __init__(self, *, guild_id: int | None = None, members_intent: bool = False) -> None:
        intents = discord.Intents.default()
        intents.members = members_intent
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=DemoTree,
            # The loopback serves one or two guilds at once; waiting the default 2 s for more is pointless.
            guild_ready_timeout=0.05,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.sync_guild_id = guild_id
        self.seen_threads: list[str] = []

    async def setup_hook(self) -> None:
        """Load the commands, register the persistent button and sync."""
        await self.add_cog(DemoCog(self))
        await self.add_cog(PlayerCommands(self))
        self.add_dynamic_items(CounterButton)
        if self.sync_guild_id is not None:
            guild = discord.Object(id=self.sync_guild_id)
            self.tree.copy_global_to(guild=guild)
            self.tree.clear_commands(guild=None)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_thread_create(self, thread: discord.Thread) -> None:
        """Remember threads the gateway announced."""
        self.seen_threads.append(thread.name)
