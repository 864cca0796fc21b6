"""The Discord client: a Bot with no privileged intents that loads the cogs and syncs the commands.

`BattleBot` is one plain connection (every server on one shard); `ShardedBattleBot` runs some or all
of the shards of a bot that several processes share, each process over the same PostgreSQL database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any, cast

import discord
from discord.ext import commands

from bot.answers import ANSWER_WITHIN, is_component, watch
from bot.heap import settle_heap
from bot.outbox import POLL, Outbox
from bot.scheduler import DEFAULT_POLL
from bot.service import TableService
from bot.tree import BattleTree
from rules.plugins import installed

log = logging.getLogger(__name__)

# Seconds at least between two edits of one battle's status board: a burst of orders shows its last state
# in one edit, well inside Discord's limit on edits per channel.
BOARD_SPACING = 1.0

# The commands every rule system shares; each installed system's own front end is loaded after them.
DEFAULT_EXTENSIONS = ("cogs.battle", "cogs.map", "cogs.unit", "cogs.play", "cogs.turn", "cogs.actions", "cogs.gm", "cogs.takeback", "cogs.mybattles", "cogs.seats", "cogs.stats", "cogs.settings", "cogs.vacation", "cogs.help")


def intents() -> discord.Intents:
    """Return the intents battlepost needs: guilds only, nothing privileged."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class _Battlepost(commands.bot.BotBase):
    """What both kinds of battlepost client share: the service, the cogs, the command sync, the scheduler."""

    def __init__(self, service: TableService, *, sync_guild_id: int | None = None,
                 extensions: Sequence[str] = DEFAULT_EXTENSIONS, scheduler_poll: float | None = DEFAULT_POLL,
                 answer_within: float = ANSWER_WITHIN, tune_heap: bool = False,
                 board_spacing: float = BOARD_SPACING, outbox_poll: float = POLL, web_url: str = "",
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
        # A command, button or menu still working after this many seconds is deferred, inside Discord's three.
        self.answer_within = answer_within
        # Set by the process that runs the bot for good (not by tests, which start many bots in one process).
        self.tune_heap = tune_heap
        self.board_spacing = board_spacing
        # Every post the bot owes Discord goes through the outbox; its loop runs in every process.
        self.outbox = Outbox(service.db, cast(discord.Client, self))
        self.outbox_poll = outbox_poll
        self.outbox_task: asyncio.Task[None] | None = None
        # The address the web view's links start with ("": this bot runs no web view).
        self.web_url = web_url

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Start a button's or menu's watchdog against Discord's three seconds (commands start theirs in the tree)."""
        if is_component(interaction):
            watch(interaction, self.answer_within)

    async def load_front_ends(self) -> list[str]:
        """Load the front end of every installed rule system; one that fails is logged and left out."""
        loaded = []
        for done in installed():
            name = done.plugin.front_end
            if name is None or name in self.extensions:
                continue
            try:
                await self.load_extension(name)
            except Exception as exc:  # a plug-in's front end may fail any way at all; the bot runs on without it
                log.error("front end %s of rule system plug-in %r from %s left out: %s", name, done.name,
                          done.distribution, exc.__cause__ or exc)
                continue
            loaded.append(name)
        return loaded

    def syncs_commands(self) -> bool:
        """Return whether this process registers the slash commands with Discord."""
        return True

    def display_name(self, user_id: int) -> str | None:
        """Return the name a user goes by, if the client has seen them (no member intent: no fetching)."""
        user = cast(discord.Client, self).get_user(user_id)  # both subclasses are discord.Client
        return user.display_name if user is not None else None

    async def setup_hook(self) -> None:
        """Load the cogs (they register their persistent buttons), sync the commands, start the scheduler."""
        for name in self.extension_names:
            await self.load_extension(name)
        await self.load_front_ends()
        if not self.syncs_commands():
            log.info("commands are synced by the process running shard 0")
        elif self.sync_guild_id:
            guild = discord.Object(id=self.sync_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), self.sync_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))
        if self.tune_heap:
            settle_heap()
        self.outbox_task = asyncio.create_task(
            self.outbox.run_forever(self.outbox_poll, ready=cast(discord.Client, self).wait_until_ready),
            name="battlepost-outbox",
        )
        if self.scheduler_poll is not None:
            # Every process runs a scheduler: claims are atomic in the database, so each timer fires once
            # whichever process is up, and a process that stops leaves its timers to the others.
            self.scheduler_task = asyncio.create_task(
                self.service.scheduler.run_forever(self.scheduler_poll, ready=cast(discord.Client, self).wait_until_ready),
                name="battlepost-scheduler",
            )

    async def close(self) -> None:
        """Stop the scheduler and the outbox loop, deliver the notices and posts on their way, then disconnect."""
        for task in (self.scheduler_task, self.outbox_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.scheduler_task = self.outbox_task = None
        await self.service.drain()
        await self.outbox.drain()  # what is still owed after this stays in the outbox for the next start
        try:
            await self.service.write_documents()
        except Exception:  # a stop goes on with the database gone: the orders' log replays on the next read
            log.exception("could not write the battles' whole state on stopping")
        self.service.maps.shutdown()
        await super().close()


class BattleBot(_Battlepost, commands.Bot):
    """The battlepost bot on one connection: slash commands only, the table service attached."""


class ShardedBattleBot(_Battlepost, commands.AutoShardedBot):
    """The battlepost bot running the given shards; other processes run the rest over the same database."""

    def __init__(self, service: TableService, *, shard_ids: Sequence[int], shard_count: int,
                 **options: Any) -> None:
        super().__init__(service, shard_ids=list(shard_ids), shard_count=shard_count, **options)

    def syncs_commands(self) -> bool:
        """Sync from one process only: the one running shard 0 (every process would send the same commands)."""
        return 0 in (self.shard_ids or [0])
