"""Run the bot against Discord, and back up the database."""

from __future__ import annotations

import asyncio
import importlib
import logging
import signal
import sys
import time
from pathlib import Path
from typing import Any

import discord

from bot.app import StartupError, open_database, open_services
from bot.client import BattleBot, ShardedBattleBot
from bot.config import Settings
from bot.service import TableService
from bot.webfront import start_web
from storage import is_postgres

log = logging.getLogger(__name__)


def check_shards(settings: Settings) -> None:
    """Refuse to run part of the shards over a SQLite file: the other processes could not share it."""
    shards = settings.shards
    if shards is not None and not shards.everything and not is_postgres(settings.database):
        raise StartupError(
            f"this process would run only {shards}, so other processes must run the rest, and they all need "
            "one database to share: set BATTLEPOST_DB to a postgresql:// URL (see docs/scaling.md). "
            "A SQLite file serves one process, which then runs every shard."
        )


def make_client(service: TableService, settings: Settings, **options: Any) -> BattleBot | ShardedBattleBot:
    """Build the client: one plain connection, or the shards the settings name."""
    options.setdefault("scheduler_poll", settings.scheduler_poll)
    options.setdefault("tune_heap", True)
    options.setdefault("web_url", settings.web_url if settings.web is not None else "")
    if settings.shards is None:
        return BattleBot(service, sync_guild_id=settings.dev_guild_id, **options)
    return ShardedBattleBot(service, shard_ids=settings.shards.ids, shard_count=settings.shards.count,
                            sync_guild_id=settings.dev_guild_id, **options)


def event_loop_policy() -> asyncio.AbstractEventLoopPolicy:
    """Return uvloop's event loop policy when uvloop is installed, else asyncio's own."""
    # uvloop is optional: its loop wakes up and reads sockets with less CPU, the same code runs on either.
    try:
        uvloop = importlib.import_module("uvloop")
    except ImportError:
        return asyncio.DefaultEventLoopPolicy()
    policy: asyncio.AbstractEventLoopPolicy = uvloop.EventLoopPolicy()
    return policy


async def run_discord(settings: Settings, **options: Any) -> int:
    """Open the services and run the Discord client until it stops."""
    assert settings.discord_token
    check_shards(settings)
    async with open_services(settings) as service:
        bot = make_client(service, settings, **options)
        if settings.shards is not None:
            log.info("running %s", settings.shards)
        _stop_on_signals(bot)
        stop_web = await start_web(service, settings)
        try:
            async with bot:
                await bot.start(settings.discord_token)
        except discord.LoginFailure:
            log.error("Discord refused the token in DISCORD_TOKEN; create a new one in the developer portal.")
            return 2
        finally:
            if stop_web is not None:
                await stop_web()
    return 0


def _stop_on_signals(bot: BattleBot | ShardedBattleBot) -> None:
    """Close the bot cleanly on Ctrl-C or SIGTERM (a service manager stopping it): notices still go out."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def close() -> None:
        if not closing:
            log.info("stopping: closing the connection to Discord and the database")
            closing.append(loop.create_task(bot.close()))

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, close)


def backup_path(settings: Settings, dest: str | None, now: float) -> str | None:
    """Return where a backup goes: the file given, else a dated file in BATTLEPOST_BACKUP_DIR, else None."""
    if dest:
        return dest
    if settings.backup_dir is None:
        return None
    stamp = time.strftime("%Y-%m-%d-%H%M%S", time.localtime(now))
    return str(settings.backup_dir / f"battlepost-{stamp}.sqlite3")


async def backup_to(settings: Settings, dest: str | None) -> int:
    """Copy the database to a SQLite file: SQLite's online backup, or a full copy out of PostgreSQL."""
    target = backup_path(settings, dest, time.time())
    if target is None:
        print("battlepost: say where the backup goes (`python -m bot backup FILE`), or set BATTLEPOST_BACKUP_DIR",
              file=sys.stderr)
        return 2
    dest = target
    Path(dest).parent.mkdir(parents=True, exist_ok=True)
    db = await open_database(settings.database)
    try:
        await db.backup(dest)
        print(f"backed up {db.describe()} to {dest}")
    finally:
        await db.close()
    return 0
