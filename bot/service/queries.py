"""The table service's queries: a battle's log read and searched, and hidden rolls revealed."""

from __future__ import annotations

import logging
from typing import Any

from bot.service.core import ServiceCore
from bot.table import Actor
from rules.errors import IllegalOrderError, NotFoundError
from storage import BattleRecord, EventRecord

log = logging.getLogger(__name__)

LOG_PAGE = 10  # events read at a time when searching the log (each with its outcome, some large)
OUTCOMES_PAGE = 50  # events read at a time when gathering every outcome of a kind


class QueriesJob(ServiceCore):
    """Read a battle's log."""

    async def event_count(self, record: BattleRecord) -> int:
        """Return how many entries a battle's log has."""
        return await self.db.events.count(record.id)

    async def outcomes_of(self, record: BattleRecord, kind: str) -> list[dict[str, Any]]:
        """Return the logged outcome of every order of a kind still in force (not undone), oldest first."""
        found: list[dict[str, Any]] = []
        offset = 0
        while True:
            page = await self.db.events.list(record.id, limit=OUTCOMES_PAGE, offset=offset, newest_first=False,
                                             include_undone=False)
            found += [event.outcome for event in page if event.kind == kind and event.outcome]
            if len(page) < OUTCOMES_PAGE:
                return found
            offset += OUTCOMES_PAGE

    async def latest_outcome(self, record: BattleRecord, kind: str) -> dict[str, Any] | None:
        """Return the logged outcome of the battle's newest order of a kind still in force (not undone)."""
        offset = 0
        while True:
            page = await self.db.events.list(record.id, limit=LOG_PAGE, offset=offset, include_undone=False)
            for event in page:
                if event.kind == kind:
                    return event.outcome
            if len(page) < LOG_PAGE:
                return None
            offset += LOG_PAGE

    async def log_page(self, record: BattleRecord, page: int, per_page: int) -> tuple[list[EventRecord], int]:
        """Return one page of a battle's log, newest first, and how many entries it has."""
        total = await self.db.events.count(record.id)
        events = await self.db.events.list(record.id, limit=per_page, offset=max(0, page - 1) * per_page)
        return events, total

    async def reveal(self, actor: Actor, record: BattleRecord, seq: int) -> EventRecord:
        """Make a hidden roll of the log public (GM)."""
        await self.require_gm(actor, record, "reveal hidden rolls")
        event = await self.db.events.get(record.id, seq)
        if event is None:
            raise NotFoundError(f"There is no order #{seq} in this battle's log.")
        if not event.hidden:
            raise IllegalOrderError(f"Order #{seq} is not hidden; everyone can already see it in /battle log.")
        # The battle gets a new version with it, so every copy of its log (the web view's) is read again; under
        # the battle's lock, so an order being resolved meanwhile is not refused as stale.
        async with self.locks.get(record.id):
            await self.db.battles.reveal(record.id, seq, now=self.clock())
            self.cache.forget(record.id)
        log.info("battle %s: GM %s revealed order %s", record.id, actor.user_id, seq)
        revealed = await self.db.events.get(record.id, seq)
        assert revealed is not None
        return revealed
