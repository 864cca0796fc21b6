"""Players taking their own orders back: alone while nothing was learnt from the order, else with the other sides' say.

The GM's /gm undo is the tool underneath (TableService.restore): a takeback is an undo that a player may start,
logged with whose it was and who approved it, and made only while the battle is still as the player saw it.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.quiet import quiet_order
from rules.battle import Battle
from rules.errors import ConflictError, GameError, IllegalOrderError, NotAllowedError, NotFoundError
from rules.takeback import dice_reason, why_not_free
from storage import BattleRecord, EventRecord, TakebackRecord
from storage.records import RESERVED_KINDS

if TYPE_CHECKING:
    from bot.service import TableService
    from bot.table import Actor, Result

log = logging.getLogger(__name__)

TAKEBACK_KIND = "takeback"  # the `kind` written in a takeback's logged note
LOOK_BACK = 50  # a player's last order is looked for among this many newest orders (the most /gm undo takes)


@dataclass(frozen=True, slots=True)
class TakebackPlan:
    """What taking back a player's last order means now: which orders go, and why others must agree (if so)."""

    order_seq: int
    newest_seq: int
    undone: list[EventRecord]  # newest first: the player's order is the last
    reason: str | None  # None: the player may take it back alone

    @property
    def count(self) -> int:
        """Return how many orders the takeback takes back."""
        return len(self.undone)


def sides_of(battle: Battle[Any], user_id: int) -> set[str]:
    """Return the lower-case sides a player commands units of."""
    return {u.side.lower() for u in battle.iter_units() if u.owner == user_id}


def opponents_of(battle: Battle[Any], user_id: int) -> set[int]:
    """Return the players of the sides a player does not play (those who answer their takeback requests)."""
    mine = sides_of(battle, user_id)
    return {u.owner for u in battle.iter_units()
            if u.owner is not None and u.owner != user_id and u.side.lower() not in mine}


async def plan_takeback(service: TableService, record: BattleRecord, user_id: int) -> TakebackPlan:
    """Find a player's last order still in force and say whether they may take it back alone."""
    page = await service.db.events.list(record.id, limit=LOOK_BACK * 2)
    orders = [e for e in page if not e.undone and e.kind not in RESERVED_KINDS][:LOOK_BACK]
    if not orders:
        raise NotFoundError("There is no order in this battle to take back.")
    index = next((i for i, e in enumerate(orders) if e.actor_id == user_id), None)
    if index is None:
        raise NotFoundError(f"You have no order among the last {len(orders)} of this battle to take back; "
                            "/undo takes back your own last order only.")
    mine = orders[index]
    # Anybody else's entry since counts, even one taken back since: they acted knowing the order.
    others = sum(1 for e in page if e.seq > mine.seq and e.actor_id != user_id)
    reason: str | None
    if others:
        reason = why_not_free(mine.outcome, None, None, others)
    else:
        before_state = await service.db.events.state_before(record.id, mine.seq)
        if before_state is None:
            raise NotFoundError("That order can no longer be taken back: the state before it was not kept.")
        reason = await asyncio.to_thread(_judge, mine, before_state, record.state)
    return TakebackPlan(order_seq=mine.seq, newest_seq=page[0].seq, undone=orders[: index + 1], reason=reason)


def _judge(event: EventRecord, before: dict[str, Any], after: dict[str, Any]) -> str | None:
    """Decide off the event loop (two battles are decoded) whether the newest order may be taken back alone."""
    return why_not_free(event.outcome, Battle.from_dict(before), Battle.from_dict(after), 0)


async def offers_undo(service: TableService, result: Result) -> bool:
    """Return whether the order a result logged may be taken back by its player alone, so its reply offers Undo.

    Only an order that rolled no die, showed nothing hidden and began no other turn: after dice, taking it back
    asks the other sides, and a turn begun has already called its players, who would be called again.
    The table service judges it in the order's trip (`result.quiet`); a result made elsewhere is judged here.
    """
    if result.seq is None or result.outcome is None or dice_reason(result.outcome.to_dict()) is not None:
        return False
    if result.quiet is not None:
        return result.quiet  # judged by the table service in the order's own trip, on the battles it had
    before = await service.db.events.state_before(result.record.id, result.seq)
    if before is None:
        return False
    # Two battles decoded and every side's view compared: off the event loop.
    return await asyncio.to_thread(_quiet_order, before, result.record.state)


def _quiet_order(before_state: dict[str, Any], after_state: dict[str, Any]) -> bool:
    """Return whether an order, from one state of a battle to the next, began no turn and showed nothing hidden."""
    return quiet_order(Battle.from_dict(before_state), Battle.from_dict(after_state))


