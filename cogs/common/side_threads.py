"""Each side's private thread: where its hidden map, the rolls meant for it and its private posts go.

A GM turns side threads on per battle (/gm side-threads). The bot then makes one private thread per side
under the battle's channel, whose members are that side's players and the battle's GM, and keeps them so as
units change hands. When threads cannot be made (the bot lacks Create Private Threads, the battle is not in
a server text channel, Discord refuses), the side's posts go to its players by direct message instead, and
the GM is told why, once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace

import discord
from discord.ext import commands

from bot.outbox import Outbox
from bot.service import BattleRecord, MapImage, Notice, PostingRecord, TableService
from cogs.common.replies import owed_message, send
from rules.battle import Battle

log = logging.getLogger(__name__)

THREAD_NAME_MAX = 100
MEMBER_NOTICES = frozenset({"created", "committed", "undone"})


@dataclass(frozen=True)
class Place:
    """Where a side's private posts go: its thread, or its members' DMs and why."""

    thread_id: int | None
    why_not: str | None = None
    state: str | None = None  # what became of the thread, e.g. `archived and locked`

    @property
    def mention(self) -> str:
        """Say where, for a reply: the thread's link, or `by direct message`."""
        return f"<#{self.thread_id}>" if self.thread_id else "by direct message"


def side_members(record: BattleRecord, battle: Battle, side: str) -> list[int]:
    """Return who belongs in a side's thread: the players of its units, and the battle's GM."""
    players = {u.owner for u in battle.iter_units() if u.side.lower() == side.lower() and u.owner}
    return sorted(players | {record.created_by})


