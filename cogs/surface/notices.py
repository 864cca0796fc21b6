"""Tell a Surface Combat table what the clock did: plans are open, a deadline is near, a deadline passed.

The listener hears every notice of the table service and answers only for Surface Combat battles (the turn
notifier answers for battles of units' turns). It pings the players of the sides that still owe a plan,
and when a deadline fights the battle, it posts the battle report the way `/surface resolve` does.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.clock import human_duration, policy_name, quiet_now
from bot.clockhours import when
from bot.service import BattleRecord, ClockRecord, Notice
from cogs.common.embeds import INFO, safe
from cogs.common.replies import send
from cogs.surface.fight import after_fight_view
from cogs.surface.plan_buttons import plans_view
from cogs.surface.report import report_embed
from cogs.turn.notifier import NO_PINGS, NoticeListener, pinging
from cogs.turn.prompts import WARN, mentions
from cogs.turn.text import join
from rules.battle import Battle
from rules.systems.surface.details import SurfaceReport
from rules.systems.surface.state import state

log = logging.getLogger(__name__)

def owners_of(battle: Battle, record: BattleRecord, sides: Sequence[str]) -> list[int]:
    """Return the players commanding units of these sides (the GM for a side nobody commands)."""
    wanted = {s.lower() for s in sides}
    found: list[int] = []
    for side in wanted:
        players = [u.owner for u in battle.iter_units() if u.side.lower() == side and u.owner]
        found += players or [record.created_by]
    return list(dict.fromkeys(found))


def deadline_text(clock: ClockRecord, battle: Battle) -> str:
    """Say when the planning phase ends and what then happens."""
    if clock.paused:
        left = f" with {human_duration(clock.remaining)} left" if clock.remaining is not None else ""
        return f"The clock is paused{left}."
    if clock.due_at is None:
        return "No deadline."
    return f"Deadline {when(clock.due_at)}; then {policy_name(battle, clock.policy)}."


def plans_open_embed(battle: Battle, sides: Sequence[str], clock: ClockRecord) -> discord.Embed:
    """Build the message that opens a game turn's planning phase."""
    embed = discord.Embed(title=f"\U0001f4dc {safe(battle.name)}: game turn {state(battle).turn}", colour=INFO)
    embed.description = (
        f"{join(list(sides))}: commit your side's secret pre-battle plan with its Plan button or `/surface plan` (only you see it). "
        f"The battle is fought the moment both plans are in.\n{deadline_text(clock, battle)}"
    )
    return embed


class SurfaceNotices(NoticeListener):
    """Post the planning phase's pings, reminders and deadlines of Surface Combat battles."""

    def wants(self, notice: Notice) -> bool:
        """Present Surface Combat battles only."""
        return notice.battle.system.id == "surface"

    async def _tell(self, record: BattleRecord, user_ids: list[int], content: str,
                    embed: discord.Embed | None = None, view: discord.ui.View | None = None) -> None:
        """Reach each player as they chose (a DM, else a mention in the channel), the rest in one message."""
        here: list[int] = []
        for uid in user_ids:
            if await self.service.notify_mode(uid) == "dm":
                try:
                    user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
                    await send(user, content=f"{content} (<#{record.thread_id or record.channel_id}>)", embed=embed,
                               view=view)
                    continue
                except discord.HTTPException as exc:
                    log.info("could not DM user %s (%s); mentioning them in the channel instead", uid, exc.status)
            here.append(uid)
        who = mentions(here)
        await send(self.channel(record), content=f"{who + ': ' if who else ''}{content}", embed=embed,
                   view=view, mentions=pinging(here))

    async def post_turn(self, notice: Notice) -> None:
        """Ping the players of both sides: the planning phase of a game turn has begun."""
        turn, record, battle = notice.turn, notice.record, notice.battle
        assert turn is not None
        clock = await self.service.clock_of(record)
        if clock.turn_key != turn.key:
            return  # already over (the battle was fought at once)
        content = f"\U0001f514 plans are open in **{safe(battle.name)}**."
        # In quiet hours the post pings nobody; the players are pinged when the quiet hours end.
        players = [] if quiet_now(clock, self.service.clock()) else owners_of(battle, record, turn.units)
        await self._tell(record, players, content,
                         plans_open_embed(battle, turn.units, clock), plans_view(record.id, battle, list(turn.units)))

    async def post_reminder(self, notice: Notice) -> None:
        """Remind the players of the sides still without a plan that the deadline is near."""
        record, battle, clock = notice.record, notice.battle, notice.clock
        assert clock is not None
        sides = list(notice.extra.get("units", []))
        if not sides:
            return
        content = (f"\u23f0 {join(sides)} still owe{'s' if len(sides) == 1 else ''} a pre-battle plan in "
                   f"**{safe(battle.name)}**. {deadline_text(clock, battle)}")
        await self._tell(record, owners_of(battle, record, sides), content, view=plans_view(record.id, battle, sides))

    async def post_deadline(self, notice: Notice) -> None:
        """Post the battle report if the deadline fought the battle; otherwise hand over to the GM."""
        record, battle, clock = notice.record, notice.battle, notice.clock
        assert clock is not None
        sides = list(notice.extra.get("units", []))
        late = join(sides) or "a side"
        fought = [o for o in notice.extra.get("outcomes", []) if o.kind == "surface-resolve"]
        report = fought[-1].details_as(SurfaceReport) if fought else None
        if notice.extra.get("waiting") or not report:
            failures = [f"{safe(msg)}" for _, msg in notice.extra.get("failures", [])]
            embed = discord.Embed(title=f"\u231b Deadline passed: no plan from {late}", colour=WARN)
            embed.description = "\n".join([
                "The GM decides: **Fight now** (or `/surface resolve force:true`) fights at once (a side without a plan takes the "
                "default plan), or the battle is fought the moment the last plan comes in.", *failures])[:4096]
            await send(self.channel(record), content=f"{mentions([record.created_by])} the deadline has passed; "
                       "over to you.", embed=embed, view=plans_view(record.id, battle, sides, fight=True),
                       mentions=pinging([record.created_by]))
            return
        embed = report_embed(battle, report, 1)
        png = await self.service.surface_chart(report, battle)
        await send(self.channel(record), content=f"\u231b The deadline passed without a plan from {late}: the battle "
                   f"is fought ({policy_name(battle, clock.policy)}).", embed=embed, png=png,
                   view=after_fight_view(record.id, battle, report), mentions=NO_PINGS)
