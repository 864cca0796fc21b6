"""The table service's archive: a battle exported as one document, and recreated from one."""

from __future__ import annotations

from typing import Any

from bot.archive import export_document
from bot.archive import import_battle as import_archive
from bot.members import MemberCheck
from bot.service.orders import OrdersJob
from bot.table import Actor, Result
from storage import BattleRecord


class ArchiveJob(OrdersJob):
    """Export and import whole battles."""

    async def export_battle(self, actor: Actor, record: BattleRecord) -> dict[str, Any]:
        """Return the whole battle as an export document: setup, every order with its dice, the state."""
        await self.require_gm(actor, record, "export the battle")
        events = await self.all_events(record)
        initial = await self.db.events.initial_state(record.id) or record.state
        return export_document(record, await self.clock_of(record), events, initial, self.clock())

    async def import_battle(self, actor: Actor, *, channel_id: int, thread_id: int | None, raw: bytes,
                            is_member: MemberCheck | None = None) -> Result:
        """Recreate an exported battle in a channel after replaying its file; owners not members here lose their units."""
        return await import_archive(self, actor, channel_id=channel_id, thread_id=thread_id, raw=raw,
                                   is_member=is_member)