class SideThreads:
    """Make, fill and post to each side's private thread, falling back to DMs where threads cannot be."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        """Return the bot's table service."""
        return self.bot.service  # type: ignore[attr-defined,no-any-return]

    async def enabled(self, battle_id: int) -> bool:
        """Return whether the battle's GM turned side threads on."""
        return await self.service.side_threads_on(battle_id)

    async def place(self, record: BattleRecord, battle: Battle, side: str) -> Place:
        """Return the side's thread (made now if it has none yet, its members brought up to date), or why not."""
        posting = await self.service.posting(record.id)
        entry = posting.threads.get(side)
        if entry is None:
            made = await self._create(record, f"{battle.name} \u00b7 {side}", f"{side}'s private thread")
            if isinstance(made, str):
                return Place(None, made)
            entry = {"thread": made, "members": []}
            posting = replace(posting, threads={**posting.threads, side: entry})
        posting = await self._sync_side(record, battle, posting, side)
        await self.service.keep_side_threads(record.id, posting.threads)
        return Place(int(posting.threads[side]["thread"]))

    async def _create(self, record: BattleRecord, name: str, what: str) -> int | str:
        """Make a private thread under the battle's channel; return its id, or say why it could not be made."""
        parent = self.bot.get_channel(record.channel_id)
        if parent is None:
            try:
                parent = await self.bot.fetch_channel(record.channel_id)
            except discord.HTTPException as exc:
                return f"the battle's channel cannot be read ({exc.status})"
        if not isinstance(parent, discord.TextChannel):
            return "the battle's channel cannot hold private threads (it is not a server text channel)"
        try:
            thread = await parent.create_thread(name=name[:THREAD_NAME_MAX], type=discord.ChannelType.private_thread,
                                                invitable=False, reason=f"battlepost: {what}")
        except discord.Forbidden:
            return f"the bot lacks the Create Private Threads permission in <#{record.channel_id}>"
        except discord.HTTPException as exc:
            return f"Discord refused to make a thread ({exc.status}: {exc.text[:100]})"
        log.info("battle %s: made %s %s", record.id, what, thread.id)
        return thread.id

    async def _sync_side(self, record: BattleRecord, battle: Battle, posting: PostingRecord, side: str) -> PostingRecord:
        """Add the side's members missing from its thread and remove those who left; return the new posting."""
        entry = posting.threads[side]
        thread_id = int(entry["thread"])
        have = {int(uid) for uid in entry.get("members", [])}
        want = set(side_members(record, battle, side))
        kept = set(have)
        for uid in sorted(want - have):
            try:
                await self.bot.http.add_user_to_thread(thread_id, uid)
                kept.add(uid)
            except discord.HTTPException as exc:
                log.warning("battle %s: could not add user %s to %s's thread (%s)", record.id, uid, side, exc.status)
        for uid in sorted(have - want):
            try:
                await self.bot.http.remove_user_from_thread(thread_id, uid)
                kept.discard(uid)
            except discord.HTTPException as exc:
                log.warning("battle %s: could not remove user %s from %s's thread (%s)", record.id, uid, side,
                            exc.status)
        return replace(posting, threads={**posting.threads, side: {"thread": thread_id, "members": sorted(kept)}})

    async def sync(self, record: BattleRecord, battle: Battle) -> None:
        """Bring every side thread's members up to date (players joined or left a side, the GM changed)."""
        posting = await self.service.posting(record.id)
        if not posting.side_threads or not posting.threads:
            return
        new = posting
        for side in list(posting.threads):
            new = await self._sync_side(record, battle, new, side)
        if new != posting:
            await self.service.keep_side_threads(record.id, new.threads)

    async def __call__(self, notice: Notice) -> bool:
        """Keep thread members in step after every change to a battle."""
        if notice.kind in MEMBER_NOTICES:
            await self.sync(notice.record, notice.battle)
        return True

    async def post(self, record: BattleRecord, battle: Battle, side: str, *, content: str | None = None,
                   embed: discord.Embed | None = None, png: MapImage | None = None) -> Place:
        """Post to a side privately: in its thread, else by DM to each of its members (telling the GM why once)."""
        where = await self.place(record, battle, side)
        if where.thread_id is not None:
            # Owed through the outbox: a secret Discord refuses now reaches its side later, even after a restart.
            outbox: Outbox = self.bot.outbox  # type: ignore[attr-defined]
            await outbox.owe(owed_message(where.thread_id, guild_id=record.guild_id, battle_id=record.id,
                                          content=content, embed=embed, png=png), raise_refusal=True)
            return where
        await self.dm_side(record, battle, side, content=content, embed=embed, png=png)
        await self.tell_gm_once(record, where.why_not or "")
        return where

    async def to_gm(self, record: BattleRecord, battle: Battle, content: str, *, role_id: int | None = None,
                    again: bool = True) -> Place:
        """Tell the battle's GM privately: in the GM's own thread under the battle's channel (its only members the
        GM and the bot; the GM, and the GM role if one is set, pinged there), else by direct message to the GM."""
        thread_id = (await self.service.posting(record.id)).gm_thread
        if thread_id is None:
            made = await self._create(record, f"{battle.name} \u00b7 GM", "the GM's private thread")
            if isinstance(made, str):
                await self._dm(record.created_by, content, None, None)
                return Place(None, made)
            thread_id = made
            await self.service.set_gm_thread(record.id, thread_id)
        allowed = discord.AllowedMentions(everyone=False, replied_user=False,
                                          users=[discord.Object(id=record.created_by)],
                                          roles=[discord.Object(id=role_id)] if role_id else False)
        try:
            await self.bot.http.add_user_to_thread(thread_id, record.created_by)
            target = self.bot.get_partial_messageable(thread_id, guild_id=record.guild_id)
            await send(target, content=content, mentions=allowed)
        except discord.NotFound:
            # Someone deleted the thread: make a new one, once.
            await self.service.set_gm_thread(record.id, None)
            if again:
                return await self.to_gm(record, battle, content, role_id=role_id, again=False)
            await self._dm(record.created_by, content, None, None)
            return Place(None, "the GM's thread is gone")
        except discord.HTTPException as exc:
            log.warning("battle %s: could not post in the GM's thread (%s); sending a DM", record.id, exc.status)
            await self._dm(record.created_by, content, None, None)
            return Place(None, f"Discord refused a post in the GM's thread ({exc.status})")
        return Place(thread_id)

    async def dm_side(self, record: BattleRecord, battle: Battle, side: str, *, content: str | None = None,
                      embed: discord.Embed | None = None, png: MapImage | None = None) -> None:
        """Post to a side privately by direct message to each of its members (side threads off)."""
        for uid in side_members(record, battle, side):
            await self._dm(uid, content, embed.copy() if embed else None, png)

    async def _dm(self, user_id: int, content: str | None, embed: discord.Embed | None, png: MapImage | None) -> None:
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await send(user, content=content, embed=embed, png=png)
        except discord.HTTPException as exc:
            log.info("could not DM user %s a side's private post (%s)", user_id, exc.status)

    async def tell_gm_once(self, record: BattleRecord, why: str) -> None:
        """Tell the battle's GM, once per battle, that side threads fell back to DMs, and why."""
        if not await self.service.first_fallback(record.id):
            return
        text = (f"\u26a0\ufe0f Side threads could not be made for **{battle_name(record)}**: {why}. Each side's "
                "hidden maps and rolls go to its players by direct message instead. Give the bot Create Private "
                "Threads here, or `/gm side-threads on:False` to stop trying.")
        await self._dm(record.created_by, text, None, None)

    async def turn(self, record: BattleRecord, battle: Battle, on: bool) -> list[tuple[str, Place]]:
        """Turn side threads on or off; return each side's thread and what became of it.

        Off archives and locks every side's thread (nobody posts there while the battle does not use it);
        on unarchives and unlocks them, brings their members up to date and makes those still missing.
        """
        posting = await self.service.posting(record.id)
        if not on:
            await self.service.set_side_threads(record.id, False)
            return [(side, await self._close(record, side, int(entry["thread"])))
                    for side, entry in posting.threads.items()]
        kept = {side: entry for side, entry in posting.threads.items()
                if await self._reopen(record, side, int(entry["thread"]))}
        await self.service.set_side_threads(record.id, True, kept)
        return [(side.name, await self.place(record, battle, side.name)) for side in battle.sides]

    async def _close(self, record: BattleRecord, side: str, thread_id: int) -> Place:
        """Archive and lock a side's thread; say how far that went."""
        reason = f"battlepost: side threads turned off for {record.name}"[:512]
        try:
            await self.bot.http.edit_channel(thread_id, archived=True, locked=True, reason=reason)
            return Place(thread_id, state="archived and locked")
        except discord.NotFound:
            return Place(thread_id, state="already gone")
        except discord.Forbidden:
            pass  # locking needs Manage Threads; archiving the bot's own thread does not
        except discord.HTTPException as exc:
            log.warning("battle %s: could not archive %s's thread (%s)", record.id, side, exc.status)
            return Place(thread_id, state=f"left open: Discord refused to archive it ({exc.status})")
        try:
            await self.bot.http.edit_channel(thread_id, archived=True, reason=reason)
        except discord.HTTPException as exc:
            return Place(thread_id, state=f"left open: Discord refused to archive it ({exc.status})")
        return Place(thread_id, state="archived, not locked (the bot lacks Manage Threads)")

    async def _reopen(self, record: BattleRecord, side: str, thread_id: int) -> bool:
        """Unarchive and unlock a side's thread; return False when it is gone or stays shut (a new one is made)."""
        try:
            await self.bot.http.edit_channel(thread_id, archived=False, locked=False,
                                             reason=f"battlepost: side threads turned on for {record.name}"[:512])
        except discord.HTTPException as exc:
            log.info("battle %s: %s's thread %s cannot be reopened (%s); making a new one", record.id, side,
                     thread_id, exc.status)
            return False
        return True


def battle_name(record: BattleRecord) -> str:
    """Return a battle's name for a message, without markdown tricks."""
    return discord.utils.escape_markdown(record.name)


def places_text(places: Sequence[tuple[str, Place]]) -> str:
    """List where each side's private posts go."""
    lines = []
    for side, where in places:
        note = f" ({where.why_not or where.state})" if where.why_not or where.state else ""
        lines.append(f"{discord.utils.escape_markdown(side)}: {where.mention}{note}")
    return "\n".join(lines) or "No sides yet: each side's thread is made when something is first posted to it."
