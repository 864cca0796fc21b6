"""The table service's setup: making a battle in a channel, and the server's and battle's standing choices."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.cache import Kept
from bot.service.maps import MapsJob
from bot.table import Actor, Notice, Result
from rules.battle import Battle, board_size
from rules.errors import GameError
from storage import BattleRecord

log = logging.getLogger(__name__)


class SetupJob(MapsJob):
    """Make battles, and keep who may referee them and how their seats are taken."""

    async def gm_role(self, guild_id: int) -> int | None:
        """Return the id of the server's GM role, if one is chosen."""
        return (await self.db.guilds.get(guild_id)).gm_role_id

    async def set_gm_role(self, guild_id: int, role_id: int | None) -> None:
        """Choose the server's GM role (the caller checked that the actor has Manage Server)."""
        await self.db.guilds.set_gm_role(guild_id, role_id)

    async def may_start_battles(self, actor: Actor) -> bool:
        """Return whether the actor may create or import battles: anyone, unless the server chose a GM role."""
        role = await self.gm_role(actor.guild_id)
        return role is None or actor.manage_guild or role in actor.role_ids

    async def set_seat_approval(self, actor: Actor, record: BattleRecord, on: bool) -> None:
        """Choose whether a substitute needs the GM's approval to take a seat (GM)."""
        await self.require_gm(actor, record, "set how seats are taken")
        await self.db.seats.set_approval(record.id, on)

    async def set_disorder_after(self, actor: Actor, record: BattleRecord, missed: int) -> None:
        """Choose after how many missed deadlines in a row a player falls into civil disorder (GM; 0: never)."""
        await self.require_gm(actor, record, "set when civil disorder begins")
        await self.db.seats.set_disorder_after(record.id, missed)

    async def create_battle(self, actor: Actor, *, channel_id: int, thread_id: int | None, name: str,
                            ruleset: str, width: int | None = None, height: int | None = None,
                            rules: Sequence[tuple[str, str]] = ()) -> Result:
        """Create a battle in a channel (or thread); the creator is its GM. A map-less system takes no size."""
        here = thread_id or channel_id
        existing = await self.db.battles.in_channel(actor.guild_id, here)
        if existing is not None:
            raise GameError(
                f"This channel already runs **{existing.name}**. End it with /battle end, or start the new one in another channel or a thread."
            )
        battle = Battle.new(ruleset, *board_size(ruleset, width, height), name, rules)  # the scale sizes the map
        record = await self.db.battles.create(
            guild_id=actor.guild_id, channel_id=channel_id, thread_id=thread_id, name=battle.name,
            ruleset=battle.ruleset_id, created_by=actor.user_id, state=battle.to_dict(), now=self.clock(),
        )
        log.info("battle %s created in guild %s by %s", record.id, actor.guild_id, actor.user_id)
        self.cache.keep(record.id, Kept(record.version, record, battle))
        self.publish(Notice("created", record, battle, actor=actor))
        png = await self.render(battle, battle_id=record.id) if self.render_enabled else None
        return Result(record=record, battle=battle, png=png)
