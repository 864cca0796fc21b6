"""Find the report of the engagement fought this game turn: its result in the battle, its rounds in the log."""

from __future__ import annotations

from typing import Any

from bot.service import BattleRecord, TableService
from rules.battle import Battle
from rules.errors import IllegalOrderError

RESOLVE = "surface-resolve"


async def fought_report(service: TableService, record: BattleRecord, battle: Battle) -> dict[str, Any]:
    """Return the full report (with every round) of this game turn's engagement, or explain that none was fought."""
    kept: dict[str, Any] | None = battle.turn.get("surface", {}).get("report")
    if not kept:
        raise IllegalOrderError("No engagement has been fought this game turn yet; it is fought when both sides "
                                "have committed `/surface plan`.")
    logged = await service.latest_outcome(record, RESOLVE)
    data = (logged or {}).get("data") or {}
    if data.get("turn") != kept.get("turn") or "log" not in data:
        # The log no longer holds the fight (a battle imported without it): the result is all there is.
        return {**kept, "log": []}
    return data
