"""The links of the web view: per-battle tokens, kept only as their hashes, revocable by the battle's GM."""

from __future__ import annotations

import logging

from .engine import Engine
from .errors import BattleNotFound
from .program import Program, Query, changed, count, one, single

log = logging.getLogger(__name__)

# Links kept per battle and audience: asking again adds one, and the oldest past this many stop working.
KEEP_PER_AUDIENCE = 50

_BATTLE_EXISTS = Query.of("SELECT 1 FROM battles WHERE id = ?")
_ADD = Query.of("INSERT INTO web_links (token_hash, battle_id, audience, created_at) VALUES (?, ?, ?, ?)")
_TRIM = Query.of("""
DELETE FROM web_links WHERE battle_id = ? AND audience = ? AND token_hash NOT IN (
    SELECT token_hash FROM web_links WHERE battle_id = ? AND audience = ?
    ORDER BY created_at DESC, token_hash LIMIT ?)
""")
_FIND = Query.of("SELECT battle_id, audience FROM web_links WHERE token_hash = ?")
_REVOKE = Query.of("DELETE FROM web_links WHERE battle_id = ?")


class WebLinkRepo:
    """Remember which token hashes open which battle's web view, and for whom."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def add(self, battle_id: int, audience: str, token_hash: str, now: float) -> None:
        """Record a new link's hash; the oldest links of the same audience past the keep limit stop working."""

        def run() -> Program[None]:
            if (yield one(_BATTLE_EXISTS, battle_id)) is None:
                raise BattleNotFound(battle_id)
            yield count(_ADD, token_hash, battle_id, audience, now)
            yield count(_TRIM, battle_id, audience, battle_id, audience, KEEP_PER_AUDIENCE)

        await self._engine.write(run())

    async def find(self, token_hash: str) -> tuple[int, str] | None:
        """Return the battle and audience a token hash opens, or None."""
        row = await self._engine.read(single(_FIND, token_hash))
        return None if row is None else (int(row[0]), str(row[1]))

    async def revoke(self, battle_id: int) -> int:
        """Make every link of a battle stop working; return how many there were."""
        return int(await self._engine.write(changed(_REVOKE, battle_id)))
