"""Vacations: a player away from every battle of a server, and the deadlines that move for them."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot import clockhours
from bot.table import Notice
from rules.battle import Battle
from rules.errors import IllegalOrderError, InvalidOrderError, SystemMissingError
from storage import BattleRecord, ClockRecord, VacationRecord

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger(__name__)

DAY = 86_400.0


@dataclass(frozen=True)
class Played:
    """A battle a player on vacation plays in, with its clock once their vacation was applied."""

    record: BattleRecord
    battle: Battle
    clock: ClockRecord


async def player_zone(service: TableService, user_id: int) -> str:
    """Return the zone a player set, or UTC."""
    return await service.db.users.get_zone(user_id) or clockhours.DEFAULT_ZONE


async def set_zone(service: TableService, user_id: int, name: str) -> str:
    """Set a player's time zone by its IANA name; return the name as stored."""
    zone = clockhours.zone(name).key
    await service.db.users.set_zone(user_id, zone)
    return zone


async def add_vacation(service: TableService, guild_id: int, user_id: int, first: str, last: str
                       ) -> tuple[VacationRecord, list[Played]]:
    """Mark a player away from the first to the last day given (in their zone); move their deadlines."""
    tz = clockhours.zone(await player_zone(service, user_id))
    now = service.clock()
    starts, ends = clockhours.vacation_span(clockhours.parse_day(first), clockhours.parse_day(last), tz, now)
    added, clash = await service.db.vacations.add(guild_id, user_id, starts, ends, now)
    if added is None:
        other = clash[0]
        raise InvalidOrderError(
            f"These days overlap your vacation from {clockhours.full(other.starts)} to "
            f"{clockhours.full(other.ends)}. Choose days outside it, or end it first with `/vacation end`.")
    log.info("user %s away on guild %s from %.0f to %.0f", user_id, guild_id, starts, ends)
    return added, await refresh(service, guild_id, user_id)


async def end_vacation(service: TableService, guild_id: int, user_id: int) -> tuple[VacationRecord, list[Played]]:
    """End a player's current vacation now (or drop the next one); their deadlines move back."""
    now = service.clock()
    found = await service.db.vacations.of_user(guild_id, user_id, now)
    if not found:
        raise IllegalOrderError("You have no vacation to end on this server; `/vacation start` sets one.")
    vacation = found[0]
    if not await service.db.vacations.end(vacation, now):
        raise IllegalOrderError("That vacation has just ended.")
    return vacation, await refresh(service, guild_id, user_id)


async def vacations_of(service: TableService, guild_id: int, user_id: int) -> list[VacationRecord]:
    """Return a player's vacations on a server that have not ended."""
    return await service.db.vacations.of_user(guild_id, user_id, service.clock())


async def refresh(service: TableService, guild_id: int, user_id: int) -> list[Played]:
    """Apply a player's vacations to the running turns of every active battle of the server they play in."""
    played: list[Played] = []
    for summary in await service.list_battles(guild_id):
        if summary.status != "active":
            continue
        async with service.locks.get(summary.id):
            try:
                found = await service.current(summary.id)
            except SystemMissingError:
                continue  # a battle whose rule system is not installed keeps its clock as it is
            if found is None:
                continue
            record, battle = found
            if record.status != "active" or not any(u.owner == user_id for u in battle.iter_units()):
                continue
            moved = await service.turn_clocks.refresh_vacations(record, battle)
            clock = await service.turn_clocks.get(record.id)
        if moved is not None:
            service.publish(Notice("clock", record, battle, clock=clock))  # the status board shows the new deadline
        played.append(Played(record, battle, clock))
    return played


def allowance_left(clock: ClockRecord, user_id: int) -> float:
    """Return how much of a battle's vacation allowance a player has left."""
    return max(0.0, clock.vacation_allowance - clock.vacation_total(user_id))

