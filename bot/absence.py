"""Absent players: missed deadlines in a row, civil disorder, and the standing orders played meanwhile.

A player who lets the battle's number of deadlines in a row pass (the GM's setting, 2 by default) falls into
civil disorder: at every turn of theirs, their units play their standing orders (or hold) at once, until an
order of the player's own ends it. The counts live in the database; the notices that change them reach one
process each, so nothing is counted twice.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.clock import due_now, turn_key
from rules.errors import ConflictError, GameError
from rules.turnorders import StandingTurn
from storage import AbsenceRecord

if TYPE_CHECKING:
    from bot.service import TableService
    from bot.table import Notice

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Disorder:
    """What a notice changed: players who fell into civil disorder, and players back from it."""

    fell: tuple[AbsenceRecord, ...] = ()
    back: tuple[AbsenceRecord, ...] = ()


def _missing_players(notice: Notice) -> set[int]:
    """Return the players whose units (or sides) a passed deadline found still due."""
    battle = notice.battle
    found: set[int] = set()
    for name in notice.extra.get("units", []):
        unit = battle.find_unit(str(name))
        if unit is not None:
            if unit.owner:
                found.add(unit.owner)
            continue
        found |= {u.owner for u in battle.iter_units() if u.owner and u.side.lower() == str(name).lower()}
    return found


async def on_notice(service: TableService, notice: Notice) -> Disorder:
    """Count missed deadlines, end civil disorder on a player's order, and play absent players' turns."""
    record = notice.record
    if notice.kind == "deadline":
        after = await service.db.seats.disorder_after(record.id)
        fell = []
        now = service.clock()
        missing = sorted(_missing_players(notice))
        # A player on vacation is away by leave, not absent: their deadlines moved, no missed one is counted.
        away = {v.user_id for v in await service.db.vacations.of_users(record.guild_id, missing, now)
                if v.starts <= now}
        for user_id in (u for u in missing if u not in away):
            absence = await service.db.seats.missed(record.id, user_id)
            if after and absence.missed >= after and await service.db.seats.fall_into_disorder(
                    record.id, user_id, service.clock()):
                log.info("battle %s: player %s falls into civil disorder after %d missed deadlines", record.id,
                         user_id, absence.missed)
                fell.append(absence)
        return Disorder(fell=tuple(fell))
    back: list[AbsenceRecord] = []
    actor = notice.actor
    if notice.kind == "committed" and actor is not None and not actor.is_system and (
            await service.db.seats.absence(record.id, actor.user_id)).missed:
        # Read first: most orders come from players who missed nothing, and a read costs no write lock.
        was = await service.db.seats.came_back(record.id, actor.user_id)
        if was is not None and was.disorder_since is not None:
            log.info("battle %s: player %s is back from civil disorder", record.id, actor.user_id)
            back.append(was)
    if notice.turn is not None and record.status == "active":
        # Apart from the notice's delivery: the orders wait for the battle's lock, which a reminder being
        # delivered under that lock may hold while it waits for this very notice.
        service.track(asyncio.get_running_loop().create_task(_play_absent(service, notice),
                                                             name=f"disorder-{record.id}"))
    return Disorder(back=tuple(back))


async def _play_absent(service: TableService, notice: Notice) -> None:
    """Play the standing orders of the due units of players in civil disorder, as a passed deadline would."""
    try:
        await _play_absent_units(service, notice)
    except Exception:
        # A background task: nobody awaits its failure, so it is logged here; the next turn tries again.
        log.exception("battle %s: civil disorder could not play the absent players' turn", notice.record.id)


async def _play_absent_units(service: TableService, notice: Notice) -> None:
    absent = {a.user_id for a in await service.db.seats.absences(notice.record.id) if a.disorder_since is not None}
    if not absent or notice.battle.system.phases is not None:
        return
    battle = notice.battle
    key = turn_key(battle)
    due = [battle.units[u] for u in due_now(battle) if u in battle.units]
    actor = service.system_actor(notice.record.guild_id)
    for unit in due:
        if unit.owner not in absent:
            continue
        current = await service.battle_by_id(notice.record.id)
        try:
            await service.execute(actor, current, StandingTurn(unit=unit.name), render=False, expect_turn=key)
        except ConflictError:
            return  # the turn moved on meanwhile
        except GameError as exc:
            log.warning("battle %s: civil disorder could not play %s: %s", notice.record.id, unit.name, exc.message)
