"""The table service: the one door every front end uses to read and change a battle."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from bot.archive import export_document
from bot.archive import import_battle as import_archive
from bot.cache import BattleCache, Kept
from bot.clock import TurnClocks, TurnStart, turn_key
from bot.history import previous_turn
from bot.locks import BattleLocks
from bot.maps import MapImage, action_crop, chart_alt, map_text, zoom_crop
from bot.mapview import action_cells, build_view, overlays_for, range_overlay, reach_measure, reach_overlays
from bot.members import MemberCheck
from bot.renderpool import RenderPool
from bot.scheduler import Scheduler
from bot.table import (
    COMMITTED,
    SYSTEM_USER_ID,
    Actor,
    Clock,
    Listener,
    Notice,
    Result,
    RngFactory,
    note_committed,
)
from render import MapView, Overlay
from render.describe import MapText
from render.surface_chart import render_surface_chart
from rules import orders as o
from rules import turns
from rules.battle import Battle, board_size
from rules.colours import side_colours
from rules.dice import Dice
from rules.errors import (
    ConflictError,
    GameError,
    IllegalOrderError,
    NoMapError,
    NotAllowedError,
    NotFoundError,
    SystemMissingError,
    shorten,
)
from rules.outcome import Highlight, Outcome
from rules.system import ruleset_ids
from rules.systems import install as install_systems
from rules.systems.surface.details import SurfaceReport
from rules.visibility import PUBLIC, Viewer, sees
from storage import (
    NEXT_TURN,
    BattleRecord,
    BattleStatus,
    BattleSummary,
    ClockRecord,
    Database,
    DeadlinePolicy,
    EventRecord,
    LockSpace,
    NewEvent,
    NothingToUndo,
    NotifyMode,
    PlayerRecord,
    Post,
    PostingRecord,
    StaleVersionError,
)

log = logging.getLogger(__name__)

__all__ = [
    "COMMITTED", "NEXT_TURN", "SYSTEM_USER_ID", "Actor", "BattleRecord", "ClockRecord", "EventRecord", "Listener",
    "MapImage", "MapText", "Notice", "PlayerRecord", "PostingRecord", "Result", "StaleTurnError", "TableService",
]

MAX_UNDO = 50
SLOW_UNITS = 50  # a slow order on a battle with this many units is resolved in a worker thread
LOG_PAGE = 10  # events read at a time when searching the log (each with its outcome, some large)


class StaleTurnError(ConflictError):
    """The turn an order was meant for has already passed (a deadline racing a player)."""


def require_system(record: BattleRecord) -> BattleRecord:
    """Return a battle's record if its rule system is installed; refuse it, naming the package it needs, if not."""
    if record.ruleset not in ruleset_ids():
        package = record.state.get("package")
        raise SystemMissingError(record.ruleset, package if isinstance(package, str) else None)
    return record


def _system_rng() -> random.Random:
    return random.Random(secrets.randbits(64))


