"""The table service's orders: apply one under the battle's lock and commit it with its event, or take orders back."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from bot.cache import UNKNOWN, Kept, MaybeTurn
from bot.clock import TurnStart, turn_key, whose_turn
from bot.quiet import quiet_between
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
from rules.takeback import dice_reason
from rules.turnorders import EndTurn
from storage import (
    BattleNotFound,
    BattleRecord,
    BattleStatus,
    BattleSummary,
    CommitStep,
    Committed,
    NewEvent,
    NothingToUndo,
    Post,
    StaleVersionError,
)

log = logging.getLogger(__name__)

MAX_UNDO = 50
SLOW_UNITS = 50  # a slow order on a battle with this many units is resolved in a worker thread


class OrdersJob(MapsJob, ClocksJob):
    """Apply, commit and take back orders."""

    async def execute(self, actor: Actor, record: BattleRecord, order: o.Order, *, render: bool = True,
                      manual_rolls: Sequence[int] = (), expect_turn: str | None = None,
                      publish: bool = True, follow: str | None = None, cheapest: bool = False) -> Result:
        """Apply one order under the battle's lock and commit its snapshot and event together.

        With expect_turn, the order is refused (StaleTurnError) unless the battle is still in that turn.
        With publish=False the listeners are not told; the Notices are left in result.extra["notices"].
        With cheapest, a move goes by the cheapest mode that reaches its square (the order's own mode when none
        does, so the rules say why); result.cheapest is the move picked.
        With follow (a unit), the unit's legal orders after the order are generated once, in the same trip, and
        returned in result.after; when they hold nothing but ending its turn, its turn ends in that trip too,
        logged as an order of its own and committed with the first (result.ended).
        """
        self.remember_name(actor)
        async with self.locks.get(record.id):
            kept = self.cache.latest(record.id)
            # A caller's record as new as the battle kept here is trusted: no read before the commit, which
            # checks the version itself; if anyone wrote meanwhile, the order goes round once more, read afresh.
            trusted = kept is not None and kept.version == record.version and record.guild_id == actor.guild_id
            attempt = functools.partial(self._commit, actor, record, order, manual_rolls=manual_rolls,
                                        expect_turn=expect_turn, follow=follow, cheapest=cheapest)
            try:
                try:
                    done, committed, starts, posts, owed = await attempt(trusted=trusted)
                except GameError:
                    # Refused on the battle kept here: refused for good unless another process moved it on.
                    if not trusted or not await self._moved_on(record):
                        raise
                    done, committed, starts, posts, owed = await attempt(trusted=False)
                except StaleVersionError:
                    self.cache.forget(record.id)
                    if not trusted:
                        raise
                    done, committed, starts, posts, owed = await attempt(trusted=False)
            except StaleVersionError:
                self.cache.forget(record.id)
                raise ConflictError("The battle changed while your order was being resolved; send it again.") from None
            except BattleNotFound:
                self.cache.forget(record.id)
                raise NotFoundError("That battle no longer exists.") from None
        # Each order's notice carries the ids of the posts that order left owed (its board edit, its turn's ping).
        ids = iter(owed)
        notices = [Notice("committed", saved, given.battle, outcome=given.outcome, actor=actor, seq=seq, turn=started,
                          extra={"owed": {post.kind: next(ids) for post in left}})
                   for given, (saved, seq), started, left in zip(done.steps, committed, starts, posts, strict=True)]
        extra: dict[str, Any] = {}
        if publish:
            for notice in notices:
                self.publish(notice)
        else:
            extra["notice"] = notices[0]
            extra["notices"] = notices
        first, (saved, seq) = done.steps[0], committed[0]
        png = await self.render(first.battle, outcome=first.outcome, battle_id=saved.id) \
            if render and self.render_enabled else None
        ended = None
        if len(done.steps) > 1:
            closing, (end_saved, end_seq) = done.steps[1], committed[1]
            ended = Result(record=end_saved, battle=closing.battle, outcome=closing.outcome, seq=end_seq)
        return Result(record=saved, battle=first.battle, outcome=first.outcome, png=png, seq=seq, extra=extra,
                      cheapest=done.picked, after=done.after, ended=ended, quiet=done.quiet)

    async def _moved_on(self, record: BattleRecord) -> bool:
        """Return whether the stored battle is no longer at the record's version (or no longer exists)."""
        return not isinstance(await self.db.battles.get_unless(record.id, record.version), BattleSummary)

    async def _commit(self, actor: Actor, record: BattleRecord, order: o.Order, *, trusted: bool,
                      manual_rolls: Sequence[int], expect_turn: str | None, follow: str | None, cheapest: bool
                      ) -> tuple[_Resolved, list[Committed], list[TurnStart | None], list[list[Post]], list[int]]:
        """Resolve and commit an order, the battle's lock held; the battle is read first unless `trusted`.

        Raises StaleVersionError when the commit finds the battle changed since the record was read.
        """
        current = record if trusted else await self._stored(record.id)
        if current is None or current.guild_id != actor.guild_id:
            raise NotFoundError("That battle no longer exists.")
        # The battle as it stands is kept in memory at its stored version (checked against the database,
        # so another process's order is never missed); the order is resolved on a copy of it, so what
        # readers were handed never changes and a refused order leaves the battle as it was.
        # No turn key is worked out on the event loop: the kept battle carries its own when an order left it,
        # a battle decoded here gets it in the decoding job, and otherwise the order's resolution works it out.
        kept = self.cache.latest(current.id)
        known: MaybeTurn
        if kept is not None and kept.version == current.version:
            reader, known = kept.battle, kept.turn
        else:
            reader, known = await asyncio.get_running_loop().run_in_executor(self._rules, _decode, current)
            self.cache.keep(current.id, Kept(current.version, current, reader, known))
        if expect_turn is not None:
            if known is UNKNOWN:
                # Kept without its key (read for a board, created, undone): the check needs it before the order.
                known = await asyncio.get_running_loop().run_in_executor(self._rules, turn_key, reader)
            if known != expect_turn:
                raise StaleTurnError("That turn is already over.")
        await self.authorise(actor, current, reader, order)
        dice = Dice(self.rng_factory(), scripted=list(manual_rolls))
        factory = self.rng_factory
        # Undo lives in the database (the log rebuilds the state before any order), so no snapshot is kept here.
        job = functools.partial(_resolve, reader, order, dice, lambda: Dice(factory()), follow, cheapest, known)
        if order.slow and len(reader.units) >= SLOW_UNITS:
            # A whole engagement in one order takes seconds at the largest: it runs beside the others'
            # orders rather than ahead of them.
            done = await asyncio.to_thread(job)
        else:
            done = await asyncio.get_running_loop().run_in_executor(self._rules, job)
        # What the orders leave the bot owing Discord is kept with them, so no crash or refusal loses it.
        steps: list[CommitStep] = []
        posts: list[list[Post]] = []  # what each order leaves owed
        status: str = current.status
        turn = done.turn_before
        for given in done.steps:
            battle = given.battle
            turn_after = given.turn
            posts.append(self.owed_after(current.id, battle, turn_after if turn_after != turn else None))
            changed = cast("BattleStatus", battle.status) if battle.status != status else None
            # The document is made from the battle only when the commit writes it or someone reads it.
            text = str(given.order)
            steps.append(CommitStep(battle.to_dict, NewEvent(actor_id=actor.user_id, kind=given.order.kind,
                                                          order_text=text, outcome=given.logged,
                                                          hidden=given.outcome.hidden),
                                    changed, turn_after, replayable=_cheap_to_replay(given.order, text)))
            status, turn = battle.status, turn_after
        owed: list[int] = []
        committed = await self.db.battles.commit_orders(
            current.id, expected_version=current.version, steps=steps, now=self.clock(),
            posts=[post for left in posts for post in left], owed=owed)
        last = committed[-1]
        self.cache.keep(last.record.id, Kept(last.record.version, last.record, done.battle,
                                             done.steps[-1].turn))
        note_committed(last.seq)
        starts: list[TurnStart | None] = []
        turn = done.turn_before
        for given, (saved, _seq) in zip(done.steps, committed, strict=True):
            # The clock follows the turn: an order that began none leaves it as it was, unread.
            began = given.turn != turn
            turn = given.turn
            starts.append(await self._sync_clock(saved, given.battle, given.turn) if began else None)
        return done, committed, starts, posts, owed

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
            self.cache.keep(saved.id, Kept(saved.version, saved, battle))
            seq = await self.db.events.latest_seq(saved.id)
            note_committed(seq)
            started = await self._sync_clock(saved, battle)
        texts = [e.order_text for e in undone]
        self.publish(Notice("undone", saved, battle, actor=actor, seq=seq, turn=started,
                            extra={"undone": texts, "seqs": [e.seq for e in undone]}))
        png = await self.render(battle, battle_id=saved.id) if self.render_enabled else None
        return Result(record=saved, battle=battle, png=png, seq=seq,
                      extra={"undone": texts, "seqs": [e.seq for e in undone]})


