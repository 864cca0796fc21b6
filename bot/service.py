"""The table service: the one door every front end uses to read and change a battle."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from bot.locks import BattleLocks
from bot.mapview import action_cells, build_view, overlays_for, reach_overlays
from render import crop_around, render_map
from rules import orders as o
from rules.actions.move import reach_by_mode
from rules.battle import Battle
from rules.dice import Dice
from rules.errors import ConflictError, GameError, NotAllowedError, NotFoundError
from rules.outcome import Outcome
from storage import BattleRecord, BattleStatus, Database, NewEvent, StaleVersionError

log = logging.getLogger(__name__)

__all__ = ["Actor", "BattleRecord", "Result", "TableService"]

# Orders only a GM gives. Orders naming a side are for the GM or that side's players; orders naming a
# unit are for the GM or the unit's owner.
GM_ORDERS = frozenset({
    "paint", "add-unit", "edit-unit", "remove-unit", "start", "end", "set-rule", "import-map", "set-fp",
    "set-turn-mode", "close-round", "skip-turn", "next-round",
})
SIDE_ORDERS = frozenset({"place-feature", "remove-feature", "trigger-trap"})
CROP_ABOVE = 24  # maps wider or taller than this are posted cropped around the action


@dataclass(frozen=True)
class Actor:
    """Who is asking: a user in a guild, with what Discord says about their rights."""

    user_id: int
    guild_id: int
    name: str = ""
    role_ids: frozenset[int] = frozenset()
    manage_guild: bool = False


@dataclass
class Result:
    """What an action produced: the battle after it, the outcome, and the map to post."""

    record: BattleRecord
    battle: Battle
    outcome: Outcome | None = None
    png: bytes | None = None
    seq: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


Clock = Callable[[], float]
RngFactory = Callable[[], random.Random]


def _system_rng() -> random.Random:
    return random.Random(secrets.randbits(64))


class TableService:
    """Load, authorise, apply, commit and render: every change to a battle goes through here."""

    def __init__(self, db: Database, *, clock: Clock = time.time, rng_factory: RngFactory = _system_rng,
                 render: bool = True) -> None:
        self.db = db
        self.clock = clock
        self.rng_factory = rng_factory
        self.render_enabled = render
        self.locks = BattleLocks()
        self._peek_cache: dict[int, tuple[int, Battle]] = {}

    # --- finding battles ----------------------------------------------------

    async def battle_here(self, guild_id: int, channel_id: int) -> BattleRecord:
        """Return the running battle of a channel or thread, or explain how to make one."""
        record = await self.db.battles.in_channel(guild_id, channel_id)
        if record is None:
            raise NotFoundError("There is no battle in this channel. A GM starts one here with /battle new.")
        return record

    async def get_battle(self, guild_id: int, battle_id: int) -> BattleRecord:
        """Return a battle of this guild by id; other guilds' battles do not exist from here."""
        record = await self.db.battles.get(battle_id)
        if record is None or record.guild_id != guild_id:
            raise NotFoundError(f"There is no battle #{battle_id} on this server.")
        return record

    async def list_battles(self, guild_id: int, include_ended: bool = False) -> list[Any]:
        """Return the battles of a guild."""
        return list(await self.db.battles.list_for_guild(guild_id, include_ended=include_ended))

    # --- permissions --------------------------------------------------------

    async def is_gm(self, actor: Actor, record: BattleRecord | None) -> bool:
        """Return whether the actor referees: the GM role, Manage Server, or the battle's creator."""
        if actor.manage_guild:
            return True
        if record is not None and record.created_by == actor.user_id:
            return True
        settings = await self.db.guilds.get(actor.guild_id)
        return settings.gm_role_id is not None and settings.gm_role_id in actor.role_ids

    async def require_gm(self, actor: Actor, record: BattleRecord | None, what: str = "do that") -> None:
        """Refuse unless the actor is a GM of this battle."""
        if not await self.is_gm(actor, record):
            raise NotAllowedError(
                f"Only a GM can {what}: someone with the server's GM role, Manage Server, or the battle's creator."
            )

    async def authorise(self, actor: Actor, record: BattleRecord, battle: Battle, order: o.Order) -> None:
        """Check that the actor may give this order."""
        if order.kind in GM_ORDERS:
            await self.require_gm(actor, record, f"use `{order.kind}`")
            return
        if order.kind in SIDE_ORDERS:
            side = getattr(order, "side", None)
            if side is None:
                at = getattr(order, "at", None)
                side = battle.square_state(at).get("feature_side") if at is not None else None
            mine = {u.side.lower() for u in battle.iter_units() if u.owner == actor.user_id}
            if (side is None or str(side).lower() not in mine) and not await self.is_gm(actor, record):
                raise NotAllowedError(
                    f"Only the GM or a player commanding units of {side or 'that side'} can do that."
                )
            return
        unit_name = getattr(order, "unit", None)
        if unit_name:
            unit = battle.unit(unit_name)
            if unit.owner != actor.user_id and not await self.is_gm(actor, record):
                raise NotAllowedError(f"{unit.name} is not yours to command; you can only give orders to your own units.")

    # --- actions ------------------------------------------------------------

    async def create_battle(self, actor: Actor, *, channel_id: int, thread_id: int | None, name: str,
                            ruleset: str, width: int, height: int) -> Result:
        """Create a battle in a channel (or thread); the creator is its GM."""
        here = thread_id or channel_id
        existing = await self.db.battles.in_channel(actor.guild_id, here)
        if existing is not None:
            raise GameError(
                f"This channel already runs **{existing.name}**. End it with /battle end, or start the new one in another channel or a thread."
            )
        battle = Battle.new(ruleset, width, height, name)
        record = await self.db.battles.create(
            guild_id=actor.guild_id, channel_id=channel_id, thread_id=thread_id, name=battle.name,
            ruleset=battle.ruleset_id, created_by=actor.user_id, state=battle.to_dict(), now=self.clock(),
        )
        log.info("battle %s created in guild %s by %s", record.id, actor.guild_id, actor.user_id)
        png = await self.render(battle) if self.render_enabled else None
        return Result(record=record, battle=battle, png=png)

    async def execute(self, actor: Actor, record: BattleRecord, order: o.Order, *, render: bool = True,
                      manual_rolls: Sequence[int] = ()) -> Result:
        """Apply one order under the battle's lock and commit its snapshot and event together."""
        async with self.locks.get(record.id):
            current = await self.db.battles.get(record.id)
            if current is None or current.guild_id != actor.guild_id:
                raise NotFoundError("That battle no longer exists.")
            battle = Battle.from_dict(current.state)
            await self.authorise(actor, current, battle, order)
            dice = Dice(self.rng_factory(), scripted=list(manual_rolls))
            outcome = battle.apply(order, dice)
            status = cast("BattleStatus", battle.status) if battle.status != current.status else None
            try:
                saved = await self.db.battles.commit(
                    current.id, expected_version=current.version, state=battle.to_dict(), status=status,
                    event=NewEvent(actor_id=actor.user_id, kind=order.kind, order_text=str(order),
                                   outcome=outcome.to_dict(), hidden=outcome.hidden),
                    now=self.clock(),
                )
            except StaleVersionError:
                raise ConflictError("The battle changed while your order was being resolved; send it again.") from None
        png = await self.render(battle, outcome.highlight) if render and self.render_enabled else None
        return Result(record=saved, battle=battle, outcome=outcome, png=png)

    async def undo(self, actor: Actor, record: BattleRecord, count: int = 1) -> Result:
        """Restore the battle to before its last `count` orders (GM only)."""
        await self.require_gm(actor, record, "undo orders")
        if not 1 <= count <= 50:
            raise GameError("Undo between 1 and 50 orders at a time.")
        from storage import NothingToUndo

        async with self.locks.get(record.id):
            current = await self.get_battle(actor.guild_id, record.id)
            try:
                saved, undone = await self.db.battles.undo(
                    current.id, expected_version=current.version, count=count, actor_id=actor.user_id,
                    now=self.clock(),
                )
            except NothingToUndo:
                raise GameError(f"There are fewer than {count} orders to undo in this battle.") from None
            except StaleVersionError:
                raise ConflictError("The battle changed while undoing; try again.") from None
        battle = Battle.from_dict(saved.state)
        png = await self.render(battle) if self.render_enabled else None
        return Result(record=saved, battle=battle, png=png, extra={"undone": [e.order_text for e in undone]})

    async def load(self, record: BattleRecord) -> Battle:
        """Return the rules' battle of a record (a fresh copy the caller may change)."""
        return Battle.from_dict(record.state)

    async def peek(self, guild_id: int, channel_id: int) -> tuple[BattleRecord, Battle] | None:
        """Return the battle of a channel for reading only (autocomplete), cached per version."""
        record = await self.db.battles.in_channel(guild_id, channel_id)
        if record is None:
            return None
        cached = self._peek_cache.get(record.id)
        if cached is None or cached[0] != record.version:
            if len(self._peek_cache) > 256:
                self._peek_cache.clear()
            cached = (record.version, Battle.from_dict(record.state))
            self._peek_cache[record.id] = cached
        return record, cached[1]

    # --- rendering ----------------------------------------------------------

    async def render(self, battle: Battle, highlight: dict[str, Any] | None = None, *, full: bool = False,
                     overlays: Sequence[Any] = (), viewer_sides: Sequence[str] = (), show_hidden: bool = False) -> bytes:
        """Render the map in a worker thread, cropped around the action on big maps unless `full`."""
        view = build_view(battle, viewer_sides=viewer_sides, show_hidden=show_hidden)
        marks = [*overlays_for(highlight or {}), *overlays]
        crop = None
        if not full and (battle.width > CROP_ABOVE or battle.height > CROP_ABOVE):
            cells = action_cells(highlight or {})
            if cells:
                crop = crop_around(view, cells)
        return await asyncio.to_thread(render_map, view, overlays=marks, crop=crop)

    async def reach_map(self, battle: Battle, unit_name: str) -> tuple[dict[str, dict[str, int]], bytes]:
        """Return where a unit can go in each move mode, and the map tinted with it."""
        reach = reach_by_mode(battle, unit_name)
        unit = battle.unit(unit_name)
        view = build_view(battle)
        cells = [(unit.x, unit.y)] + [action for m in reach.values() for action in action_cells({"cells": list(m)}, cap=None)]
        crop = crop_around(view, cells, margin=1) if (battle.width > CROP_ABOVE or battle.height > CROP_ABOVE) else None
        marks = [*overlays_for({"actor": str(unit.cell)}), *reach_overlays(reach)]
        png = await asyncio.to_thread(render_map, view, overlays=marks, crop=crop)
        return reach, png
