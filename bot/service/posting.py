"""The table service's posting: where a battle's private posts go (side threads, the GM's thread) and its boards."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.locks import BattleLock
from bot.service.core import ServiceCore
from rules.errors import GameError
from storage import MessageRef, PostingRecord

MAX_STALL_AFTER = 20  # the most reminders a GM may let pass before hearing who is stalling


class PostingJob(ServiceCore):
    """Keep where each battle posts: its sides' private threads, the GM's thread, the messages it edits in place."""

    async def posting(self, battle_id: int) -> PostingRecord:
        """Return where a battle's private posts go and when its GM hears who is stalling."""
        return await self.db.players.posting(battle_id)

    async def side_threads_on(self, battle_id: int) -> bool:
        """Return whether the battle's GM turned side threads on."""
        return (await self.db.players.posting(battle_id)).side_threads

    async def keep_side_threads(self, battle_id: int, threads: dict[str, Any]) -> None:
        """Store each side's thread and its members (side -> {"thread": id, "members": [user ids]})."""
        posting = await self.db.players.posting(battle_id)
        if posting.threads != threads:
            await self.db.players.save_posting(replace(posting, threads=threads))

    async def set_side_threads(self, battle_id: int, on: bool, threads: dict[str, Any] | None = None) -> None:
        """Turn side threads on or off (the GM is told again why they fell back to DMs), keeping these threads."""
        posting = await self.db.players.posting(battle_id)
        kept = posting.threads if threads is None else threads
        await self.db.players.save_posting(replace(posting, side_threads=on, fallback_told=False, threads=kept))

    async def set_gm_thread(self, battle_id: int, thread_id: int | None) -> None:
        """Store the GM's private thread of a battle (None: it is gone)."""
        posting = await self.db.players.posting(battle_id)
        await self.db.players.save_posting(replace(posting, gm_thread=thread_id))

    async def first_fallback(self, battle_id: int) -> bool:
        """Note that side threads fell back to DMs; return whether this is the first time (the GM is told once)."""
        posting = await self.db.players.posting(battle_id)
        if posting.fallback_told:
            return False
        await self.db.players.save_posting(replace(posting, fallback_told=True))
        return True

    async def set_stall_after(self, battle_id: int, reminders: int) -> None:
        """Store after how many unanswered reminders the GM hears who is stalling (0: never)."""
        if not 0 <= reminders <= MAX_STALL_AFTER:
            raise GameError(f"Choose between 1 and {MAX_STALL_AFTER} reminders, or 0 to never hear who is stalling.")
        posting = await self.db.players.posting(battle_id)
        await self.db.players.save_posting(replace(posting, stall_after=reminders))

    def board_lock(self, battle_id: int) -> BattleLock:
        """Return the lock of a battle's status board, held by one editor at a time across processes."""
        return self.board_locks.get(battle_id)

    async def message_ref(self, battle_id: int, kind: str) -> MessageRef | None:
        """Return the message of a kind the bot edits in place for a battle (its status board), if posted."""
        return await self.db.messages.get(battle_id, kind)

    async def keep_message_ref(self, battle_id: int, kind: str, channel_id: int, message_id: int) -> None:
        """Remember the message of a kind the bot edits in place for a battle."""
        await self.db.messages.set(battle_id, kind, channel_id, message_id)
