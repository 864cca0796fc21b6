"""The scheduler: wake up for deadlines and reminders kept in the database, and act on each exactly once.

How no timer is lost or fired twice:

* Timers are rows in the database, written in the same transaction as the clock change that needs them,
  so a restart or a day of downtime finds them all; `run_due` then handles every timer due by now,
  oldest first, across battles.
* A deadline is claimed (`claim_due`, an UPDATE that succeeds once; on PostgreSQL with FOR UPDATE SKIP
  LOCKED, so the schedulers of several bot processes share the due timers without waiting on each
  other) before it is acted on, so two passes, two processes, or a pass after a restart never act on it
  twice. It is then handled under the battle's lock, which every process respects, so the checks below
  and the orders they lead to see the battle as it is.
* A reminder is sent at least once: it is leased when claimed (its due time moved REMINDER_LEASE ahead instead
  of being marked fired), sent, and marked fired only once Discord took it. A refused one is postponed by
  REMINDER_RETRY; a process stopping mid-way leaves it due again when the lease runs out.
* A reminder that comes due late (after downtime) is still sent while its deadline is ahead, saying the
  time really left; once the deadline itself has passed it is skipped, since the deadline notice says more.
* What a timer does is checked against the battle's clock row: a timer for a turn that has since ended,
  a paused clock or a deadline already dealt with does nothing. A deadline is applied through the table
  service with `expect_turn`, so a player finishing their turn at the same moment wins cleanly.
* If the process stops between claiming a deadline and applying it, the clock still says the turn is
  running with nothing to wake it; `recover` (run once at startup) arms the deadline again. A turn that
  was committed but whose clock was never started (a stop right after the commit) is started then too.
  With several processes the one that stopped may never start again, so every pass also looks for
  deadlines overdue by OVERDUE_GRACE with no timer left (`rearm_overdue`) and arms those again. A re-armed
  deadline that turns out to have been applied after all finds its turn over and does nothing. A reminder
  lost that way stays lost: better one reminder missing than one sent twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.clock import BATTLE_REMINDERS, due_now, turn_key
from bot.table import Notice, Table
from rules import turns
from rules.battle import Battle
from rules.errors import ConflictError, GameError, SystemMissingError
from rules.orders import Order
from rules.turnorders import Hold, StandingTurn
from storage import LEASED_KIND, BattleRecord, ClockRecord, Database, TimerRecord

log = logging.getLogger(__name__)

# A pass never schedules timers due at once, so this only stops a runaway loop.
MAX_CLAIMS = 5000
DEFAULT_POLL = 5.0
# Far longer than any process takes between claiming a deadline and applying it.
OVERDUE_GRACE = 60.0
# A reminder being sent is leased for this long: should the process stop mid-way, it is sent after restart.
REMINDER_LEASE = 300.0
REMINDER_RETRY = 60.0  # a reminder Discord refused is tried again this much later

Sleep = Callable[[float], Awaitable[Any]]


@dataclass
class Fired:
    """What the scheduler did with one timer."""

    timer: TimerRecord
    action: str  # reminded, retry, waiting, held, standing, stale
    detail: dict[str, Any] = field(default_factory=dict)


class Scheduler:
    """Run due timers through the table service; tests call tick() with a fake clock, production polls."""

    def __init__(self, service: Table) -> None:
        self.service = service
        self._lock = asyncio.Lock()
        self.recovered = False
        # More work run at every pass after the timers (the players' daily digests), added by the front end.
        self.passes: list[Callable[[], Awaitable[Any]]] = []

    @property
    def db(self) -> Database:
        """Return the database of the service."""
        return self.service.db

    async def tick(self) -> list[Fired]:
        """Recover once after startup (later, re-arm overdue deadlines), then handle every timer due by now."""
        if not self.recovered:
            await self.recover()
        else:
            await self.rearm_overdue()
        fired = await self.run_due()
        for extra in list(self.passes):
            try:
                await extra()
            except Exception:
                # One pass failing must not stop the deadlines; it is tried again at the next tick.
                log.exception("a scheduler pass failed; it runs again at the next tick")
        return fired

    async def run_forever(self, poll: float = DEFAULT_POLL, *, ready: Callable[[], Awaitable[Any]] | None = None,
                          sleep: Sleep = asyncio.sleep) -> None:
        """Tick every `poll` seconds until cancelled; a failed tick is logged and tried again."""
        if ready is not None:
            await ready()
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("the scheduler failed a pass; it tries again in %.0f s", poll)
            await sleep(poll)

    async def recover(self) -> int:
        """Bring every active battle's clock back in step after a restart; return how many turns began unseen.

        Only the battles the database shows may be out of step are read (their turn unknown or not their
        clock's, or a running turn without its deadline timer): a restart costs one query, not a decode of
        every active battle.
        """
        begun = 0
        for battle_id in await self.db.clocks.unsettled():
            begun += await self._recover_one(battle_id)
        self.recovered = True
        log.info("scheduler recovered %d battle clock(s)", begun)
        return begun

    async def rearm_overdue(self) -> int:
        """Arm again the deadlines a process claimed and then never applied (it stopped); return how many."""
        overdue = await self.db.clocks.overdue(self.service.clock() - OVERDUE_GRACE)
        for battle_id in overdue:
            log.warning("battle %s: its deadline is overdue with no timer left; arming it again", battle_id)
            await self._recover_one(battle_id)
        return len(overdue)

    async def _recover_one(self, battle_id: int) -> int:
        async with self.service.locks.get(battle_id):
            found = await self._current(battle_id)
            if found is None or found[0].status != "active":
                return 0
            record, battle = found
            started = await self.service.turn_clocks.recover(record, battle)
        if started is None:
            return 0
        self.service.publish(Notice("recovered", record, battle, turn=started))
        return 1

    async def run_due(self) -> list[Fired]:
        """Handle every timer due now, earliest first, each once; return what was done."""
        async with self._lock:
            fired: list[Fired] = []
            for _ in range(MAX_CLAIMS):
                now = self.service.clock()
                timer = await self.db.timers.claim_due(now, lease_until=now + REMINDER_LEASE)
                if timer is None:
                    break
                async with self.service.locks.get(timer.battle_id):
                    done = await self._fire(timer, now)
                if timer.kind == LEASED_KIND:
                    await self._settle_lease(done, now)
                log.info("timer %s (%s) of battle %s: %s", timer.id, timer.kind, timer.battle_id, done.action)
                fired.append(done)
        await self.service.drain()
        return fired

    async def _settle_lease(self, done: Fired, now: float) -> None:
        """Mark a leased reminder fired once it was sent; one Discord refused is tried again later."""
        timer = done.timer
        if done.action == "retry":
            await self.db.timers.postpone(timer.id, now + REMINDER_RETRY)
            log.info("reminder %s of battle %s was not sent; trying again in %.0f s", timer.id, timer.battle_id,
                     REMINDER_RETRY)
        else:
            await self.db.timers.mark_fired(timer.id, now)

    async def _current(self, battle_id: int) -> tuple[BattleRecord, Battle] | None:
        """Return a battle as stored now; one whose rule system is not installed is left as it is (None)."""
        try:
            return await self.service.current(battle_id)
        except SystemMissingError as exc:
            log.warning("battle %s left alone: %s", battle_id, exc.message)
            return None

    async def _fire(self, timer: TimerRecord, now: float) -> Fired:
        found = await self._current(timer.battle_id)
        if found is None or found[0].status != "active":
            return Fired(timer, "stale", {"why": "battle not active"})
        record, battle = found
        clock = await self.service.turn_clocks.get(record.id)
        if clock.turn_key != timer.payload.get("turn") or clock.paused or clock.expired_at is not None:
            return Fired(timer, "stale", {"why": "turn over, paused or already expired"})
        if turn_key(battle) != clock.turn_key:
            return Fired(timer, "stale", {"why": "clock behind the battle"})
        due_units = turns.names_of(battle, due_now(battle))
        if timer.kind == "reminder":
            if clock.due_at is None or clock.due_at <= now:
                # Sent late after downtime, a reminder of a deadline already gone would only confuse.
                return Fired(timer, "stale", {"why": "deadline already passed"})
            # Whom the reminder is for: the battle's own times, or one player series of every N hours.
            meant = {"units": due_units, "for": timer.payload.get("for", BATTLE_REMINDERS),
                     "first": bool(timer.payload.get("first", True))}
            sent = await self.service.deliver(Notice("reminder", record, battle, clock=clock, extra=meant))
            return Fired(timer, "reminded" if sent else "retry", {"units": due_units})
        if timer.kind == "deadline":
            if clock.due_at is None or clock.due_at > now:
                return Fired(timer, "stale", {"why": "deadline moved"})
            return await self._expire(timer, record, battle, clock, due_units)
        log.warning("timer %s of battle %s has unknown kind %r", timer.id, record.id, timer.kind)
        return Fired(timer, "stale", {"why": "unknown kind"})

    async def _expire(self, timer: TimerRecord, record: BattleRecord, battle: Battle, clock: ClockRecord,
                      due_units: list[str]) -> Fired:
        """Apply the battle's policy to a passed deadline."""
        if clock.policy == "wait":
            clock = await self._wait_for_gm(record, clock)
            self._publish("deadline", record, battle, clock, units=due_units, policy="wait", waiting=True)
            return Fired(timer, "waiting", {"units": due_units})
        actor = self.service.system_actor(record.guild_id)
        outcomes: list[Any] = []
        failures: list[tuple[str, str]] = []
        notices: list[Notice] = []
        latest, latest_battle = record, battle
        for name, order in self._deadline_orders(battle, clock, due_units):
            try:
                result = await self.service.execute(actor, record, order, render=False, expect_turn=clock.turn_key,
                                                    publish=False)
            except ConflictError:
                break  # the turn moved on by itself (a player acted at the last moment)
            except GameError as exc:
                log.warning("battle %s: deadline could not apply %s: %s", record.id, order, exc.message)
                failures.append((name, exc.message))
                continue
            outcomes.append(result.outcome)
            notices.append(result.extra["notice"])
            latest, latest_battle = result.record, result.battle
        moved = turn_key(latest_battle) != clock.turn_key
        if not moved and not outcomes and not failures:
            return Fired(timer, "stale", {"why": "turn ended meanwhile"})
        if not moved:
            # Some unit could not be made to hold: the turn stays, and the GM decides.
            clock = await self._wait_for_gm(latest, clock)
        self._publish("deadline", latest, latest_battle, clock, units=due_units, policy=clock.policy,
                      outcomes=outcomes, failures=failures, waiting=not moved)
        for notice in notices:
            self.service.publish(notice)
        action = "held" if clock.policy == "hold" else "standing"
        return Fired(timer, action, {"units": due_units, "failures": failures})

    @staticmethod
    def _deadline_orders(battle: Battle, clock: ClockRecord, due: list[str]) -> list[tuple[str, Order]]:
        """Return what a passed deadline orders, each with whom it is for: the system's own, or each unit's."""
        phases = battle.system.phases
        if phases is not None:
            return [(", ".join(due) or order.kind, order) for order in phases.on_deadline(battle, clock.policy)]
        return [(name, Hold(unit=name) if clock.policy == "hold" else StandingTurn(unit=name)) for name in due]

    async def _wait_for_gm(self, record: BattleRecord, clock: ClockRecord) -> ClockRecord:
        async with self.service.locks.get(record.id):
            current = await self.service.turn_clocks.get(record.id)
            if current.turn_key != clock.turn_key:
                return current
            return await self.service.turn_clocks.expire(current)

    def _publish(self, kind: str, record: BattleRecord, battle: Battle, clock: ClockRecord, **extra: Any) -> None:
        self.service.publish(Notice(kind, record, battle, clock=clock, extra=extra))
