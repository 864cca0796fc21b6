"""Online backups of the live database file."""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

from .executor import BUSY_TIMEOUT_MS

log = logging.getLogger(__name__)


def backup_file(source: Path, dest_path: str | os.PathLike[str]) -> None:
    """Copy one consistent snapshot of source into a new standalone file at dest_path."""
    dest = Path(dest_path).resolve()
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    # A short-lived reader of its own, not the bot's connection: in WAL mode it reads a
    # snapshot while the bot keeps committing, whereas a backup run on the bot's connection
    # thread would hold every order behind it for as long as the copy takes.
    reader = sqlite3.connect(source, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        target = sqlite3.connect(partial)
        try:
            # pages=-1 copies everything in one step, inside one read transaction, so the
            # copy is a single point in time and never restarts because of a concurrent write.
            reader.backup(target, pages=-1)
            # The copy inherits WAL mode from the header; a backup should be one self-contained file.
            target.execute("PRAGMA journal_mode = DELETE")
        finally:
            target.close()
    finally:
        reader.close()
    fd = os.open(partial, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    # Only a complete copy ever appears under the destination name.
    os.replace(partial, dest)
    log.info("backed up %s to %s", source, dest)
