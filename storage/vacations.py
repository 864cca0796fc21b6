"""Vacations: when a player is away from every battle of a server."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from .engine import Engine
from .program import Program, Query, changed, every, one, rows
from .records import VacationRecord

log = logging.getLogger(__name__)

_COLUMNS = "id, guild_id, user_id, starts, ends, created_at"
# Serialise a player's vacations on PostgreSQL: two /vacation commands at once must not both pass the
# overlap check. SQLite's write lock does the same by itself.
_LOCK_USER = Query.of("SELECT ?", postgres="SELECT pg_advisory_xact_lock(hashtext(?))")
_OVERLAPPING = Query.of(f"""
SELECT {_COLUMNS} FROM vacations WHERE guild_id = ? AND user_id = ? AND starts < ? AND ends > ? ORDER BY starts
""")
_INSERT = Query.of(
    "INSERT INTO vacations (guild_id, user_id, starts, ends, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id")
_OF_USER = Query.of(f"SELECT {_COLUMNS} FROM vacations WHERE guild_id = ? AND user_id = ? AND ends > ? ORDER BY starts")
_SET_END = Query.of("UPDATE vacations SET ends = ? WHERE id = ? AND ends > ?")
_DELETE = Query.of("DELETE FROM vacations WHERE id = ?")


def _vacation(row: tuple[Any, ...]) -> VacationRecord:
    return VacationRecord(id=int(row[0]), guild_id=int(row[1]), user_id=int(row[2]), starts=float(row[3]),
                          ends=float(row[4]), created_at=float(row[5]))


class VacationRepo:
    """Add, list and end players' vacations."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def add(self, guild_id: int, user_id: int, starts: float, ends: float, now: float
                  ) -> tuple[VacationRecord | None, list[VacationRecord]]:
        """Add a vacation unless it overlaps another of the player's; return it (None if refused) and the overlaps."""
        if ends <= starts:
            raise ValueError("a vacation must end after it starts")

        def run() -> Program[tuple[VacationRecord | None, list[VacationRecord]]]:
            yield one(_LOCK_USER, f"vacations:{guild_id}:{user_id}")
            clash = [_vacation(r) for r in (yield rows(_OVERLAPPING, guild_id, user_id, float(ends), float(starts)))]
            if clash:
                return None, clash
            row = yield one(_INSERT, guild_id, user_id, float(starts), float(ends), float(now))
            return VacationRecord(int(row[0]), guild_id, user_id, float(starts), float(ends), float(now)), []

        return await self._engine.write(run())

    async def of_user(self, guild_id: int, user_id: int, now: float) -> list[VacationRecord]:
        """Return a player's vacations on a server that have not ended by now, earliest first."""
        found = await self._engine.read(every(_OF_USER, guild_id, user_id, float(now)))
        return [_vacation(r) for r in found]

    async def of_users(self, guild_id: int, user_ids: Sequence[int], now: float) -> list[VacationRecord]:
        """Return the vacations of these players not ended by now."""
        out: list[VacationRecord] = []
        for user_id in sorted(set(user_ids)):
            out.extend(await self.of_user(guild_id, user_id, now))
        return out

    async def end(self, vacation: VacationRecord, now: float) -> bool:
        """End a vacation now (one not yet begun is dropped); False if it had ended already."""
        if vacation.starts >= now:
            return bool(await self._engine.write(changed(_DELETE, vacation.id)))

        return bool(await self._engine.write(changed(_SET_END, float(now), vacation.id, float(now))))
