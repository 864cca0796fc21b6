"""The core of the table service: its state, finding battles, who may do what, and telling listeners."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bot.cache import BattleCache, Kept
from bot.clock import TurnClocks
from bot.locks import BattleLocks
from bot.renderpool import RenderPool
from bot.table import SYSTEM_USER_ID, Actor, Clock, Listener, Notice, RngFactory
from render import Crop
from rules import orders as o
from rules.battle import Battle
from rules.errors import ConflictError, NotAllowedError, NotFoundError, SystemMissingError
from rules.system import ruleset_ids
from rules.systems import install as install_systems
from storage import BattleRecord, BattleSummary, Database, EventRecord, LockSpace, Post

log = logging.getLogger(__name__)


class StaleTurnError(ConflictError):
    """The turn an order was meant for has already passed (a deadline racing a player)."""


def require_system(record: BattleRecord) -> BattleRecord:
    """Return a battle's record if its rule system is installed; refuse it, naming the package it needs, if not."""
    if record.ruleset not in ruleset_ids():
        package = record.state.get("package")
        raise SystemMissingError(record.ruleset, package if isinstance(package, str) else None)
    return record


def system_rng() -> random.Random:
    """Return a generator seeded from the system's entropy, one per order."""
    return random.Random(secrets.randbits(64))


