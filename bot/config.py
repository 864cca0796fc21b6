"""Configuration: one typed settings object read from the environment and `.env`."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from bot.sharding import ShardError, ShardPlan, plan
from storage.postgres import redact

DEFAULT_DB = "./data/battlepost.sqlite3"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# How often the scheduler looks for deadlines and reminders that have come due.
DEFAULT_SCHEDULER_POLL = 5.0
MIN_SCHEDULER_POLL = 0.1
MAX_SCHEDULER_POLL = 300.0
# Worker processes that draw maps (0: a thread of the bot's own process); see bot.renderpool.
DEFAULT_RENDER_WORKERS = 1
MAX_RENDER_WORKERS = 32
# Where the web view listens (host:port); `off` runs none.
DEFAULT_WEB = "127.0.0.1:8080"


class ConfigError(Exception):
    """A setting has a value the bot cannot use."""


@dataclass(frozen=True)
class Settings:
    """Every setting of the bot. The token is kept out of repr so it is never logged."""

    discord_token: str | None
    database: str
    dev_guild_id: int | None
    log_level: str
    backup_dir: Path | None
    shards: ShardPlan | None = None
    scheduler_poll: float = DEFAULT_SCHEDULER_POLL
    render_workers: int = DEFAULT_RENDER_WORKERS
    web: tuple[str, int] | None = ("127.0.0.1", 8080)  # None: no web view
    web_url: str = "http://127.0.0.1:8080"  # the public address its links start with

    def __repr__(self) -> str:
        token = "set" if self.discord_token else "missing"
        return (
            f"Settings(discord_token=<{token}>, database={redact(self.database)!r}, "
            f"dev_guild_id={self.dev_guild_id}, log_level={self.log_level!r}, backup_dir={self.backup_dir!r}, "
            f"shards={self.shards}, render_workers={self.render_workers}, web={self.web}, web_url={self.web_url!r})"
        )


def load_settings(env_file: str | os.PathLike[str] | None = ".env", *, shards: str | None = None,
                  shard_count: str | None = None) -> Settings:
    """Read settings from the environment, after loading `.env` if it exists (the environment wins).

    shards and shard_count come from the command line and win over BATTLEPOST_SHARDS and
    BATTLEPOST_SHARD_COUNT, each on its own.
    """
    if env_file is not None and Path(env_file).is_file():
        load_dotenv(env_file, override=False)
    token = os.environ.get("DISCORD_TOKEN", "").strip() or None
    guild_raw = os.environ.get("DEV_GUILD_ID", "").strip()
    dev_guild: int | None = None
    if guild_raw:
        if not guild_raw.isdigit():
            raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), not {guild_raw!r}.")
        dev_guild = int(guild_raw)
    level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")
    backup = os.environ.get("BATTLEPOST_BACKUP_DIR", "").strip()
    where = "--shards / --shard-count" if shards is not None or shard_count is not None else (
        "BATTLEPOST_SHARDS / BATTLEPOST_SHARD_COUNT")
    try:
        shard_plan = plan(shards if shards is not None else os.environ.get("BATTLEPOST_SHARDS"),
                          shard_count if shard_count is not None else os.environ.get("BATTLEPOST_SHARD_COUNT"))
    except ShardError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    poll_raw = os.environ.get("BATTLEPOST_SCHEDULER_POLL", "").strip()
    poll = DEFAULT_SCHEDULER_POLL
    if poll_raw:
        try:
            poll = float(poll_raw)
        except ValueError:
            poll = -1.0
        if not MIN_SCHEDULER_POLL <= poll <= MAX_SCHEDULER_POLL:
            raise ConfigError(
                f"BATTLEPOST_SCHEDULER_POLL must be a number of seconds from {MIN_SCHEDULER_POLL:g} to "
                f"{MAX_SCHEDULER_POLL:g}, not {poll_raw!r}."
            )
    workers_raw = os.environ.get("BATTLEPOST_RENDER_WORKERS", "").strip()
    workers = DEFAULT_RENDER_WORKERS
    if workers_raw:
        workers = int(workers_raw) if workers_raw.isdigit() else -1
        if not 0 <= workers <= MAX_RENDER_WORKERS:
            raise ConfigError(
                f"BATTLEPOST_RENDER_WORKERS must be a whole number of processes from 0 (draw maps in the bot's own "
                f"process) to {MAX_RENDER_WORKERS}, not {workers_raw!r}."
            )
    web = web_address(os.environ.get("BATTLEPOST_WEB", ""))
    return Settings(
        discord_token=token,
        database=os.environ.get("BATTLEPOST_DB", "").strip() or DEFAULT_DB,
        dev_guild_id=dev_guild,
        log_level=level,
        backup_dir=Path(backup) if backup else None,
        shards=shard_plan,
        scheduler_poll=poll,
        render_workers=workers,
        web=web,
        web_url=web_url(os.environ.get("BATTLEPOST_WEB_URL", ""), web),
    )


def web_address(raw: str) -> tuple[str, int] | None:
    """Read BATTLEPOST_WEB: `host:port` to listen on, or `off` for no web view."""
    text = raw.strip() or DEFAULT_WEB
    if text.lower() == "off":
        return None
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ConfigError(f"BATTLEPOST_WEB must be host:port to listen on (like {DEFAULT_WEB}) or `off`, not {raw!r}.")
    return host, int(port)


def web_url(raw: str, web: tuple[str, int] | None) -> str:
    """Read BATTLEPOST_WEB_URL, the address the links start with; by default the one the web view listens on."""
    text = raw.strip().rstrip("/")
    if not text:
        if web is None:
            return ""
        host, port = web
        return f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    if not text.startswith(("http://", "https://")) or any(c.isspace() for c in text):
        raise ConfigError(f"BATTLEPOST_WEB_URL must be an http:// or https:// address, like https://battles.example.org, "
                          f"not {raw!r}.")
    return text
