"""The table service's orders: apply one under the battle's lock and commit it with its event, or take orders back."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, cast

from bot.cache import Kept
from bot.clock import turn_key, whose_turn
from bot.service.clocks import ClocksJob
from bot.service.core import StaleTurnError
from bot.service.maps import MapsJob
from bot.table import Actor, Notice, Result, note_committed
from rules import orders as o
from rules import turns
from rules.battle import Battle
from rules.dice import Dice, Roll
from rules.errors import ConflictError, GameError, IllegalOrderError, NotFoundError
from rules.outcome import Outcome
from rules.turnorders import EndTurn
from storage import BattleRecord, BattleStatus, NewEvent, NothingToUndo, StaleVersionError

MAX_UNDO = 50
SLOW_UNITS = 50  # a slow order on a battle with this many units is resolved in a worker thread


class OrdersJob(MapsJob, ClocksJob):
    """Apply, commit and take back orders."""

    async def execute(self, actor: Actor, record: BattleRecord, order: o.Order, *, render: bool = True,
                      manual_rolls: Sequence[int] = (), expect_turn: str | None = None,
                      publish: bool = True, follow: str | None = None, cheapest: bool = False) -> Result:
        """Apply one order under the battle's lock and commit its snapshot and event together.

        With expect_turn, the order is refused (StaleTurnError) unless the battle is still in that turn.
        With publish=False the listeners are not told; the Notice is left in result.extra["notice"].
        With cheapest, a move goes by the cheapest mode that reaches its square (the order's own mode when none
        does, so the rules say why); result.cheapest is the move picked.
        With follow (a unit), the unit's legal orders after the order are generated once, in the same trip, and
        returned in result.after; when they hold nothing but ending its turn, its turn ends here too (a second
        logged order, result.ended).
        """
        self.remember_name(actor)
        async with self.locks.get(record.id):
            current = await self._stored(record.id)
            if current is None or current.guild_id != actor.guild_id:
                raise NotFoundError("That battle no longer exists.")
            # The checks read the shared copy kept at this version when there is one; the order is resolved on a
            # fresh copy (the kept one is shared, and a refused order is simply thrown away), decoded in the same
            # trip to the rules thread. Decoding a battle of hundreds of units takes milliseconds.
            kept = self.cache.latest(current.id)
            fresh: Battle | None = None
            if kept is not None and kept.version == current.version:
                reader = kept.battle
            else:
                fresh = reader = await asyncio.get_running_loop().run_in_executor(self._rules, _decode, current)
            turn_before = turn_key(reader)
            if expect_turn is not None and turn_before != expect_turn:
                raise StaleTurnError("That turn is already over.")
            await self.authorise(actor, current, reader, order)
            dice = Dice(self.rng_factory(), scripted=list(manual_rolls))
            # Undo lives in the database (each event keeps the state before it), so no snapshot is kept here.
            if order.slow and len(reader.units) >= SLOW_UNITS:
                # A whole engagement in one order takes seconds at the largest: it runs beside the others'
                # orders rather than ahead of them.
                battle, picked, outcome, state, logged, after = await asyncio.to_thread(
                    _resolve, current, fresh, order, dice, follow, cheapest)
            else:
                battle, picked, outcome, state, logged, after = await asyncio.get_running_loop().run_in_executor(
                    self._rules, _resolve, current, fresh, order, dice, follow, cheapest)
            order = picked or order
            status = cast("BattleStatus", battle.status) if battle.status != current.status else None
            turn_after = turn_key(battle)
            # What the order leaves the bot owing Discord is kept with it, so no crash or refusal loses it.
            posts = self.owed_after(current.id, battle, turn_after if turn_after != turn_before else None)
            owed: list[int] = []
            try:
                saved, seq = await self.db.battles.commit_order(
                    current.id, expected_version=current.version, state=state, status=status,
                    event=NewEvent(actor_id=actor.user_id, kind=order.kind, order_text=str(order),
                                   outcome=logged, hidden=outcome.hidden),
                    now=self.clock(), turn_key=turn_after, posts=posts, owed=owed,
                )
            except StaleVersionError:
                self.cache.forget(current.id)
                raise ConflictError("The battle changed while your order was being resolved; send it again.") from None
            self.cache.keep(saved.id, Kept(saved.version, saved.state_text, battle))
            note_committed(seq)
            started = await self._sync_clock(saved, battle)
        notice = Notice("committed", saved, battle, outcome=outcome, actor=actor, seq=seq, turn=started,
                        extra={"owed": {post.kind: post_id for post, post_id in zip(posts, owed, strict=True)}})
        extra: dict[str, Any] = {}
        if publish:
            self.publish(notice)
        else:
            extra["notice"] = notice
        png = await self.render(battle, outcome=outcome, battle_id=saved.id) if render and self.render_enabled else None
        ender = turns.idle_end(battle, after) if after is not None else None
        ended = None
        if ender is not None:
            # Nothing left but ending the turn: end it now, logged as its own order, so the next unit is due.
            ended = await self.execute(actor, saved, ender, render=False, publish=publish)
        return Result(record=saved, battle=battle, outcome=outcome, png=png, seq=seq, extra=extra, cheapest=picked,
                      after=after, ended=ended)

    def roll_aside(self, notation: str, purpose: str = "") -> Roll:
        """Roll dice outside any battle (a direct message, a channel without one): shown, never logged."""
        return Dice(self.rng_factory()).roll(notation, purpose)

    async def turn_ends(self, actor: Actor, record: BattleRecord, unit: str | None = None) -> list[o.Order]:
        """Return the orders that end an actor's turns: the unit's when named, else each unit of theirs due now.

        With none of theirs due, the GM (or anyone, when no turn is running) ends the turn the rules name; a
        player is refused, told whose turn it is.
        """
        if unit:
            return [EndTurn(unit=unit)]
        battle = self.read_only(record)
        due = turns.next_due(battle) if turns.engaged(battle) else []
        mine = [battle.unit(n).name for n in due if battle.unit(n).owner == actor.user_id]
        if mine:
            return [EndTurn(unit=n) for n in mine]
        if not due or await self.is_gm(actor, record):
            # The rules name the one unit due, ask which, or say why no turn is running.
            return [EndTurn()]
        raise IllegalOrderError(f"None of your units is due to act now ({whose_turn(battle)}); "
                                "you can end only your own units' turns.")

    async def undo(self, actor: Actor, record: BattleRecord, count: int = 1) -> Result:
        """Restore the battle to before its last `count` orders (GM only); the undo is logged too."""
        await self.require_gm(actor, record, "undo orders")
        return await self.restore(actor, record, count)

    async def restore(self, actor: Actor, record: BattleRecord, count: int, *, text: str | None = None,
                      note: dict[str, Any] | None = None,
                      guard: Callable[[BattleRecord], Awaitable[None]] | None = None) -> Result:
        """Take back the last `count` orders for an actor already allowed to; the caller checks who may.

        `guard`, when given, runs under the battle's lock on the battle as it is then, and refuses by raising
        (a takeback checks there that nobody acted meanwhile). `text` and `note` go to the log with the undo.
        """
        if not 1 <= count <= MAX_UNDO:
            raise GameError(f"Undo between 1 and {MAX_UNDO} orders at a time.")
        async with self.locks.get(record.id):
            current = await self.get_battle(actor.guild_id, record.id)
            if guard is not None:
                await guard(current)
            try:
                saved, undone = await self.db.battles.undo(
                    current.id, expected_version=current.version, count=count, actor_id=actor.user_id,
                    now=self.clock(), text=text, note=note,
                )
            except NothingToUndo as exc:
                raise GameError(_nothing_to_undo(count, exc.available)) from None
            except StaleVersionError:
                raise ConflictError("The battle changed while undoing; try again.") from None
            battle = Battle.from_dict(saved.state)
            self.cache.keep(saved.id, Kept(saved.version, saved.state_text, battle))
            seq = await self.db.events.latest_seq(saved.id)
            note_committed(seq)
            started = await self._sync_clock(saved, battle)
        texts = [e.order_text for e in undone]
        self.publish(Notice("undone", saved, battle, actor=actor, seq=seq, turn=started,
                            extra={"undone": texts, "seqs": [e.seq for e in undone]}))
        png = await self.render(battle, battle_id=saved.id) if self.render_enabled else None
        return Result(record=saved, battle=battle, png=png, seq=seq,
                      extra={"undone": texts, "seqs": [e.seq for e in undone]})


def _decode(record: BattleRecord) -> Battle:
    """Return a fresh rules' battle of a record (parsed and built off the event loop)."""
    return Battle.from_dict(record.state)


def _resolve(record: BattleRecord, battle: Battle | None, order: o.Order, dice: Dice, follow: str | None = None,
             cheapest: bool = False
             ) -> tuple[Battle, o.Order | None, Outcome, dict[str, Any], dict[str, Any], list[o.Order] | None]:
    """Apply an order to a fresh battle (decoded here when not given), a move by its cheapest mode with `cheapest`;
    return the battle, the move picked, the outcome, the battle's new document, the outcome as logged and what
    the followed unit may do next."""
    if battle is None:
        battle = _decode(record)
    picked = turns.cheapest_move(battle, order.unit, order.to) if cheapest and isinstance(order, o.Move) else None
    outcome = battle.apply(picked or order, dice, undoable=False)
    after = turns.next_orders(battle, follow) if follow else None
    return battle, picked, outcome, battle.to_dict(), outcome.to_dict(), after


def _nothing_to_undo(count: int, available: int) -> str:
    if available == 0:
        return "There is nothing to undo: no order has been given in this battle since it was created."
    plural = "order" if available == 1 else "orders"
    return (f"Only {available} {plural} can be undone in this battle (back to its creation), not {count}; "
            f"ask for {available} or fewer.")
