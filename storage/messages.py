"""Messages the bot edits in place, such as a battle's status board."""

from __future__ import annotations

import logging

from .engine import Engine
from .errors import BattleNotFound
from .program import Program, Query, changed, count, one, single
from .records import MessageRef

log = logging.getLogger(__name__)

_GET = Query.of("SELECT channel_id, message_id FROM messages WHERE battle_id = ? AND kind = ?")
_SET = Query.of("""
INSERT INTO messages (battle_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?)
ON CONFLICT (battle_id, kind) DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id
""")
_DELETE = Query.of("DELETE FROM messages WHERE battle_id = ? AND kind = ?")
_BATTLE_EXISTS = Query.of("SELECT 1 FROM battles WHERE id = ?")


class MessageRepo:
    """Remember which Discord message holds each of a battle's living posts."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def get(self, battle_id: int, kind: str) -> MessageRef | None:
        """Return the (channel_id, message_id) of a battle's message of this kind, if any."""
        row = await self._engine.read(single(_GET, battle_id, kind))
        return None if row is None else MessageRef(channel_id=row[0], message_id=row[1])

    async def set(self, battle_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Record (or replace) the message of this kind for a battle."""

        def run() -> Program[None]:
            if (yield one(_BATTLE_EXISTS, battle_id)) is None:
                raise BattleNotFound(battle_id)
            yield count(_SET, battle_id, kind, channel_id, message_id)

        await self._engine.write(run())

    async def delete(self, battle_id: int, kind: str) -> bool:
        """Forget a battle's message of this kind; return whether there was one."""
        deleted = await self._engine.write(changed(_DELETE, battle_id, kind))
        return bool(deleted)