def _still_at(service: TableService, newest_seq: int) -> Any:
    """Return a guard refusing a takeback once the battle has moved past the order it was planned on."""

    async def guard(current: BattleRecord) -> None:
        if await service.db.events.latest_seq(current.id) != newest_seq:
            raise ConflictError("Someone acted in this battle meanwhile, so nothing was taken back; "
                                "use /undo again to see what taking your order back means now.")

    return guard


async def take_back(service: TableService, actor: Actor, record: BattleRecord) -> tuple[TakebackPlan, Result | None]:
    """Take a player's last order back if they may alone; else store a request for the other sides.

    Returns the plan and, when the order was taken back, the result (None: a request was made).
    """
    if record.status == "ended":
        raise IllegalOrderError("This battle is over; its orders can no longer be taken back.")
    plan = await plan_takeback(service, record, actor.user_id)
    if plan.reason is None:
        result = await service.restore(
            actor, record, 1, text=f"takeback of #{plan.order_seq}",
            note={"kind": TAKEBACK_KIND, "player": actor.user_id, "approved_by": None},
            guard=_still_at(service, plan.newest_seq))
        log.info("battle %s: player %s took back order %s", record.id, actor.user_id, plan.order_seq)
        return plan, result
    battle = Battle.from_dict(record.state)
    if not opponents_of(battle, actor.user_id):
        raise NotAllowedError(f"Your order cannot be taken back alone ({plan.reason}), and no other side has a "
                              "player to approve it; ask the GM to use /gm undo.")
    await service.db.takebacks.ask(TakebackRecord(
        battle_id=record.id, newest_seq=plan.newest_seq, order_seq=plan.order_seq, user_id=actor.user_id,
        count=plan.count, reason=plan.reason, asked_at=service.clock()))
    log.info("battle %s: player %s asks to take back %s order(s)", record.id, actor.user_id, plan.count)
    return plan, None


async def answer(service: TableService, actor: Actor, record: BattleRecord, newest_seq: int,
                 approve: bool) -> tuple[TakebackRecord, Result | None]:
    """Approve or refuse a takeback request as a player of another side or the GM; the first answer settles it."""
    request = await service.db.takebacks.get(record.id, newest_seq)
    if request is None:
        raise NotFoundError("battlepost has no such takeback request; the player can ask again with /undo.")
    if request.status != "open":
        raise IllegalOrderError(f"This takeback request was already {request.status}; nothing was changed.")
    if request.user_id == actor.user_id and not await service.is_gm(actor, record):
        raise NotAllowedError("You cannot answer your own takeback request; a player of another side or the GM does.")
    battle = Battle.from_dict(record.state)
    if actor.user_id not in opponents_of(battle, request.user_id) and not await service.is_gm(actor, record):
        raise NotAllowedError("Only a player of another side, or the GM, can answer this takeback request.")
    if not approve:
        if not await service.db.takebacks.decide(record.id, newest_seq, "refused", actor.user_id, service.clock()):
            raise IllegalOrderError("This takeback request was already answered; nothing was changed.")
        log.info("battle %s: %s refused the takeback of order %s", record.id, actor.user_id, request.order_seq)
        return await _settled(service, record.id, newest_seq), None
    still = _still_at(service, newest_seq)

    async def guard(current: BattleRecord) -> None:
        try:
            await still(current)
        except ConflictError:
            await service.db.takebacks.decide(record.id, newest_seq, "stale", actor.user_id, service.clock())
            raise ConflictError("The battle moved on since this takeback was asked for, so nothing was taken "
                                "back; the player can ask again with /undo.") from None
        if not await service.db.takebacks.decide(record.id, newest_seq, "approved", actor.user_id, service.clock()):
            raise IllegalOrderError("This takeback request was already answered; nothing was changed.")

    # The takeback is logged as the asker's; the note says who let it through.
    asker = type(actor)(user_id=request.user_id, guild_id=record.guild_id)
    result = await service.restore(
        asker, record, request.count, text=f"takeback of #{request.order_seq}",
        note={"kind": TAKEBACK_KIND, "player": request.user_id, "approved_by": actor.user_id}, guard=guard)
    log.info("battle %s: %s approved the takeback of order %s", record.id, actor.user_id, request.order_seq)
    return await _settled(service, record.id, newest_seq), result


async def _settled(service: TableService, battle_id: int, newest_seq: int) -> TakebackRecord:
    settled = await service.db.takebacks.get(battle_id, newest_seq)
    if settled is None:
        raise GameError("The takeback request vanished while it was answered.")
    return settled