class TableService:
    """Load, authorise, apply, commit and render: every change to a battle goes through here."""

    def __init__(self, db: Database, *, clock: Clock = time.time, rng_factory: RngFactory = _system_rng,
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
        self.scheduler = Scheduler(self)
        self._tails: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        # Names players go by, for the unit key: the Discord client's lookup (set by the bot), then the
        # names of the players who gave orders here.
        self.name_lookup: Callable[[int], str | None] = lambda _uid: None
        # The posts an order leaves owed (its battle, the battle after it, the turn it began or None), set by
        # the front end that makes them; they go to the outbox in the order's own transaction.
        self.owed_after: Callable[[int, Battle, str | None], list[Post]] = lambda _id, _battle, _turn: []
        self._seen_names: dict[int, str] = {}

    # --- finding battles ----------------------------------------------------

    async def battle_here(self, guild_id: int, channel_id: int) -> BattleRecord:
        """Return the running battle of a channel or thread, or explain how to make one."""
        record = await self.db.battles.in_channel(guild_id, channel_id)
        if record is None:
            raise NotFoundError("There is no battle in this channel. A GM starts one here with /battle new.")
        return require_system(record)

    async def get_battle(self, guild_id: int, battle_id: int) -> BattleRecord:
        """Return a battle of this guild by id; other guilds' battles do not exist from here."""
        record = await self.db.battles.get(battle_id)
        if record is None or record.guild_id != guild_id:
            raise NotFoundError(f"There is no battle #{battle_id} on this server.")
        return require_system(record)

    async def battle_by_id(self, battle_id: int) -> BattleRecord:
        """Return a battle by id wherever it is (for buttons pressed in direct messages)."""
        record = await self.db.battles.get(battle_id)
        if record is None:
            raise NotFoundError(f"Battle #{battle_id} no longer exists.")
        return require_system(record)

    async def list_battles(self, guild_id: int, include_ended: bool = False) -> list[Any]:
        """Return the battles of a guild."""
        return list(await self.db.battles.list_for_guild(guild_id, include_ended=include_ended))

    # --- permissions --------------------------------------------------------

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

    # --- actions ------------------------------------------------------------

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
        self.cache.keep(record.id, Kept(record.version, record.state_text, battle))
        self.publish(Notice("created", record, battle, actor=actor))
        png = await self.render(battle, battle_id=record.id) if self.render_enabled else None
        return Result(record=record, battle=battle, png=png)

    async def execute(self, actor: Actor, record: BattleRecord, order: o.Order, *, render: bool = True,
                      manual_rolls: Sequence[int] = (), expect_turn: str | None = None,
                      publish: bool = True, follow: str | None = None, cheapest: bool = False) -> Result:
        """Apply one order under the battle's lock and commit its snapshot and event together.

        With expect_turn, the order is refused (StaleTurnError) unless the battle is still in that turn.
        With publish=False the listeners are not told; the Notice is left in result.extra["notice"].
        With cheapest, a move goes by the cheapest mode that reaches its square (the order's own mode when none
        does, so the rules say why); result.cheapest is the move picked.
        With follow (a unit), the unit's legal orders after the order are generated once, in the same trip, and
        returned in result.after; when they hold nothing but ending its turn, its turn ends here too (a second
        logged order, result.ended).
        """
        self.remember_name(actor)
        async with self.locks.get(record.id):
            current = await self._stored(record.id)
            if current is None or current.guild_id != actor.guild_id:
                raise NotFoundError("That battle no longer exists.")
            # The checks read the shared copy kept at this version when there is one; the order is resolved on a
            # fresh copy (the kept one is shared, and a refused order is simply thrown away), decoded in the same
            # trip to the rules thread. Decoding a battle of hundreds of units takes milliseconds.
            kept = self.cache.latest(current.id)
            fresh: Battle | None = None
            if kept is not None and kept.version == current.version:
                reader = kept.battle
            else:
                fresh = reader = await asyncio.get_running_loop().run_in_executor(self._rules, _decode, current)
            turn_before = turn_key(reader)
            if expect_turn is not None and turn_before != expect_turn:
                raise StaleTurnError("That turn is already over.")
            await self.authorise(actor, current, reader, order)
            dice = Dice(self.rng_factory(), scripted=list(manual_rolls))
            # Undo lives in the database (each event keeps the state before it), so no snapshot is kept here.
            if order.slow and len(reader.units) >= SLOW_UNITS:
                # A whole engagement in one order takes seconds at the largest: it runs beside the others'
                # orders rather than ahead of them.
                battle, picked, outcome, state, logged, after = await asyncio.to_thread(
                    _resolve, current, fresh, order, dice, follow, cheapest)
            else:
                battle, picked, outcome, state, logged, after = await asyncio.get_running_loop().run_in_executor(
                    self._rules, _resolve, current, fresh, order, dice, follow, cheapest)
            order = picked or order
            status = cast("BattleStatus", battle.status) if battle.status != current.status else None
            turn_after = turn_key(battle)
            # What the order leaves the bot owing Discord is kept with it, so no crash or refusal loses it.
            posts = self.owed_after(current.id, battle, turn_after if turn_after != turn_before else None)
            owed: list[int] = []
            try:
                saved, seq = await self.db.battles.commit_order(
                    current.id, expected_version=current.version, state=state, status=status,
                    event=NewEvent(actor_id=actor.user_id, kind=order.kind, order_text=str(order),
                                   outcome=logged, hidden=outcome.hidden),
                    now=self.clock(), turn_key=turn_after, posts=posts, owed=owed,
                )
            except StaleVersionError:
                self.cache.forget(current.id)
                raise ConflictError("The battle changed while your order was being resolved; send it again.") from None
            self.cache.keep(saved.id, Kept(saved.version, saved.state_text, battle))
            note_committed(seq)
            started = await self._sync_clock(saved, battle)
        notice = Notice("committed", saved, battle, outcome=outcome, actor=actor, seq=seq, turn=started,
                        extra={"owed": {post.kind: post_id for post, post_id in zip(posts, owed, strict=True)}})
        extra: dict[str, Any] = {}
        if publish:
            self.publish(notice)
        else:
            extra["notice"] = notice
        png = await self.render(battle, outcome=outcome, battle_id=saved.id) if render and self.render_enabled else None
        ender = turns.idle_end(battle, after) if after is not None else None
        ended = None
        if ender is not None:
            # Nothing left but ending the turn: end it now, logged as its own order, so the next unit is due.
            ended = await self.execute(actor, saved, ender, render=False, publish=publish)
        return Result(record=saved, battle=battle, outcome=outcome, png=png, seq=seq, extra=extra, cheapest=picked,
                      after=after, ended=ended)

    async def undo(self, actor: Actor, record: BattleRecord, count: int = 1) -> Result:
        """Restore the battle to before its last `count` orders (GM only); the undo is logged too."""
        await self.require_gm(actor, record, "undo orders")
        return await self.restore(actor, record, count)

    async def restore(self, actor: Actor, record: BattleRecord, count: int, *, text: str | None = None,
                      note: dict[str, Any] | None = None,
                      guard: Callable[[BattleRecord], Awaitable[None]] | None = None) -> Result:
        """Take back the last `count` orders for an actor already allowed to; the caller checks who may.

        `guard`, when given, runs under the battle's lock on the battle as it is then, and refuses by raising
        (a takeback checks there that nobody acted meanwhile). `text` and `note` go to the log with the undo.
        """
        if not 1 <= count <= MAX_UNDO:
            raise GameError(f"Undo between 1 and {MAX_UNDO} orders at a time.")
        async with self.locks.get(record.id):
            current = await self.get_battle(actor.guild_id, record.id)
            if guard is not None:
                await guard(current)
            try:
                saved, undone = await self.db.battles.undo(
                    current.id, expected_version=current.version, count=count, actor_id=actor.user_id,
                    now=self.clock(), text=text, note=note,
                )
            except NothingToUndo as exc:
                raise GameError(_nothing_to_undo(count, exc.available)) from None
            except StaleVersionError:
                raise ConflictError("The battle changed while undoing; try again.") from None
            battle = Battle.from_dict(saved.state)
            self.cache.keep(saved.id, Kept(saved.version, saved.state_text, battle))
            seq = await self.db.events.latest_seq(saved.id)
            note_committed(seq)
            started = await self._sync_clock(saved, battle)
        texts = [e.order_text for e in undone]
        self.publish(Notice("undone", saved, battle, actor=actor, seq=seq, turn=started,
                            extra={"undone": texts, "seqs": [e.seq for e in undone]}))
        png = await self.render(battle, battle_id=saved.id) if self.render_enabled else None
        return Result(record=saved, battle=battle, png=png, seq=seq,
                      extra={"undone": texts, "seqs": [e.seq for e in undone]})

    async def _sync_clock(self, record: BattleRecord, battle: Battle) -> TurnStart | None:
        """Start the new turn's deadline, if the order began one (the caller holds the battle's lock)."""
        try:
            return await self.turn_clocks.sync(record, battle)
        except Exception:
            # The order is committed already; the scheduler's recovery rebuilds the clock at startup.
            log.exception("could not update the turn clock of battle %s", record.id)
            return None

    async def load(self, record: BattleRecord) -> Battle:
        """Return the rules' battle of a record (a fresh copy the caller may change)."""
        return Battle.from_dict(record.state)

    def read_only(self, record: BattleRecord) -> Battle:
        """Return the battle of a record for reading only: the shared decoded copy, never to be changed."""
        return self._kept(record).battle

    async def peek(self, guild_id: int, channel_id: int) -> tuple[BattleRecord, Battle] | None:
        """Return the battle of a channel for reading only (autocomplete): the shared copy, never to be changed."""
        record = await self.db.battles.in_channel(guild_id, channel_id)
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
        if isinstance(found, BattleSummary):
            assert kept is not None
            return BattleRecord.of(found, kept.text)
        return found

    def _kept(self, record: BattleRecord) -> Kept:
        """Return the shared decoded copy of a battle at the record's version, decoding and keeping it if need be."""
        kept = self.cache.at(record.id, record.version)
        if kept is None:
            kept = Kept(record.version, record.state_text, Battle.from_dict(record.state))
            self.cache.keep(record.id, kept)
        return kept

    # --- the turn clock -----------------------------------------------------

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

    # --- the log ------------------------------------------------------------

    async def latest_outcome(self, record: BattleRecord, kind: str) -> dict[str, Any] | None:
        """Return the logged outcome of the battle's newest order of a kind still in force (not undone)."""
        offset = 0
        while True:
            page = await self.db.events.list(record.id, limit=LOG_PAGE, offset=offset, include_undone=False)
            for event in page:
                if event.kind == kind:
                    return event.outcome
            if len(page) < LOG_PAGE:
                return None
            offset += LOG_PAGE

    async def log_page(self, record: BattleRecord, page: int, per_page: int) -> tuple[list[EventRecord], int]:
        """Return one page of a battle's log, newest first, and how many entries it has."""
        total = await self.db.events.count(record.id)
        events = await self.db.events.list(record.id, limit=per_page, offset=max(0, page - 1) * per_page)
        return events, total

    async def reveal(self, actor: Actor, record: BattleRecord, seq: int) -> EventRecord:
        """Make a hidden roll of the log public (GM)."""
        await self.require_gm(actor, record, "reveal hidden rolls")
        event = await self.db.events.get(record.id, seq)
        if event is None:
            raise NotFoundError(f"There is no order #{seq} in this battle's log.")
        if not event.hidden:
            raise IllegalOrderError(f"Order #{seq} is not hidden; everyone can already see it in /battle log.")
        await self.db.events.set_hidden(record.id, seq, False)
        log.info("battle %s: GM %s revealed order %s", record.id, actor.user_id, seq)
        revealed = await self.db.events.get(record.id, seq)
        assert revealed is not None
        return revealed

    async def all_events(self, record: BattleRecord) -> list[EventRecord]:
        """Return every event of a battle's log, oldest first, read a page at a time."""
        events: list[EventRecord] = []
        while True:
            page = await self.db.events.list(record.id, limit=500, offset=len(events), newest_first=False)
            events += page
            if len(page) < 500:
                break
        return events

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

    # --- players' preferences ------------------------------------------------

    async def notify_mode(self, user_id: int) -> NotifyMode:
        """Return how a player wants to hear that it is their turn."""
        return await self.db.users.get_notify(user_id)

    async def set_notify_mode(self, user_id: int, mode: NotifyMode) -> None:
        """Set how a player wants to hear that it is their turn."""
        await self.db.users.set_notify(user_id, mode)

    # --- telling listeners --------------------------------------------------

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

    def close(self) -> None:
        """Stop the map workers and the rules thread (both start again if used after)."""
        self.maps.shutdown()
        rules, self._rules = self._rules, ThreadPoolExecutor(1, thread_name_prefix="battlepost-rules")
        rules.shutdown(wait=True)

    # --- rendering ----------------------------------------------------------

    def remember_name(self, actor: Actor) -> None:
        """Keep the name a player goes by, for the unit key of the units they own."""
        if actor.name and not actor.is_system:
            self._seen_names[actor.user_id] = actor.name

    def owner_name(self, user_id: int) -> str | None:
        """Return the name a player goes by, if the bot has seen it."""
        return self.name_lookup(user_id) or self._seen_names.get(user_id)

    def view_of(self, battle: Battle, *, viewer: Viewer = PUBLIC) -> MapView:
        """Return the renderer's view of a battle, with the hidden units and features the viewer may see."""
        return build_view(battle, viewer=viewer, owner_names=self.owner_name)

    async def render(self, battle: Battle, highlight: Highlight | None = None, *, outcome: Outcome | None = None,
                     full: bool = False, overlays: Sequence[Overlay] = (), viewer: Viewer = PUBLIC,
                     battle_id: int | None = None, focus: tuple[int, int] | None = None,
                     radius: int = 0, palette: str = "colour",
                     around: Sequence[tuple[int, int]] = (), status: str | None = None) -> MapImage | None:
        """Render the map in a worker thread, with its alt text.

        A big map is cropped around the action (and the squares `around`) unless `full`; `focus` and
        `radius` zoom on a square instead. `status` replaces the title's line about the turn.
        The outcome, when given, marks its path, shot, area and landing (its highlight unless one is given).
        A battle whose rule system has no map gets no image (None): its replies go without one.
        """
        if not battle.system.has_map:
            return None
        view = self.view_of(battle, viewer=viewer)
        if status is not None:
            view = dataclasses.replace(view, status=status)
        marks_of = highlight if highlight is not None else (outcome.highlight if outcome is not None else Highlight())
        marks = [*overlays_for(marks_of, outcome.details if outcome is not None else None), *overlays]
        crop = zoom_crop(view, focus, radius) if focus is not None else action_crop(
            view, [*action_cells(marks_of), *around], full=full)
        return await self.maps.draw(view, marks, crop, battle_id=battle_id, palette=palette)

    async def surface_chart(self, report: SurfaceReport, battle: Battle | None = None) -> MapImage:
        """Draw a Surface Combat report's losses per side per round, in a worker thread, with its alt text.

        With the battle, each side is drawn in its own colour (rules.colours), as everywhere else.
        """
        colours = side_colours(battle) if battle is not None else None
        png = await asyncio.to_thread(render_surface_chart, report, colours)
        return MapImage(png=png, alt=chart_alt(report))

    async def reach_map(self, battle: Battle, unit_name: str, *, battle_id: int | None = None,
                        full: bool = False) -> tuple[Mapping[str, Mapping[str, float]], MapImage]:
        """Return where a unit can go in each move mode, and the map tinted with it, as the unit's side sees it.

        A reach is shown only to the unit's player and the GM, so its hidden units and features show.
        """
        if not battle.system.has_map:
            raise NoMapError(f"{battle.system.name} has no map, so there is no reach to draw.")
        reach = await asyncio.to_thread(battle.system.reach_of, battle, unit_name)  # seconds on a fine grid
        unit = battle.unit(unit_name)
        view = self.view_of(battle, viewer=Viewer.of([unit.side]))
        cells = [(unit.x, unit.y)] + [c for m in reach.values() for c in action_cells(Highlight(cells=list(m)), cap=None)]
        crop = action_crop(view, cells, full=full, margin=1)
        marks = [*overlays_for(Highlight(actor=str(unit.cell))), *reach_overlays(reach, reach_measure(battle))]
        image = await self.maps.draw(view, marks, crop, battle_id=battle_id)
        return reach, image

    async def range_map(self, battle: Battle, unit_name: str, weapon_name: str | None, *,
                        battle_id: int | None = None, full: bool = False, viewer: Viewer = PUBLIC) -> MapImage:
        """Return the map ringed with a weapon's range bands around its unit (its first ranged weapon by default).

        A unit hidden from the viewer has no range to show: drawing it would give its square away.
        """
        unit = battle.unit(unit_name)
        if not sees(viewer, unit):
            raise IllegalOrderError(f"{unit.name} is hidden, so its range bands cannot be shown until it attacks.")
        ranged = [w for w in unit.weapons if not w.melee]
        if weapon_name:
            weapon = unit.weapon(weapon_name)
            if weapon is None:
                names = ", ".join(w.name for w in unit.weapons) or "none"
                raise NotFoundError(f"{unit.name} has no weapon `{shorten(weapon_name)}`. Its weapons: {names}.")
        elif ranged:
            weapon = ranged[0]
        else:
            raise IllegalOrderError(f"{unit.name} has no ranged weapon, so it has no range bands to show.")
        if weapon.melee:
            raise IllegalOrderError(f"The {weapon.name} is a melee weapon; range bands are for ranged weapons.")
        bands = range_overlay(battle, unit, weapon)
        view = self.view_of(battle, viewer=viewer)
        reach = max((b.high or 0 for b in bands.bands), default=0)
        cells = [(unit.x, unit.y), (unit.x - reach, unit.y - reach), (unit.x + reach, unit.y + reach)]
        crop = action_crop(view, [(x, y) for x, y in cells if 0 <= x < view.width and 0 <= y < view.height],
                           full=full, margin=1)
        return await self.maps.draw(view, [bands], crop, battle_id=battle_id)

    async def previous_turn_map(self, record: BattleRecord, *, viewer: Viewer = PUBLIC, full: bool = False,
                                palette: str = "colour") -> tuple[str, MapImage]:
        """Return the previous turn's label and its map: the battle as that turn left it, its moves and shots drawn."""
        events = await self.all_events(record)
        initial = await self.db.events.initial_state(record.id) or record.state
        logged = [{"seq": e.seq, "kind": e.kind, "order": e.order_text, "outcome": e.outcome, "undone": e.undone,
                   "hidden": e.hidden} for e in events]
        past = await asyncio.to_thread(previous_turn, initial, logged)
        marks = [o for h, d in past.highlights for o in overlays_for(h, d)]
        cells = [c for h, _ in past.highlights for c in action_cells(h)]
        image = await self.render(past.battle, Highlight(), overlays=marks, viewer=viewer,
                                  battle_id=record.id, full=full, palette=palette,
                                  around=cells, status=f"The previous turn as it ended: {past.label}")
        if image is None:
            raise NoMapError(f"{past.battle.system.name} has no map, so there is no previous turn to draw.")
        return past.label, image

    async def text_map(self, battle: Battle, *, viewer: Viewer = PUBLIC,
                       highlight: Highlight | None = None) -> MapText:
        """Return the whole map as text for screen readers, with the last action when a highlight is given."""
        view = self.view_of(battle, viewer=viewer)
        return await asyncio.to_thread(map_text, view, overlays_for(highlight or Highlight()))


def _decode(record: BattleRecord) -> Battle:
    """Return a fresh rules' battle of a record (parsed and built off the event loop)."""
    return Battle.from_dict(record.state)


def _resolve(record: BattleRecord, battle: Battle | None, order: o.Order, dice: Dice, follow: str | None = None,
             cheapest: bool = False
             ) -> tuple[Battle, o.Order | None, Outcome, dict[str, Any], dict[str, Any], list[o.Order] | None]:
    """Apply an order to a fresh battle (decoded here when not given), a move by its cheapest mode with `cheapest`;
    return the battle, the move picked, the outcome, the battle's new document, the outcome as logged and what
    the followed unit may do next."""
    if battle is None:
        battle = _decode(record)
    picked = turns.cheapest_move(battle, order.unit, order.to) if cheapest and isinstance(order, o.Move) else None
    outcome = battle.apply(picked or order, dice, undoable=False)
    after = turns.next_orders(battle, follow) if follow else None
    return battle, picked, outcome, battle.to_dict(), outcome.to_dict(), after


def _nothing_to_undo(count: int, available: int) -> str:
    if available == 0:
        return "There is nothing to undo: no order has been given in this battle since it was created."
    plural = "order" if available == 1 else "orders"
    return (f"Only {available} {plural} can be undone in this battle (back to its creation), not {count}; "
            f"ask for {available} or fewer.")