# An order whose text is longer carries a file (units, a map, house rules): reading the battle back would
# parse it again, so the commit writes the whole state instead of leaving the order to be replayed.
REPLAYED_TEXT_LIMIT = 1024


def _cheap_to_replay(order: o.Order, text: str) -> bool:
    """Return whether an order is left to be replayed when the battle is read, rather than its state written."""
    return not order.slow and len(text) <= REPLAYED_TEXT_LIMIT


def _decode(record: BattleRecord) -> tuple[Battle, str | None]:
    """Return a fresh rules' battle of a record and its turn key (parsed, built and worked out off the event loop)."""
    battle = Battle.from_dict(record.state)
    return battle, turn_key(battle)


@dataclass(frozen=True, slots=True)
class _Given:
    """One order as applied: the order (the move picked, for a cheapest move), its outcome and the battle after
    it, with the outcome as logged and its turn key."""

    order: o.Order
    outcome: Outcome
    battle: Battle
    logged: dict[str, Any]
    turn: str | None


@dataclass(frozen=True, slots=True)
class _Resolved:
    """What resolving an order left: each order applied (the order, and the end of turn it left, if any), and
    the turn key of the battle before them."""

    steps: list[_Given]
    picked: o.Order | None
    after: list[o.Order] | None
    quiet: bool
    turn_before: str | None

    @property
    def battle(self) -> Battle:
        """Return the battle after the last order."""
        return self.steps[-1].battle


