"""Find the report of the engagement fought this game turn: its result in the battle, its rounds in the log."""

from __future__ import annotations

from typing import Any

from bot.service import BattleRecord, TableService
from rules.battle import Battle
from rules.errors import IllegalOrderError
from rules.outcome import Outcome
from rules.systems.surface.details import SurfaceReport
from rules.systems.surface.state import peek

RESOLVE = "surface-resolve"
RECENT_MAX = 8
_RECENT: dict[tuple[int, int], dict[str, Any]] = {}


def kept_report(battle: Battle) -> dict[str, Any]:
    """Return the result of this game turn's engagement as the battle keeps it, or explain that none was fought."""
    kept: dict[str, Any] | None = peek(battle).get("report")
    if not kept:
        raise IllegalOrderError("No engagement has been fought this game turn yet; it is fought when both sides "
                                "have committed `/surface plan`.")
    return kept


def logged_report(battle: Battle, logged: dict[str, Any] | None) -> dict[str, Any] | None:
    """Return the report an engagement's logged outcome holds, in the form the battle keeps it, or None."""
    system = battle.system
    outcome = Outcome.from_dict({"order": RESOLVE, "kind": RESOLVE, **(logged or {})}, system.effect_kinds,
                                system.test_kinds, system.detail_kinds)
    fought = outcome.details_as(SurfaceReport)
    return fought.to_dict() if fought is not None else None  # the pages and the chart read this form


async def fought_report(service: TableService, record: BattleRecord, battle: Battle) -> dict[str, Any]:
    """Return the full report (with every round) of this game turn's engagement, or explain that none was fought."""
    kept = kept_report(battle)
    key = (record.id, record.version)
    if key in _RECENT:
        return _RECENT[key]
    fought = logged_report(battle, await service.latest_outcome(record, RESOLVE))
    if fought is None or fought.get("turn") != kept.get("turn"):
        # The log no longer holds the fight (a battle imported without it): the result is all there is.
        data = {**kept, "log": []}
    else:
        data = fought
    # Paging through a long engagement reads the same report again and again; any order changes the version.
    _RECENT[key] = data
    while len(_RECENT) > RECENT_MAX:
        del _RECENT[next(iter(_RECENT))]
    return data
