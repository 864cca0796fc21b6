"""Seats freed for a substitute, and whether a battle's GM approves who takes one; each seat is taken once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

from . import codec
from .engine import Engine
from .errors import BattleNotFound
from .program import Program, Query, changed, count, every, one, single

SeatStatus = Literal["open", "asked", "taken", "closed"]

_COLUMNS = ("battle_id, user_id, units, sides, status, released_by, released_at, candidate, taken_by, taken_at")
_GET = Query.of(f"SELECT {_COLUMNS} FROM seats WHERE battle_id = ? AND user_id = ?")
_OF_BATTLE = Query.of(f"SELECT {_COLUMNS} FROM seats WHERE battle_id = ? ORDER BY released_at, user_id")
_PUT = Query.of(f"""
INSERT INTO seats ({_COLUMNS}) VALUES (?, ?, ?, ?, 'open', ?, ?, NULL, NULL, NULL)
ON CONFLICT (battle_id, user_id) DO UPDATE SET
    units = excluded.units, sides = excluded.sides, status = 'open', released_by = excluded.released_by,
    released_at = excluded.released_at, candidate = NULL, taken_by = NULL, taken_at = NULL
""")
# Each change names the status it expects, so of two presses at once the first wins and the second changes nothing.
_ASK = Query.of("UPDATE seats SET status = 'asked', candidate = ? WHERE battle_id = ? AND user_id = ? AND status = 'open'")
_TAKE = Query.of("""
UPDATE seats SET status = 'taken', taken_by = ?, taken_at = ?
WHERE battle_id = ? AND user_id = ? AND status IN ('open', 'asked')
""")
_CLOSE = Query.of("UPDATE seats SET status = 'closed' WHERE battle_id = ? AND user_id = ? AND status IN ('open', 'asked')")
_GET_RULES = Query.of("SELECT approval FROM seat_rules WHERE battle_id = ?")
_PUT_RULES = Query.of("""
INSERT INTO seat_rules (battle_id, approval) VALUES (?, ?)
ON CONFLICT (battle_id) DO UPDATE SET approval = excluded.approval
""")
_BATTLE_EXISTS = Query.of("SELECT 1 FROM battles WHERE id = ?")


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat freed in a battle: whose it was, its units and sides, and who took it."""

    battle_id: int
    user_id: int  # the player who left it
    units: tuple[str, ...]  # unit ids
    sides: str
    status: SeatStatus = "open"
    released_by: int = 0
    released_at: float = 0.0
    candidate: int | None = None
    taken_by: int | None = None
    taken_at: float | None = None


def _record(row: tuple[Any, ...]) -> SeatRecord:
    units = codec.decode(row[2])
    return SeatRecord(int(row[0]), int(row[1]), tuple(str(u) for u in units.get("units", [])), str(row[3]),
                      cast(SeatStatus, row[4]), int(row[5]), float(row[6]),
                      None if row[7] is None else int(row[7]), None if row[8] is None else int(row[8]),
                      None if row[9] is None else float(row[9]))


class SeatRepo:
    """Store freed seats and the battles' seat rules."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def release(self, seat: SeatRecord) -> None:
        """Store a freed seat, open for anyone to take."""
        text = codec.encode({"units": list(seat.units)})

        def run() -> Program[None]:
            if (yield one(_BATTLE_EXISTS, seat.battle_id)) is None:
                raise BattleNotFound(seat.battle_id)
            yield count(_PUT, seat.battle_id, seat.user_id, text, seat.sides, seat.released_by,
                        float(seat.released_at))

        await self._engine.write(run())

    async def get(self, battle_id: int, user_id: int) -> SeatRecord | None:
        """Return the seat a player left in a battle, or None."""
        row = await self._engine.read(single(_GET, battle_id, user_id))
        return None if row is None else _record(row)

    async def of_battle(self, battle_id: int) -> list[SeatRecord]:
        """Return every seat freed in a battle, oldest first."""
        return [_record(row) for row in await self._engine.read(every(_OF_BATTLE, battle_id))]

    async def ask(self, battle_id: int, user_id: int, candidate: int) -> bool:
        """Mark an open seat as asked for by a candidate awaiting the GM; False when it is not open."""
        return await self._engine.write(changed(_ASK, candidate, battle_id, user_id)) > 0

    async def take(self, battle_id: int, user_id: int, taker: int, now: float) -> bool:
        """Mark a seat taken; False when somebody took it first (or it was closed)."""
        return await self._engine.write(changed(_TAKE, taker, float(now), battle_id, user_id)) > 0

    async def close(self, battle_id: int, user_id: int) -> bool:
        """Close a seat nobody took; False when it was not open."""
        return await self._engine.write(changed(_CLOSE, battle_id, user_id)) > 0

    async def needs_approval(self, battle_id: int) -> bool:
        """Return whether a substitute needs the GM's approval to take a seat in this battle."""
        row = await self._engine.read(single(_GET_RULES, battle_id))
        return row is not None and bool(row[0])

    async def set_approval(self, battle_id: int, approval: bool) -> None:
        """Set whether a substitute needs the GM's approval."""

        def run() -> Program[None]:
            if (yield one(_BATTLE_EXISTS, battle_id)) is None:
                raise BattleNotFound(battle_id)
            yield count(_PUT_RULES, battle_id, int(approval))

        await self._engine.write(run())
