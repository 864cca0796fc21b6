"""A player's battles across every server: those waiting for them now, with their deadlines."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.clock import due_now, turn_label
from rules import turns
from rules.battle import Battle
from rules.errors import SystemMissingError
from storage import BattleRecord

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class DueBattle:
    """One battle waiting for a player: where it is, which of their units (or sides) are due, and until when."""

    battle_id: int
    guild_id: int
    channel_id: int  # the battle's thread when it has one, else its channel
    name: str
    turn: str
    due: tuple[str, ...]
    due_at: float | None
    paused: bool

    @property
    def link(self) -> str:
        """Return the address of the battle's channel."""
        return f"https://discord.com/channels/{self.guild_id}/{self.channel_id}"


def due_players(record: BattleRecord, battle: Battle) -> dict[int, list[str]]:
    """Return each player the battle waits for now, with what they are due for (units, or sides in a phase).

    A unit or side nobody commands waits for the battle's GM, as its turn ping does.
    """
    due = due_now(battle)
    found: dict[int, list[str]] = {}
    if battle.system.phases is not None:
        for side in due:
            owners = {u.owner for u in battle.iter_units() if u.side.lower() == side.lower() and u.owner}
            for uid in owners or {record.created_by}:
                found.setdefault(uid, []).append(side)
        return found
    for name, unit_id in zip(turns.names_of(battle, due), due, strict=True):
        unit = battle.units.get(unit_id)
        uid = (unit.owner if unit is not None else None) or record.created_by
        found.setdefault(uid, []).append(name)
    return found


async def battles_due(service: TableService, user_id: int) -> list[DueBattle]:
    """Return every running battle waiting for a player, the nearest deadline first (none: last)."""
    found: list[DueBattle] = []
    for battle_id in await service.db.battles.active_ids():
        try:
            current = await service.current(battle_id)
        except SystemMissingError:
            continue  # its rule system is not installed here: nobody can play it now anyway
        if current is None or current[0].status != "active":
            continue
        record, battle = current
        mine = due_players(record, battle).get(user_id)
        if not mine:
            continue
        clock = await service.clock_of(record)
        found.append(DueBattle(record.id, record.guild_id, record.thread_id or record.channel_id, record.name,
                               turn_label(battle), tuple(mine), clock.due_at, clock.paused))
    found.sort(key=lambda b: (b.due_at is None, b.due_at or 0.0, b.battle_id))
    return found
