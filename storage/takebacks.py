"""Takeback requests: a player asks the other sides to let them take an order back; one answer settles it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

from .engine import Engine
from .errors import BattleNotFound
from .program import Program, Query, changed, count, every, one, single

TakebackStatus = Literal["open", "approved", "refused", "stale"]

_COLUMNS = ("battle_id, newest_seq, order_seq, user_id, count, reason, status, asked_at, decided_by, decided_at")
_GET = Query.of(f"SELECT {_COLUMNS} FROM takebacks WHERE battle_id = ? AND newest_seq = ?")
_OF_BATTLE = Query.of(f"SELECT {_COLUMNS} FROM takebacks WHERE battle_id = ? ORDER BY newest_seq")
_PUT = Query.of(f"""
INSERT INTO takebacks ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 'open', ?, NULL, NULL)
ON CONFLICT (battle_id, newest_seq) DO UPDATE SET
    order_seq = excluded.order_seq, user_id = excluded.user_id, count = excluded.count,
    reason = excluded.reason, status = 'open', asked_at = excluded.asked_at, decided_by = NULL, decided_at = NULL
""")
# Only an open request is settled, so of two answers at once the first wins and the second changes nothing.
_DECIDE = Query.of("""
UPDATE takebacks SET status = ?, decided_by = ?, decided_at = ?
WHERE battle_id = ? AND newest_seq = ? AND status = 'open'
""")
_BATTLE_EXISTS = Query.of("SELECT 1 FROM battles WHERE id = ?")


@dataclass(frozen=True, slots=True)
class TakebackRecord:
    """One request to take orders back: who asked, from which order on, why it needed asking, how it ended."""

    battle_id: int
    newest_seq: int  # the battle's newest order when asked: the request holds only while it still is
    order_seq: int  # the asker's order to take back (with every order after it)
    user_id: int
    count: int
    reason: str
    status: TakebackStatus = "open"
    asked_at: float = 0.0
    decided_by: int | None = None
    decided_at: float | None = None


def _record(row: tuple[Any, ...]) -> TakebackRecord:
    return TakebackRecord(int(row[0]), int(row[1]), int(row[2]), int(row[3]), int(row[4]), str(row[5]),
                          cast(TakebackStatus, row[6]), float(row[7]), None if row[8] is None else int(row[8]),
                          None if row[9] is None else float(row[9]))


class TakebackRepo:
    """Store takeback requests and settle each once."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def ask(self, request: TakebackRecord) -> None:
        """Store an open request (asking again for the same battle state opens it again)."""
        if request.count < 1:
            raise ValueError("a takeback takes back at least one order")

        def run() -> Program[None]:
            if (yield one(_BATTLE_EXISTS, request.battle_id)) is None:
                raise BattleNotFound(request.battle_id)
            yield count(_PUT, request.battle_id, request.newest_seq, request.order_seq, request.user_id,
                        request.count, request.reason, float(request.asked_at))

        await self._engine.write(run())

    async def get(self, battle_id: int, newest_seq: int) -> TakebackRecord | None:
        """Return one request, or None when there is none."""
        row = await self._engine.read(single(_GET, battle_id, newest_seq))
        return None if row is None else _record(row)

    async def of_battle(self, battle_id: int) -> list[TakebackRecord]:
        """Return every request of a battle, oldest first."""
        return [_record(row) for row in await self._engine.read(every(_OF_BATTLE, battle_id))]

    async def decide(self, battle_id: int, newest_seq: int, status: TakebackStatus, by: int, now: float) -> bool:
        """Settle an open request; return False when it was already settled (or never asked)."""
        if status == "open":
            raise ValueError("a request is settled as approved, refused or stale")
        return await self._engine.write(changed(_DECIDE, status, by, float(now), battle_id, newest_seq)) > 0
