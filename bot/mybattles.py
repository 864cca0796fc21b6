"""A player's battles across every server: those waiting for them now, with their deadlines."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot import clockhours
from bot.clock import due_now, turn_label
from bot.vacations import player_zone
from rules import turns
from rules.battle import Battle
from rules.errors import SystemMissingError
from storage import BattleRecord, DigestRecord

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


async def _due_map(service: TableService, wanted: set[int] | None = None) -> dict[int, list[DueBattle]]:
    """Return, for each player (of `wanted`, or all), the running battles waiting for them, nearest deadline first."""
    found: dict[int, list[DueBattle]] = {}
    for battle_id in await service.db.battles.active_ids():
        try:
            current = await service.current(battle_id)
        except SystemMissingError:
            continue  # its rule system is not installed here: nobody can play it now anyway
        if current is None or current[0].status != "active":
            continue
        record, battle = current
        players = {uid: due for uid, due in due_players(record, battle).items() if wanted is None or uid in wanted}
        if not players:
            continue
        clock = await service.clock_of(record)
        for uid, due in players.items():
            found.setdefault(uid, []).append(DueBattle(
                record.id, record.guild_id, record.thread_id or record.channel_id, record.name, turn_label(battle),
                tuple(due), clock.due_at, clock.paused))
    for battles in found.values():
        battles.sort(key=lambda b: (b.due_at is None, b.due_at or 0.0, b.battle_id))
    return found


async def battles_due(service: TableService, user_id: int) -> list[DueBattle]:
    """Return every running battle waiting for a player, the nearest deadline first (none: last)."""
    return (await _due_map(service, {user_id})).get(user_id, [])


DigestSender = Callable[[int, list[DueBattle]], Awaitable[bool]]
MAX_DIGESTS = 1000  # digests sent in one pass at most; the rest wait for the next pass
DEFAULT_DIGEST_MINUTE = 8 * 60  # a digest comes at 08:00 in the player's zone unless they choose another hour


@dataclass(frozen=True, slots=True)
class DigestTime:
    """When a player's daily digest comes: a local time in their zone, and the next moment it is due."""

    minute: int
    zone: str
    next_at: float

    @property
    def clock(self) -> str:
        """Return the local time like `08:00 Europe/Berlin`."""
        return f"{clockhours.clock_text(self.minute)} {self.zone}"


async def _digest_hour(service: TableService, user_id: int) -> tuple[int, str]:
    """Return the local time (minutes after midnight) and zone of a player's digest."""
    minute = await service.db.users.get_digest_minute(user_id)
    return (DEFAULT_DIGEST_MINUTE if minute is None else minute), await player_zone(service, user_id)


async def turn_on_digest(service: TableService, user_id: int, at: str | None = None) -> DigestTime:
    """Turn a player's digest on at a local hour (the one chosen before, else 08:00); return when it comes.

    The first comes at that hour in the player's zone, never on the same local day as the last one sent.
    """
    if at is not None:
        await service.db.users.set_digest_minute(user_id, clockhours.parse_clock_hour(at))
    minute, zone = await _digest_hour(service, user_id)
    before = await service.db.digests.get(user_id)
    last = None if before is None else before.sent_at
    due = clockhours.next_daily(service.clock(), minute, clockhours.zone(zone), last)
    digest = await service.db.digests.turn_on(user_id, due, last)
    return DigestTime(minute, zone, digest.next_at)


async def turn_off_digest(service: TableService, user_id: int) -> bool:
    """Turn a player's digest off; return whether it was ever on."""
    return await service.db.digests.turn_off(user_id)


async def reschedule_digest(service: TableService, user_id: int) -> DigestTime | None:
    """Move a player's next digest to their hour in their zone (after they changed it); None when it is off."""
    digest = await service.db.digests.get(user_id)
    if digest is None or not digest.enabled:
        return None
    return await _schedule_next(service, digest)


async def _schedule_next(service: TableService, digest: DigestRecord) -> DigestTime:
    """Set a player's next digest at their local hour, on a later local day than the last one sent."""
    minute, zone = await _digest_hour(service, digest.user_id)
    due = clockhours.next_daily(service.clock(), minute, clockhours.zone(zone), digest.sent_at)
    await service.db.digests.schedule(digest.user_id, digest.sent_at, due)
    return DigestTime(minute, zone, due)


async def send_digests(service: TableService, send: DigestSender) -> int:
    """Send every daily digest due now, each to one player once; return how many were sent.

    A digest is claimed (moved to the player's hour on their next local day) before it is sent, so no player
    ever gets two in a day, whichever processes run; a player no battle waits for gets nothing that day.
    """
    now = service.clock()
    claimed: list[int] = []
    for _ in range(MAX_DIGESTS):
        digest = await service.db.digests.claim_due(now)
        if digest is None:
            break
        claimed.append(digest.user_id)
        # The claim moved it a day ahead; the player's own hour on their next local day is the one meant.
        await _schedule_next(service, digest)
    if not claimed:
        return 0
    due = await _due_map(service, set(claimed))
    sent = 0
    for user_id in claimed:
        battles = due.get(user_id)
        if battles and await send(user_id, battles):
            sent += 1
    log.info("daily digests: %d claimed, %d sent", len(claimed), sent)
    return sent
