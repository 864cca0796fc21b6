"""The table service's clocks: each battle's turn deadline, its policy and reminders, set by the GM."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.cache import UNKNOWN, MaybeTurn
from bot.clock import TurnStart
from bot.service.core import ServiceCore
from bot.table import Actor, Notice
from rules.battle import Battle
from rules.errors import IllegalOrderError
from storage import BattleRecord, ClockRecord, DeadlinePolicy

log = logging.getLogger(__name__)


class ClocksJob(ServiceCore):
    """Keep each battle's turn clock: read it, change it (GM), start a new turn's deadline."""

    async def clock_of(self, record: BattleRecord) -> ClockRecord:
        """Return a battle's turn clock: deadline, policy, reminders and the current turn's deadline."""
        return await self.turn_clocks.get(record.id)

    async def set_deadline(self, actor: Actor, record: BattleRecord, seconds: float, *, at_minute: int | None = None,
                           zone: str | None = None, skip_weekends: bool | None = None) -> ClockRecord:
        """Set how long each turn lasts, and at which clock hour in which zone it ends (GM)."""
        return await self._change_clock(actor, record, "set the deadline", lambda r: self.turn_clocks.set_deadline(
            r, seconds, at_minute=at_minute, zone=zone, skip_weekends=skip_weekends))

    async def set_time_bank(self, actor: Actor, record: BattleRecord,
                            bank: tuple[float, float, float] | None) -> ClockRecord:
        """Give each side a time bank instead of a fixed deadline, or take it away (GM)."""
        return await self._change_clock(actor, record, "set a time bank", lambda r: self.turn_clocks.set_bank(r, bank))

    async def set_quiet_hours(self, actor: Actor, record: BattleRecord, quiet: tuple[int, int] | None,
                              zone: str | None) -> ClockRecord:
        """Set the hours in which no reminder is sent (GM)."""
        return await self._change_clock(actor, record, "set quiet hours",
                                        lambda r: self.turn_clocks.set_quiet(r, quiet, zone))

    async def set_vacation_allowance(self, actor: Actor, record: BattleRecord, seconds: float) -> ClockRecord:
        """Set how far vacations may move each player's deadlines in this battle (GM)."""
        return await self._change_clock(actor, record, "set the vacation allowance",
                                        lambda r: self.turn_clocks.set_vacation_allowance(r, seconds))

    async def set_policy(self, actor: Actor, record: BattleRecord, policy: DeadlinePolicy) -> ClockRecord:
        """Choose what a passed deadline does (GM)."""
        return await self._change_clock(actor, record, "choose the deadline policy",
                                        lambda r: self.turn_clocks.set_policy(r, policy))

    async def set_reminders(self, actor: Actor, record: BattleRecord, specs: tuple[str, ...]) -> ClockRecord:
        """Choose when players are reminded of a deadline (GM)."""
        return await self._change_clock(actor, record, "set reminders",
                                        lambda r: self.turn_clocks.set_reminders(r, specs))

    async def pause_clock(self, actor: Actor, record: BattleRecord) -> ClockRecord:
        """Stop the battle's clock (GM)."""
        return await self._change_clock(actor, record, "pause the clock", self.turn_clocks.pause)

    async def resume_clock(self, actor: Actor, record: BattleRecord) -> ClockRecord:
        """Start the battle's clock again (GM)."""
        return await self._change_clock(actor, record, "resume the clock", self.turn_clocks.resume)

    async def _change_clock(self, actor: Actor, record: BattleRecord, what: str,
                            change: Callable[[BattleRecord], Awaitable[ClockRecord]]) -> ClockRecord:
        await self.require_gm(actor, record, what)
        async with self.locks.get(record.id):
            current = await self.get_battle(actor.guild_id, record.id)
            if current.status == "ended":
                raise IllegalOrderError("This battle has ended; its clock has stopped for good.")
            clock = await change(current)
        self.publish(Notice("clock", current, self._kept(current).battle, actor=actor, clock=clock))
        return clock

    async def _sync_clock(self, record: BattleRecord, battle: Battle, key: MaybeTurn = UNKNOWN) -> TurnStart | None:
        """Start the new turn's deadline, if the order began one (the caller holds the battle's lock).

        `key` is the battle's turn key when the caller worked it out already.
        """
        try:
            return await self.turn_clocks.sync(record, battle, key=key)
        except Exception:
            # The order is committed already; the scheduler's recovery rebuilds the clock at startup.
            log.exception("could not update the turn clock of battle %s", record.id)
            return None
