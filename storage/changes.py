"""Telling every process that shares a database when a battle changed: PostgreSQL's LISTEN/NOTIFY.

An order's commit (and an undo's) notifies `CHANNEL` with `battle_id:version` in the same transaction, so the
notice goes out only when the change is committed. A SQLite file has no such channel: the statement does
nothing there, and a process learns of its own changes in-process (the table service's listeners).
"""

from __future__ import annotations

from .program import Query

CHANNEL = "battlepost_battles"

# pg_notify rather than NOTIFY: a statement's parameters can be its payload. SQLite just selects the payload.
NOTIFY_CHANGE = Query(sqlite="SELECT ?", postgres=f"SELECT pg_notify('{CHANNEL}', $1)")


def payload(battle_id: int, version: int) -> str:
    """Return a change's notice: the battle and its new version."""
    return f"{battle_id}:{version}"


def parse_payload(text: str) -> tuple[int, int] | None:
    """Return the battle and version a notice names, or None for anything else on the channel."""
    battle, _, version = text.partition(":")
    if not (battle.isdigit() and version.isdigit()) or len(text) > 40:
        return None
    return int(battle), int(version)