class ServiceCore:
    """The state every job of the table service shares, and the doors they all use."""

    def __init__(self, db: Database, *, clock: Clock = time.time, rng_factory: RngFactory = system_rng,
                 render: bool = True, cache_size: int | None = None, render_workers: int = 0) -> None:
        install_systems()
        self.db = db
        self.clock = clock
        self.rng_factory = rng_factory
        self.render_enabled = render
        # Maps are drawn in worker processes (none: a thread of this one); see bot.renderpool.
        self.maps = RenderPool(render_workers)
        # An order's rules run in this thread, one order at a time, so the event loop keeps serving while
        # a heavy one (placing a large M42 unit, say) works; the battle's lock is held meanwhile.
        self._rules = ThreadPoolExecutor(1, thread_name_prefix="battlepost-rules")
        # A battle's orders, clock and deadlines are serialised across every process sharing the database;
        # its status board has a lock of its own, so a slow edit on Discord never holds up an order.
        self.locks = BattleLocks(lambda battle_id: db.lock(LockSpace.BATTLE, battle_id))
        self.board_locks = BattleLocks(lambda battle_id: db.lock(LockSpace.BOARD, battle_id))
        # The battles used lately, decoded once per version; checked against the database on every use.
        self.cache = BattleCache() if cache_size is None else BattleCache(cache_size)
        # Called with a Notice after every change, in order per battle, off the caller's path.
        self.listeners: list[Listener] = []
        self.turn_clocks = TurnClocks(db, clock)
        self._tails: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        # Names players go by, for the unit key: the Discord client's lookup (set by the bot), then the
        # names of the players who gave orders here.
        self.name_lookup: Callable[[int], str | None] = lambda _uid: None
        # The posts an order leaves owed (its battle, the battle after it, the turn it began or None), set by
        # the front end that makes them; they go to the outbox in the order's own transaction.
        self.owed_after: Callable[[int, Battle, str | None], list[Post]] = lambda _id, _battle, _turn: []
        self._seen_names: dict[int, str] = {}
        # The window each battle's last order map was posted in (see bot.maps.steady_crop).
        self.windows: OrderedDict[int, Crop] = OrderedDict()

    # --- finding battles ------------------------------------------------------

    async def _here(self, guild_id: int, channel_id: int) -> BattleRecord | None:
        """Return a channel's running battle, its state from the kept copy when that is the stored version."""
        known = {battle_id: kept.version for battle_id, kept in self.cache.items()}
        return await self._whole(await self.db.battles.in_channel_unless(guild_id, channel_id, known))

    async def _whole(self, found: BattleRecord | BattleSummary | None) -> BattleRecord | None:
        """Return a battle read without its state (it was kept here at that version) with the kept state."""
        if not isinstance(found, BattleSummary):
            return found
        kept = self.cache.latest(found.id)
        if kept is None or kept.version != found.version:  # dropped or replaced while the database was read
            return await self.db.battles.get(found.id)
        return kept.record.at(found)

    async def battle_here(self, guild_id: int, channel_id: int) -> BattleRecord:
        """Return the running battle of a channel or thread, or explain how to make one."""
        record = await self._here(guild_id, channel_id)
        if record is None:
            raise NotFoundError("There is no battle in this channel. A GM starts one here with /battle new.")
        return require_system(record)

    async def battle_in(self, guild_id: int, channel_id: int) -> BattleRecord | None:
        """Return the running battle of a channel or thread, if there is one (as stored, installed or not)."""
        return await self._here(guild_id, channel_id)

    async def get_battle(self, guild_id: int, battle_id: int) -> BattleRecord:
        """Return a battle of this guild by id; other guilds' battles do not exist from here."""
        record = await self._stored(battle_id)
        if record is None or record.guild_id != guild_id:
            raise NotFoundError(f"There is no battle #{battle_id} on this server.")
        return require_system(record)

    async def battle_by_id(self, battle_id: int) -> BattleRecord:
        """Return a battle by id wherever it is (for buttons pressed in direct messages)."""
        record = await self._stored(battle_id)
        if record is None:
            raise NotFoundError(f"Battle #{battle_id} no longer exists.")
        return require_system(record)

    async def list_battles(self, guild_id: int, include_ended: bool = False) -> list[Any]:
        """Return the battles of a guild."""
        return list(await self.db.battles.list_for_guild(guild_id, include_ended=include_ended))

    # --- permissions ----------------------------------------------------------

    def system_actor(self, guild_id: int) -> Actor:
        """Return the actor the bot uses when a deadline makes it act."""
        return Actor(user_id=SYSTEM_USER_ID, guild_id=guild_id, name="deadline", manage_guild=True)

    async def is_gm(self, actor: Actor, record: BattleRecord | None) -> bool:
        """Return whether the actor referees: the GM role, Manage Server, or the battle's creator."""
        if actor.manage_guild or actor.is_system:
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
        """Check that the actor may give this order, as the order's class declares (unknown: the GM only)."""
        used = order.gm_options_used()
        if used and not await self.is_gm(actor, record):
            options = ", ".join(f"`{name}`" for name in used)
            raise NotAllowedError(f"Only a GM can set {options} on `{order.kind}`; leave it out.")
        authority = order.authority
        if authority == "anyone":
            return
        if authority == "side":
            side = order.acting_side(battle.cells)
            mine = {u.side.lower() for u in battle.iter_units() if u.owner == actor.user_id}
            if (side is None or side.lower() not in mine) and not await self.is_gm(actor, record):
                raise NotAllowedError(
                    f"Only the GM or a player commanding units of {side or 'that side'} can do that."
                )
            return
        unit_name = getattr(order, "unit", None)
        if authority == "owner" and unit_name:
            unit = battle.unit(unit_name)
            if unit.owner != actor.user_id and not await self.is_gm(actor, record):
                raise NotAllowedError(f"{unit.name} is not yours to command; you can only give orders to your own units.")
            return
        if authority == "owner":
            return  # an order for whichever unit is due: the rules name it and check the turn
        await self.require_gm(actor, record, f"use `{order.kind}`")

    # --- reading battles ------------------------------------------------------

    async def load(self, record: BattleRecord) -> Battle:
        """Return the rules' battle of a record (a fresh copy the caller may change)."""
        return Battle.from_dict(record.state)

    def read_only(self, record: BattleRecord) -> Battle:
        """Return the battle of a record for reading only: the shared decoded copy, never to be changed."""
        return self._kept(record).battle

    async def peek(self, guild_id: int, channel_id: int) -> tuple[BattleRecord, Battle] | None:
        """Return the battle of a channel for reading only (autocomplete): the shared copy, never to be changed."""
        record = await self._here(guild_id, channel_id)
        if record is None:
            return None
        return record, self._kept(record).battle

    async def current(self, battle_id: int) -> tuple[BattleRecord, Battle] | None:
        """Return a battle as stored now, for reading only (boards, deadlines): the shared copy, never to be changed."""
        record = await self._stored(battle_id)
        if record is None:
            return None
        return record, self._kept(record).battle

    async def _stored(self, battle_id: int) -> BattleRecord | None:
        """Read a battle, its state from the kept copy when that is still the stored version (one read either way)."""
        kept = self.cache.latest(battle_id)
        found = await self.db.battles.get_unless(battle_id, None if kept is None else kept.version)
        if found is None:
            self.cache.forget(battle_id)
            return None
        return await self._whole(found)

    def _kept(self, record: BattleRecord) -> Kept:
        """Return the shared decoded copy of a battle at the record's version, decoding and keeping it if need be."""
        kept = self.cache.at(record.id, record.version)
        if kept is None:
            kept = Kept(record.version, record, Battle.from_dict(record.state))
            self.cache.keep(record.id, kept)
        return kept

    async def all_events(self, record: BattleRecord) -> list[EventRecord]:
        """Return every event of a battle's log, oldest first, read a page at a time."""
        events: list[EventRecord] = []
        while True:
            page = await self.db.events.list(record.id, limit=500, offset=len(events), newest_first=False)
            events += page
            if len(page) < 500:
                break
        return events

    # --- telling listeners ----------------------------------------------------

    def publish(self, notice: Notice) -> None:
        """Hand a notice to the listeners in the background, after the notices of that battle before it."""
        if not self.listeners:
            return
        battle_id = notice.record.id
        before = self._tails.get(battle_id)
        task = asyncio.get_running_loop().create_task(self._deliver(notice, before), name=f"notice-{battle_id}")
        self._tails[battle_id] = task
        self._tasks.add(task)
        task.add_done_callback(lambda t: self._finished(battle_id, t))

    def _finished(self, battle_id: int, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if self._tails.get(battle_id) is task:
            del self._tails[battle_id]

    async def _deliver(self, notice: Notice, before: asyncio.Task[None] | None) -> None:
        if before is not None:
            # Only the order matters here; the earlier notice's failure was logged where it happened.
            await asyncio.gather(before, return_exceptions=True)
        await self._hand_over(notice)

    async def _hand_over(self, notice: Notice) -> bool:
        """Give a notice to every listener; return whether all of them took it."""
        taken = True
        for listener in list(self.listeners):
            try:
                if await listener(notice) is False:
                    taken = False
            except Exception:
                log.exception("a listener failed on %s notice of battle %s", notice.kind, notice.record.id)
                taken = False
        return taken

    async def deliver(self, notice: Notice) -> bool:
        """Hand a notice over now, after the earlier notices of its battle; return whether every listener took it.

        The scheduler uses this for reminders, so a reminder is marked sent only once it was sent.
        """
        before = self._tails.get(notice.record.id)
        if before is not None:
            await asyncio.gather(before, return_exceptions=True)
        return await self._hand_over(notice)

    def track(self, task: asyncio.Task[Any]) -> None:
        """Count a listener's background work (a retry, a board edit) as notice delivery, so drain() waits for it."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self) -> None:
        """Wait until every notice published so far has been delivered."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def write_documents(self) -> int:
        """Write whole the state of every battle whose stored document is orders behind; return how many.

        Run on a clean stop, so a battle read after a restart (maybe by a newer version, whose rules could read
        an old order differently) replays nothing. Battles kept here are written from memory, others replayed.
        """
        written = 0
        for battle_id, kept in self.cache.items():
            if await self.db.battles.write_document(battle_id, version=kept.version, document=kept.record.state_text):
                written += 1
        for battle_id in await self.db.battles.behind_ids():
            record = await self.db.battles.get(battle_id)  # the orders after its document replayed off the loop
            if record is not None and await self.db.battles.write_document(battle_id, version=record.version,
                                                                           document=record.state_text):
                written += 1
        if written:
            log.info("wrote the whole state of %d battle(s) kept in memory", written)
        return written

    def close(self) -> None:
        """Stop the map workers and the rules thread (both start again if used after)."""
        self.maps.shutdown()
        rules, self._rules = self._rules, ThreadPoolExecutor(1, thread_name_prefix="battlepost-rules")
        rules.shutdown(wait=True)

    # --- names ----------------------------------------------------------------

    def remember_name(self, actor: Actor) -> None:
        """Keep the name a player goes by, for the unit key of the units they own."""
        if actor.name and not actor.is_system:
            self._seen_names[actor.user_id] = actor.name

    def owner_name(self, user_id: int) -> str | None:
        """Return the name a player goes by, if the bot has seen it."""
        return self.name_lookup(user_id) or self._seen_names.get(user_id)
