"""Find the report of the engagement fought this game turn: its result in the battle, its rounds in the log."""

from __future__ import annotations

from dataclasses import replace

from bot.service import BattleRecord, TableService
from rules.battle import Battle
from rules.errors import IllegalOrderError
from rules.systems.surface.details import SurfaceReport
from rules.systems.surface.state import RESOLVE, logged_report, state

RECENT_MAX = 8
_RECENT: dict[tuple[int, int], SurfaceReport] = {}


def kept_report(battle: Battle) -> SurfaceReport:
    """Return the result of this game turn's engagement as the battle keeps it, or explain that none was fought."""
    kept = state(battle).report
    if kept is None:
        raise IllegalOrderError("No engagement has been fought this game turn yet; it is fought when both sides "
                                "have committed `/surface plan`.")
    return kept


async def fought_report(service: TableService, record: BattleRecord, battle: Battle) -> SurfaceReport:
    """Return the full report (with every round) of this game turn's engagement, or explain that none was fought."""
    kept = kept_report(battle)
    key = (record.id, record.version)
    if key in _RECENT:
        return _RECENT[key]
    fought = logged_report(battle, await service.latest_outcome(record, RESOLVE))
    # The log no longer holds the fight (a battle imported without it): the result is all there is.
    data = replace(kept, log=()) if fought is None or fought.turn != kept.turn else fought
    # Paging through a long engagement reads the same report again and again; any order changes the version.
    _RECENT[key] = data
    while len(_RECENT) > RECENT_MAX:
        del _RECENT[next(iter(_RECENT))]
    return data
