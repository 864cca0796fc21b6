"""The Discord client: a Bot with no privileged intents that loads the cogs and syncs the commands."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence

import discord
from discord.ext import commands

from bot.scheduler import DEFAULT_POLL
from bot.service import TableService
from bot.tree import BattleTree

log = logging.getLogger(__name__)

DEFAULT_EXTENSIONS = ("cogs.battle", "cogs.map", "cogs.unit", "cogs.feature", "cogs.play", "cogs.combat", "cogs.turn", "cogs.gm", "cogs.settings", "cogs.help", "cogs.surface")


def intents() -> discord.Intents:
    """Return the intents battlepost needs: guilds only, nothing privileged."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class BattleBot(commands.Bot):
    """The battlepost bot: slash commands only, the table service attached."""

    def __init__(self, service: TableService, *, sync_guild_id: int | None = None,
                 extensions: Sequence[str] = DEFAULT_EXTENSIONS, scheduler_poll: float | None = DEFAULT_POLL,
                 **options: object) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents(), tree_cls=BattleTree, help_command=None,
            allowed_mentions=discord.AllowedMentions.none(), **options,  # type: ignore[arg-type]
        )
        self.service = service
        service.name_lookup = self.display_name
        self.sync_guild_id = sync_guild_id
        self.extension_names = tuple(extensions)
        # None leaves the scheduler to the caller (tests drive it with a fake clock through tick()).
        self.scheduler_poll = scheduler_poll
        self.scheduler_task: asyncio.Task[None] | None = None

    def display_name(self, user_id: int) -> str | None:
        """Return the name a user goes by, if the client has seen them (no member intent: no fetching)."""
        user = self.get_user(user_id)
        return user.display_name if user is not None else None

    async def setup_hook(self) -> None:
        """Load the cogs (they register their persistent buttons), sync the commands, start the scheduler."""
        for name in self.extension_names:
            await self.load_extension(name)
        if self.sync_guild_id:
            guild = discord.Object(id=self.sync_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), self.sync_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))
        if self.scheduler_poll is not None:
            self.scheduler_task = asyncio.create_task(
                self.service.scheduler.run_forever(self.scheduler_poll, ready=self.wait_until_ready),
                name="battlepost-scheduler",
            )

    async def close(self) -> None:
        """Stop the scheduler and deliver the notices still on their way, then disconnect."""
        task, self.scheduler_task = self.scheduler_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.service.drain()
        await super().close()
