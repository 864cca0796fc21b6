"""When a battle is over by its rules, ask its GM (once) to end it.

The question is a post in the battle's channel with one End the battle button: a player's press is refused,
the GM's ends the battle and posts its summary, exactly as `/battle end` does once confirmed.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.service import BattleRecord, Notice
from cogs.common.confirm import question
from cogs.common.embeds import safe
from cogs.common.replies import send
from cogs.turn.notifier import pinging
from cogs.turn.prompts import mentions
from rules import orders as o
from rules.ending import Verdict

log = logging.getLogger(__name__)

ASKED_MAX = 1000  # questions remembered, so a battle is asked once per verdict (a restart may ask once more)


def over_question(record: BattleRecord, verdict: Verdict) -> tuple[discord.Embed, discord.ui.View]:
    """Build the post that asks the GM to end a battle its rules call over."""
    embed, asked = question(record.id, "end", f"Battle over? {record.name}",
                            f"{safe(verdict.reason)}\nThe GM ends **{safe(record.name)}** with the button below (or "
                            "`/battle end`): no more orders, and its summary is posted here. The log, the export and "
                            "/battle info stay readable.", [o.End()], "End the battle (GM)")
    # A public question keeps only the GM's button: a Cancel anyone could press would take it away.
    view = discord.ui.View(timeout=None)
    view.add_item(asked.children[0])
    return embed, view


class BattleOver:
    """Hear every committed order; when a running battle is over by its rules, ask its GM to end it."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.asked: dict[tuple[int, str], None] = {}

    async def __call__(self, notice: Notice) -> bool:
        """Ask once per battle and verdict; every other notice passes by."""
        battle, record = notice.battle, notice.record
        if notice.kind not in ("committed", "undone") or battle.status != "active":
            return True
        verdict = battle.system.verdict(battle)
        if verdict is None:
            # The battle goes on (an undo, a unit added): should it end again, the GM is asked again.
            for key in [k for k in self.asked if k[0] == record.id]:
                del self.asked[key]
            return True
        if notice.kind == "undone":
            return True
        key = (record.id, verdict.reason)
        if key in self.asked:
            return True
        self.asked[key] = None
        while len(self.asked) > ASKED_MAX:
            del self.asked[next(iter(self.asked))]
        channel = self.bot.get_partial_messageable(record.thread_id or record.channel_id, guild_id=record.guild_id)
        try:
            embed, view = over_question(record, verdict)
            await send(channel, content=f"{mentions([record.created_by])} the battle is over by its rules.",
                       embed=embed, view=view, mentions=pinging([record.created_by]))
        except discord.HTTPException as exc:
            log.warning("could not post the end of battle %s (%s)", record.id, exc.status)
        return True
