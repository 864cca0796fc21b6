"""Run the bot against Discord, and back up the database."""

from __future__ import annotations

import logging

import discord

from bot.app import open_services
from bot.client import BattleBot
from bot.config import Settings
from storage import Database

log = logging.getLogger(__name__)


async def run_discord(settings: Settings) -> int:
    """Open the services and run the Discord client until it stops."""
    assert settings.discord_token
    async with open_services(settings) as service:
        bot = BattleBot(service, sync_guild_id=settings.dev_guild_id)
        try:
            async with bot:
                await bot.start(settings.discord_token)
        except discord.LoginFailure:
            log.error("Discord refused the token in DISCORD_TOKEN; create a new one in the developer portal.")
            return 2
    return 0


async def backup_to(settings: Settings, dest: str) -> int:
    """Copy the database to a file with SQLite's online backup."""
    db = await Database.open(settings.db_path)
    try:
        await db.backup(dest)
    finally:
        await db.close()
    print(f"backed up {settings.db_path} to {dest}")
    return 0