def _resolve(live: Battle, order: o.Order, dice: Dice, idle_dice: Callable[[], Dice], follow: str | None = None,
             cheapest: bool = False, turn_before: MaybeTurn = UNKNOWN) -> _Resolved:
    """Apply an order to a copy of the live battle (a move by its cheapest mode with `cheapest`).

    With `follow`, the unit's legal orders after it are generated, and when they hold nothing but ending its
    turn, the turn is ended too, on a copy of its own so the battle after the first order stays as it was.
    Each battle's turn key is worked out here, once (the live battle's unless `turn_before` gives it).
    """
    before = turn_key(live) if turn_before is UNKNOWN else turn_before
    battle = live.copy()
    picked = turns.cheapest_move(battle, order.unit, order.to) if cheapest and isinstance(order, o.Move) else None
    outcome = battle.apply(picked or order, dice, undoable=False)
    logged = outcome.to_dict()
    turn = turn_key(battle)
    steps = [_Given(picked or order, outcome, battle, logged, turn)]
    # Whether its player may take the order back alone (its reply's Undo button), judged on the two battles at hand.
    quiet = dice_reason(logged) is None and quiet_between(live, battle, before, turn)
    after = turns.next_orders(battle, follow) if follow else None
    ender = turns.idle_end(battle, after) if after is not None else None
    if ender is not None:
        ended = battle.copy()
        try:
            closed = ended.apply(ender, idle_dice(), undoable=False)
        except GameError:
            # The rules offered the end of the turn and then refused it: the unit's turn stays open.
            log.exception("ending an idle turn was refused after it was offered")
        else:
            steps.append(_Given(ender, closed, ended, closed.to_dict(), turn_key(ended)))
    return _Resolved(steps, picked, after, quiet, before)


def _nothing_to_undo(count: int, available: int) -> str:
    if available == 0:
        return "There is nothing to undo: no order has been given in this battle since it was created."
    plural = "order" if available == 1 else "orders"
    return (f"Only {available} {plural} can be undone in this battle (back to its creation), not {count}; "
            f"ask for {available} or fewer.")
