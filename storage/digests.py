"""Daily digests: which players asked for one, and when each is next due; each is claimed by one process once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .engine import Engine
from .program import Query, changed, single

DAY = 86400.0

_COLUMNS = "user_id, enabled, next_at, sent_at"
_GET = Query.of(f"SELECT {_COLUMNS} FROM digests WHERE user_id = ?")
# The caller reckons when the next digest is due from the last one sent (read just before): if another process
# sent one meanwhile, its own schedule stands and this one changes nothing but `enabled`.
_TURN_ON = Query.of(f"""
INSERT INTO digests ({_COLUMNS}) VALUES (?, 1, ?, NULL)
ON CONFLICT (user_id) DO UPDATE SET enabled = 1,
    next_at = CASE WHEN COALESCE(digests.sent_at, -1) = ? THEN excluded.next_at ELSE digests.next_at END
""")
# After a claim, the sender sets the next one at the player's own hour; only if no later claim came between.
_SCHEDULE = Query.of("UPDATE digests SET next_at = ? WHERE user_id = ? AND enabled = 1 AND COALESCE(sent_at, -1) = ?")
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


def _sent_key(sent_at: float | None) -> float:
    """Return a last sending time as the queries compare it (never sent: -1)."""
    return -1.0 if sent_at is None else float(sent_at)


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

    async def turn_on(self, user_id: int, next_at: float, last_sent: float | None) -> DigestRecord:
        """Turn a player's digest on, next due at `next_at` unless one was sent since `last_sent`; return it."""
        await self._engine.write(changed(_TURN_ON, user_id, float(next_at), _sent_key(last_sent)))
        found = await self.get(user_id)
        assert found is not None
        return found

    async def schedule(self, user_id: int, last_sent: float | None, next_at: float) -> bool:
        """Set when a player's next digest is due, unless it is off or one was sent since `last_sent`."""
        return await self._engine.write(changed(_SCHEDULE, float(next_at), user_id, _sent_key(last_sent))) > 0

    async def turn_off(self, user_id: int) -> bool:
        """Turn a player's digest off; return whether it was ever on."""
        return await self._engine.write(changed(_TURN_OFF, user_id)) > 0

    async def claim_due(self, now: float) -> DigestRecord | None:
        """Claim the earliest digest due by now (moving it a day ahead), or None when none is due.

        A day ahead is a safe stand-in: the sender then sets the player's own next hour with `schedule`.
        """
        row = await self._engine.write(single(_CLAIM, float(now) + DAY, float(now), float(now)))
        return None if row is None else _record(row)
