"""Where `python -m bot backup` writes: the file named, else a dated file in BATTLEPOST_BACKUP_DIR."""

from __future__ import annotations

import time
from pathlib import Path

from bot.config import Settings
from bot.runner import backup_path


def settings(backup_dir: Path | None) -> Settings:
    """Return settings with this backup folder."""
    return Settings(discord_token=None, database="x.sqlite3", dev_guild_id=None, log_level="INFO",
                    backup_dir=backup_dir)


def test_the_backup_folder_is_used_when_no_file_is_named(tmp_path: Path) -> None:
    moment = time.mktime((2026, 3, 4, 5, 6, 7, 0, 0, -1))
    assert backup_path(settings(tmp_path), None, moment) == str(tmp_path / "battlepost-2026-03-04-050607.sqlite3")
    assert backup_path(settings(tmp_path), "mine.sqlite3", moment) == "mine.sqlite3"
    assert backup_path(settings(None), None, moment) is None
