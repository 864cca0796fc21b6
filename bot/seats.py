"""Substitutes: a player frees their seat (or the GM frees it), and another member takes it over.

A seat is the set of units a player commands in a battle. Freeing it hands the units to the GM (a unit nobody
commands waits for the GM, as its turn ping does) and opens the seat; taking it gives those units to the new
player, whose pings and side thread follow the units. Both are logged as orders of whoever did them, so the
log keeps each tenure apart.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from rules import orders as o
from rules.battle import Battle
from rules.errors import IllegalOrderError, NotAllowedError, NotFoundError
from storage import BattleRecord, SeatRecord

if TYPE_CHECKING:
    from bot.service import TableService
    from bot.table import Actor

log = logging.getLogger(__name__)


def _seat_units(battle: Battle, user_id: int) -> list[str]:
    """Return the ids of the units a player commands."""
    return [u.id for u in battle.iter_units() if u.owner == user_id]


async def _give(service: TableService, actor: Actor, record: BattleRecord, unit_ids: list[str],
                owner: int | None) -> BattleRecord:
    """Give units to a player (None: back to the GM), one logged order each, as `actor`.

    The caller has checked that the actor may: the order runs with the GM's authority, but is logged as theirs.
    """
    acting = replace(actor, manage_guild=True)
    for unit_id in unit_ids:
        current = await service.battle_by_id(record.id)
        battle = service.read_only(current)
        unit = battle.units.get(unit_id)
        if unit is None:
            continue  # removed since: nothing to hand over
        result = await service.execute(acting, current, o.EditUnit(unit=unit.name, stats={"owner": owner}),
                                       render=False)
        record = result.record
    return record


async def release(service: TableService, actor: Actor, record: BattleRecord, player: int, *,
                  absent: bool = False) -> SeatRecord:
    """Free a player's seat (their own, or anyone's for the GM) and open it for a substitute.

    With `absent`, the seat of a player in civil disorder, which the battle's other players may free too.
    """
    if player != actor.user_id:
        await require_absent_or_gm(service, actor, record, player) if absent else await service.require_gm(
            actor, record, "free another player's seat")
    if record.status == "ended":
        raise IllegalOrderError("This battle is over; its seats stay as they were.")
    battle = service.read_only(record)
    units = _seat_units(battle, player)
    if not units:
        seat = await service.db.seats.get(record.id, player)
        who = "Your" if player == actor.user_id else f"<@{player}>'s"
        if seat is not None and seat.status in ("open", "asked"):
            raise IllegalOrderError(f"{who} seat in this battle is already free, waiting for a substitute to "
                                    "press Take seat on its post; nothing was changed.")
        raise NotFoundError(f"{'You command' if player == actor.user_id else f'<@{player}> commands'} no unit in "
                            "this battle, so there is no seat to free.")
    sides = ", ".join(sorted({battle.units[u].side for u in units}))
    await _give(service, actor, record, units, None)
    seat = SeatRecord(battle_id=record.id, user_id=player, units=tuple(units), sides=sides,
                      released_by=actor.user_id, released_at=service.clock())
    await service.db.seats.release(seat)
    log.info("battle %s: seat of %s (%s) freed by %s", record.id, player, sides, actor.user_id)
    return seat


async def require_absent_or_gm(service: TableService, actor: Actor, record: BattleRecord, player: int) -> None:
    """Refuse unless the player is in civil disorder and the actor is the GM or another player of the battle."""
    absence = await service.db.seats.absence(record.id, player)
    if absence.disorder_since is None:
        raise IllegalOrderError(f"<@{player}> is not in civil disorder any more (they gave an order since); "
                                "nothing was changed.")
    if await service.is_gm(actor, record):
        return
    if not _seat_units(service.read_only(record), actor.user_id):
        raise NotAllowedError("Only the GM or a player of this battle can decide about an absent player's seat.")


async def remove_player(service: TableService, actor: Actor, record: BattleRecord, player: int) -> list[str]:
    """Take an absent player's units from them (the GM commands them); return the units' names."""
    await require_absent_or_gm(service, actor, record, player)
    battle = service.read_only(record)
    units = _seat_units(battle, player)
    names = [battle.units[u].name for u in units]
    await _give(service, actor, record, units, None)
    await service.db.seats.came_back(record.id, player)
    log.info("battle %s: %s removed absent player %s (%s)", record.id, actor.user_id, player, names)
    return names


async def _check_taker(service: TableService, record: BattleRecord, seat: SeatRecord, taker: int) -> None:
    """Refuse a taker who plays another side of the battle already."""
    current = await service.battle_by_id(record.id)
    battle = service.read_only(current)
    theirs = {u.side.lower() for u in battle.iter_units() if u.owner == taker}
    seat_sides = {s.strip().lower() for s in seat.sides.split(",")}
    other = sorted(theirs - seat_sides)
    if other:
        raise NotAllowedError(f"You already command {', '.join(other)} in this battle; one player cannot hold two "
                              "sides. Free your seat first with /seat release, or leave this one to someone else.")


async def take(service: TableService, actor: Actor, record: BattleRecord, player: int) -> tuple[SeatRecord, bool]:
    """Take the seat a player left; return it and whether it was taken (False: the GM is asked to approve)."""
    seat = await service.db.seats.get(record.id, player)
    if seat is None:
        raise NotFoundError("There is no free seat of that player in this battle.")
    if seat.status == "taken":
        raise IllegalOrderError(f"<@{seat.taken_by}> took this seat already; nothing was changed.")
    if seat.status == "closed":
        raise IllegalOrderError("This seat was closed by the GM; nothing was changed.")
    await _check_taker(service, record, seat, actor.user_id)
    if await service.db.seats.needs_approval(record.id) and not await service.is_gm(actor, record):
        if seat.status == "asked":
            raise IllegalOrderError(f"<@{seat.candidate}> asked for this seat first; the GM decides.")
        if not await service.db.seats.ask(record.id, player, actor.user_id):
            raise IllegalOrderError("Somebody asked for this seat at the same moment; the GM decides.")
        log.info("battle %s: %s asks for the seat of %s", record.id, actor.user_id, player)
        return replace(seat, status="asked", candidate=actor.user_id), False
    return await _hand_over(service, actor, record, seat, actor.user_id), True


async def approve(service: TableService, actor: Actor, record: BattleRecord, player: int) -> SeatRecord:
    """Give an asked-for seat to its candidate (GM)."""
    await service.require_gm(actor, record, "approve a substitute")
    seat = await service.db.seats.get(record.id, player)
    if seat is None or seat.status != "asked" or seat.candidate is None:
        raise IllegalOrderError("Nobody is waiting for this seat now; nothing was changed.")
    await _check_taker(service, record, seat, seat.candidate)
    return await _hand_over(service, actor, record, seat, seat.candidate)


async def _hand_over(service: TableService, actor: Actor, record: BattleRecord, seat: SeatRecord,
                     taker: int) -> SeatRecord:
    if not await service.db.seats.take(record.id, seat.user_id, taker, service.clock()):
        raise IllegalOrderError("Somebody took this seat a moment before you; nothing was changed.")
    current = await service.battle_by_id(record.id)
    battle = service.read_only(current)
    # Only the seat's units still waiting for the GM: one the GM gave to somebody meanwhile stays theirs.
    waiting = [u for u in seat.units if u in battle.units and battle.units[u].owner is None]
    giver = actor if actor.user_id == taker else replace(actor, user_id=taker, name="")
    await _give(service, giver, current, waiting, taker)
    log.info("battle %s: %s took the seat of %s (%d units)", record.id, taker, seat.user_id, len(waiting))
    taken = await service.db.seats.get(record.id, seat.user_id)
    assert taken is not None
    return taken
