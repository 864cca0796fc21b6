"""The table service: the one door every front end uses to read and change a battle.

It is split by job, one module each (orders, setup, clocks, archive, queries, maps, players, posting), over a core
that holds the state they share; `TableService` is all of them at once.
"""

from __future__ import annotations

import time

from bot.maps import MapImage
from bot.scheduler import Scheduler
from bot.service.archive import ArchiveJob
from bot.service.core import StaleTurnError, require_system, system_rng
from bot.service.orders import MAX_UNDO, OrdersJob
from bot.service.players import PlayersJob, Stalling
from bot.service.posting import MAX_STALL_AFTER, PostingJob
from bot.service.queries import QueriesJob
from bot.service.setup import SetupJob
from bot.table import COMMITTED, SYSTEM_USER_ID, Actor, Clock, Listener, Notice, Result, RngFactory
from render.describe import MapText
from storage import NEXT_TURN, BattleRecord, ClockRecord, Database, EventRecord, PlayerRecord, PostingRecord

__all__ = [
    "COMMITTED", "MAX_STALL_AFTER", "MAX_UNDO", "NEXT_TURN", "SYSTEM_USER_ID", "Actor", "BattleRecord", "ClockRecord", "EventRecord",
    "Listener", "MapImage", "MapText", "Notice", "PlayerRecord", "PostingRecord", "Result", "StaleTurnError", "Stalling",
    "TableService", "require_system",
]


class TableService(ArchiveJob, OrdersJob, SetupJob, QueriesJob, PlayersJob, PostingJob):
    """Load, authorise, apply, commit and render: every change to a battle goes through here."""

    def __init__(self, db: Database, *, clock: Clock = time.time, rng_factory: RngFactory = system_rng,
                 render: bool = True, cache_size: int | None = None, render_workers: int = 0) -> None:
        super().__init__(db, clock=clock, rng_factory=rng_factory, render=render, cache_size=cache_size,
                         render_workers=render_workers)
        # Passed deadlines go through the whole service (orders, maps, notices), so its scheduler is made here.
        self.scheduler = Scheduler(self)
