"""Messages the bot edits in place, such as a battle's status board."""

from __future__ import annotations

import logging
import sqlite3

from .errors import BattleNotFound
from .executor import Executor
from .records import MessageRef

log = logging.getLogger(__name__)

_GET = "SELECT channel_id, message_id FROM messages WHERE battle_id = ? AND kind = ?"
_SET = """
INSERT INTO messages (battle_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?)
ON CONFLICT (battle_id, kind) DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id
"""
_DELETE = "DELETE FROM messages WHERE battle_id = ? AND kind = ?"


class MessageRepo:
    """Remember which Discord message holds each of a battle's living posts."""

    def __init__(self, executor: Executor) -> None:
        self._executor = executor

    async def get(self, battle_id: int, kind: str) -> MessageRef | None:
        """Return the (channel_id, message_id) of a battle's message of this kind, if any."""
        row = await self._executor.read(lambda raw: raw.execute(_GET, (battle_id, kind)).fetchone())
        return None if row is None else MessageRef(channel_id=row[0], message_id=row[1])

    async def set(self, battle_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Record (or replace) the message of this kind for a battle."""
        params = (battle_id, kind, channel_id, message_id)

        def run(raw: sqlite3.Connection) -> None:
            if raw.execute("SELECT 1 FROM battles WHERE id = ?", (battle_id,)).fetchone() is None:
                raise BattleNotFound(battle_id)
            raw.execute(_SET, params)

        await self._executor.write(run)

    async def delete(self, battle_id: int, kind: str) -> bool:
        """Forget a battle's message of this kind; return whether there was one."""
        deleted = await self._executor.write(lambda raw: raw.execute(_DELETE, (battle_id, kind)).rowcount)
        return bool(deleted)
