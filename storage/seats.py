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
_GET_RULES = Query.of("SELECT approval, disorder_after FROM seat_rules WHERE battle_id = ?")
_PUT_APPROVAL = Query.of("""
INSERT INTO seat_rules (battle_id, approval) VALUES (?, ?)
ON CONFLICT (battle_id) DO UPDATE SET approval = excluded.approval
""")
_PUT_DISORDER = Query.of("""
INSERT INTO seat_rules (battle_id, disorder_after) VALUES (?, ?)
ON CONFLICT (battle_id) DO UPDATE SET disorder_after = excluded.disorder_after
""")
DEFAULT_DISORDER_AFTER = 2  # missed deadlines in a row before civil disorder, unless the GM says otherwise
_ABSENCE_COLUMNS = "battle_id, user_id, missed, missed_total, disorder_since"
_GET_ABSENCE = Query.of(f"SELECT {_ABSENCE_COLUMNS} FROM absences WHERE battle_id = ? AND user_id = ?")
_ABSENCES = Query.of(f"SELECT {_ABSENCE_COLUMNS} FROM absences WHERE battle_id = ? ORDER BY user_id")
_MISSED = Query.of(f"""
INSERT INTO absences ({_ABSENCE_COLUMNS}) VALUES (?, ?, 1, 1, NULL)
ON CONFLICT (battle_id, user_id) DO UPDATE SET missed = absences.missed + 1,
    missed_total = absences.missed_total + 1
RETURNING {_ABSENCE_COLUMNS}
""")
# Only a player not yet in disorder is put in it, so the channel is told once.
_DISORDER = Query.of("""
UPDATE absences SET disorder_since = ? WHERE battle_id = ? AND user_id = ? AND disorder_since IS NULL
""")
_BACK = Query.of("""
UPDATE absences SET missed = 0, disorder_since = NULL WHERE battle_id = ? AND user_id = ?
    AND (missed > 0 OR disorder_since IS NOT NULL)
""")
_GET_ABSENCE_FOR_WRITE = Query.of(
    f"SELECT {_ABSENCE_COLUMNS} FROM absences WHERE battle_id = ? AND user_id = ?",
    postgres=f"SELECT {_ABSENCE_COLUMNS} FROM absences WHERE battle_id = ? AND user_id = ? FOR UPDATE")
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


@dataclass(frozen=True, slots=True)
class AbsenceRecord:
    """A player's missed deadlines in a battle: in a row (an order starts it again), in all, and any disorder."""

    battle_id: int
    user_id: int
    missed: int = 0
    missed_total: int = 0
    disorder_since: float | None = None


def _absence(row: tuple[Any, ...]) -> AbsenceRecord:
    return AbsenceRecord(int(row[0]), int(row[1]), int(row[2]), int(row[3]),
                         None if row[4] is None else float(row[4]))


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

    async def disorder_after(self, battle_id: int) -> int:
        """Return after how many missed deadlines in a row a player's units fall into civil disorder (0: never)."""
        row = await self._engine.read(single(_GET_RULES, battle_id))
        return DEFAULT_DISORDER_AFTER if row is None else int(row[1])

    async def set_disorder_after(self, battle_id: int, missed: int) -> None:
        """Set after how many missed deadlines in a row civil disorder begins (0: never)."""
        if missed < 0:
            raise ValueError("missed deadlines cannot be negative")

        def run() -> Program[None]:
            if (yield one(_BATTLE_EXISTS, battle_id)) is None:
                raise BattleNotFound(battle_id)
            yield count(_PUT_DISORDER, battle_id, missed)

        await self._engine.write(run())

    async def absence(self, battle_id: int, user_id: int) -> AbsenceRecord:
        """Return a player's missed deadlines in a battle (none when never missed)."""
        row = await self._engine.read(single(_GET_ABSENCE, battle_id, user_id))
        return AbsenceRecord(battle_id, user_id) if row is None else _absence(row)

    async def absences(self, battle_id: int) -> list[AbsenceRecord]:
        """Return every player of a battle who ever missed a deadline."""
        return [_absence(row) for row in await self._engine.read(every(_ABSENCES, battle_id))]

    async def missed(self, battle_id: int, user_id: int) -> AbsenceRecord:
        """Count one more missed deadline for a player; return their count after it."""

        def run() -> Program[AbsenceRecord]:
            if (yield one(_BATTLE_EXISTS, battle_id)) is None:
                raise BattleNotFound(battle_id)
            row = yield one(_MISSED, battle_id, user_id)
            return _absence(row)

        return await self._engine.write(run())

    async def fall_into_disorder(self, battle_id: int, user_id: int, now: float) -> bool:
        """Put a player's units in civil disorder; False when they already were."""
        return await self._engine.write(changed(_DISORDER, float(now), battle_id, user_id)) > 0

    async def came_back(self, battle_id: int, user_id: int) -> AbsenceRecord | None:
        """Start a player's count again after an order of theirs; return their record as it was, if it changed."""

        def run() -> Program[AbsenceRecord | None]:
            row = yield one(_GET_ABSENCE_FOR_WRITE, battle_id, user_id)
            if row is None:
                return None
            was = _absence(row)
            if not was.missed and was.disorder_since is None:
                return None
            yield count(_BACK, battle_id, user_id)
            return was

        return await self._engine.write(run())

    async def set_approval(self, battle_id: int, approval: bool) -> None:
        """Set whether a substitute needs the GM's approval."""

        def run() -> Program[None]:
            if (yield one(_BATTLE_EXISTS, battle_id)) is None:
                raise BattleNotFound(battle_id)
            yield count(_PUT_APPROVAL, battle_id, int(approval))

        await self._engine.write(run())
