"""Daily digests: which players asked for one, and when each is next due; each is claimed by one process once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .engine import Engine
from .program import Query, changed, single

DAY = 86400.0

_COLUMNS = "user_id, enabled, next_at, sent_at"
_GET = Query.of(f"SELECT {_COLUMNS} FROM digests WHERE user_id = ?")
# Turned on again, the next digest is due now, or a day after the last one if that was less than a day ago.
_TURN_ON = Query.of(f"""
INSERT INTO digests ({_COLUMNS}) VALUES (?, 1, ?, NULL)
ON CONFLICT (user_id) DO UPDATE SET enabled = 1,
    next_at = CASE WHEN digests.sent_at IS NULL OR digests.sent_at + ? <= excluded.next_at
                   THEN excluded.next_at ELSE digests.sent_at + ? END
""")
_TURN_OFF = Query.of("UPDATE digests SET enabled = 0 WHERE user_id = ?")
# Claiming a digest moves it a day ahead before it is sent: a process stopping mid-way loses that day's
# digest rather than ever sending two in a day. SKIP LOCKED lets several processes share the due ones.
_CLAIM_SET = """
UPDATE digests SET next_at = ?, sent_at = ?
WHERE user_id = (
    SELECT user_id FROM digests WHERE enabled = 1 AND next_at <= ? ORDER BY next_at, user_id LIMIT 1"""
_CLAIM = Query.of(f"{_CLAIM_SET}\n) RETURNING {_COLUMNS}\n",
                  postgres=f"{_CLAIM_SET}\n    FOR UPDATE SKIP LOCKED\n) RETURNING {_COLUMNS}\n")


@dataclass(frozen=True, slots=True)
class DigestRecord:
    """A player's daily digest: on or off, when the next is due, when the last went out."""

    user_id: int
    enabled: bool
    next_at: float
    sent_at: float | None = None


def _record(row: tuple[Any, ...]) -> DigestRecord:
    return DigestRecord(int(row[0]), bool(row[1]), float(row[2]), None if row[3] is None else float(row[3]))


class DigestRepo:
    """Turn players' digests on and off and hand each due one to exactly one sender."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def get(self, user_id: int) -> DigestRecord | None:
        """Return a player's digest, or None when they never asked for one."""
        row = await self._engine.read(single(_GET, user_id))
        return None if row is None else _record(row)

    async def turn_on(self, user_id: int, now: float) -> DigestRecord:
        """Turn a player's digest on: due now, or a day after the last one sent; return it."""
        await self._engine.write(changed(_TURN_ON, user_id, float(now), DAY, DAY))
        found = await self.get(user_id)
        assert found is not None
        return found

    async def turn_off(self, user_id: int) -> bool:
        """Turn a player's digest off; return whether it was ever on."""
        return await self._engine.write(changed(_TURN_OFF, user_id)) > 0

    async def claim_due(self, now: float) -> DigestRecord | None:
        """Claim the earliest digest due by now (moving it a day ahead), or None when none is due."""
        row = await self._engine.write(single(_CLAIM, float(now) + DAY, float(now), float(now)))
        return None if row is None else _record(row)
