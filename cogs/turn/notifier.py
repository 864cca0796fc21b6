"""Tell players what the table service did: the status board, turn pings, reminders and deadlines.

The notifier listens to the table service (service.listeners); the service hands it every notice after
the change is committed, in order per battle and off the path of the command that caused it. Only the
owners of the units now due are mentioned, and only in the message that calls them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

import discord
from discord.ext import commands

from bot.clock import BATTLE_REMINDERS, HELD_TURN, TurnStart, due_now, quiet_now, turn_key
from bot.outbox import Outbox, OutboxRow, Post, TryLater, backoff
from bot.service import BattleRecord, ClockRecord, MapImage, Notice, Stalling, TableService
from cogs.common.action_panel import groups_of
from cogs.common.actions import ActionGroup
from cogs.common.embeds import safe
from cogs.common.replies import owed_message, send
from cogs.common.setup_panel import setup_view
from cogs.common.side_threads import SideThreads
from cogs.common.systems import front_end
from cogs.turn.board import BOARD_KIND, board_embed
from cogs.turn.buttons import turn_view
from cogs.turn.delivery import BoardLane, Retries
from cogs.turn.prompts import (
    deadline_embed,
    held_turn_content,
    mentions,
    reminder_content,
    stall_line,
    turn_content,
    turn_prompt,
)
from rules.battle import Battle
from rules.outcome import Highlight
from rules.units import Unit
from rules.visibility import PUBLIC, redact, sees

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
BOARD_NOTICES = frozenset({"created", "committed", "undone", "recovered", "clock", "deadline"})
# The outbox kinds of the posts the notifier owes: a battle's turn ping and its status board.
TURN_POST = "turn"
BOARD_POST = "board"


def board_key(battle_id: int) -> str:
    """Return the key a battle's owed board edits coalesce by: the newest supersedes the rest."""
    return f"board:{battle_id}"


def turn_post_key(battle_id: int) -> str:
    """Return the key a battle's owed turn pings coalesce by: a ping of a newer turn makes an older one moot."""
    return f"turn:{battle_id}"


def panel_changed(notice: Notice) -> bool:
    """Return whether a notice changes a map-less system's setup panel: any during setup, and the start."""
    if front_end(notice.battle).setup_panel is None:
        return False
    # The start is the panel's last edit (its buttons go); an undone start brings them back.
    started = notice.outcome is not None and notice.outcome.kind == "start"
    return notice.battle.status == "setup" or started or notice.kind == "undone"


def pinging(user_ids: Sequence[int]) -> discord.AllowedMentions:
    """Allow mentions of exactly these users and nobody else."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=uid) for uid in user_ids])


class NoticeListener:
    """Hear the table service's notices of the battles this listener presents, and post what they call for."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.retries = Retries(self._track)

    @property
    def service(self) -> TableService:
        """Return the bot's table service."""
        return self.bot.service  # type: ignore[attr-defined,no-any-return]

    def _track(self, task: asyncio.Task[None]) -> None:
        self.service.track(task)

    def wants(self, notice: Notice) -> bool:
        """Return whether this listener presents the notice's battle."""
        return True

    def heard(self, notice: Notice) -> None:
        """Start what every notice of a presented battle calls for before its posts (nothing here)."""

    async def post_reminder(self, notice: Notice) -> None:
        """Remind the players still due that the deadline is near."""
        raise NotImplementedError

    async def post_deadline(self, notice: Notice) -> None:
        """Say what happened when a deadline passed."""
        raise NotImplementedError

    async def post_turn(self, notice: Notice) -> None:
        """Call the players a new turn (or phase) waits for."""
        raise NotImplementedError

    async def acted(self, notice: Notice) -> None:
        """Hear that a player gave an order (nothing here)."""

    async def __call__(self, notice: Notice) -> bool:
        """Handle one notice; return False only for a reminder Discord refused (the scheduler sends it again)."""
        if not self.wants(notice):
            return True
        self.heard(notice)
        if notice.kind == "committed" and notice.actor is not None and not notice.actor.is_system:
            await self.acted(notice)
        over = notice.battle.status == "active" and notice.battle.system.verdict(notice.battle) is not None
        if notice.kind == "reminder" and over:
            return True  # nobody is reminded of a turn in a battle over by its rules; its GM was asked to end it
        if notice.kind == "reminder":
            try:
                await self.post_reminder(notice)
            except discord.HTTPException as exc:
                log.warning("could not post a reminder of battle %s (%s); the scheduler tries again",
                            notice.record.id, exc.status)
                return False
        elif notice.kind == "deadline":
            await self._at_least_once("the deadline notice", notice, self.post_deadline)
        # A battle over by its rules calls nobody to a turn: its GM is asked to end it instead.
        if notice.turn is not None and notice.battle.status == "active" and not over:
            await self.ping_turn(notice)
        return True

    async def ping_turn(self, notice: Notice) -> None:
        """Call the players of a turn that has begun (posted at least once, however Discord fails)."""
        await self._at_least_once("the turn ping", notice, self.post_turn)

    async def _at_least_once(self, what: str, notice: Notice, post: Callable[[Notice], Awaitable[None]]) -> None:
        """Post now; if Discord refuses, try again later instead of dropping it."""
        label = f"{what} of battle {notice.record.id}"
        try:
            await post(notice)
        except discord.HTTPException as exc:
            log.warning("could not post %s (%s); trying again later", label, exc.status)
            self.retries.again(label, 0, lambda _attempt: post(notice))

    def channel(self, record: BattleRecord) -> discord.PartialMessageable:
        """Return the battle's channel or thread, without needing it in the cache."""
        return self.bot.get_partial_messageable(record.thread_id or record.channel_id, guild_id=record.guild_id)


class Notifier(NoticeListener):
    """Post and edit the messages a battle's channel and players need after each change."""

    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self.boards = BoardLane(self.update_board, self._track, self.retries,
                                spacing=float(getattr(bot, "board_spacing", 0.0)), refused=self.board_refused)

    @property
    def outbox(self) -> Outbox:
        """Return the bot's outbox, where every post owed to Discord waits until it is made."""
        return self.bot.outbox  # type: ignore[attr-defined,no-any-return]

    def attach(self) -> None:
        """Owe turn pings and board edits through the outbox: with each order, and for whoever sends them."""
        self.outbox.register(TURN_POST, self.deliver_turn)
        self.outbox.register(BOARD_POST, self.deliver_board)
        self.service.owed_after = self.owed_after

    def detach(self) -> None:
        """Stop owing posts with orders (the cog is unloaded); rows already owed wait for the next start."""
        if self.service.owed_after == self.owed_after:
            self.service.owed_after = lambda _id, _battle, _turn: []
        for kind in (TURN_POST, BOARD_POST):
            self.outbox.handlers.pop(kind, None)

    def owed_after(self, battle_id: int, battle: Battle, turn: str | None) -> list[Post]:
        """Return what an order leaves owed: a board edit, and the ping of the turn it began.

        They are the outbox loop's only after a grace: the process that committed the order sends them at
        once, and the loop takes over only when it could not (Discord refused, or the process stopped).
        """
        if battle.system.phases is not None:
            # A system of its own phases has no board; its setup panel, if it has one, is owed while set up.
            if battle.status == "setup" and front_end(battle).setup_panel is not None:
                return [Post(battle_id, BOARD_POST, {}, key=board_key(battle_id), delay=self.outbox.grace)]
            return []
        grace = self.outbox.grace
        posts = []
        if battle.system.has_map:
            posts.append(Post(battle_id, BOARD_POST, {}, key=board_key(battle_id), delay=grace))
        if turn is not None and battle.status == "active":
            posts.append(Post(battle_id, TURN_POST, {"turn": turn}, key=turn_post_key(battle_id), delay=grace,
                              once=True))
        return posts

    async def ping_turn(self, notice: Notice) -> None:
        """Send the turn ping owed with the order, or owe one now (a turn begun by the clock, an undo, a restart)."""
        owed = notice.extra.get("owed", {}).get(TURN_POST)
        if owed is not None:
            await self.outbox.send_id(int(owed))
            return
        assert notice.turn is not None
        # Once: a ping of this turn still owed (a process stopped while sending it) is that ping, not another.
        await self.outbox.owe(Post(notice.record.id, TURN_POST, {"turn": notice.turn.key},
                                   key=turn_post_key(notice.record.id), once=True))

    async def deliver_turn(self, row: OutboxRow) -> bool:
        """Post an owed turn ping if its turn is still the battle's; False when it is over (nothing to post)."""
        assert row.battle_id is not None
        found = await self.service.current(row.battle_id)
        if found is None:
            return False
        record, battle = found
        key = str(row.payload.get("turn"))
        if (battle.status != "active" or battle.system.phases is not None
                or battle.system.verdict(battle) is not None or turn_key(battle) != key):
            return False
        clock = await self.service.clock_of(record)
        if clock.turn_key != key:
            # The order is committed but its turn's clock not yet started (its process stopped in between):
            # the scheduler starts it; the ping says the deadline, so it waits for that.
            raise TryLater(backoff(row.attempts, self.outbox.backoff))
        turn = TurnStart(key=key, units=tuple(due_now(battle)), started=clock.turn_started or record.updated_at,
                         due_at=clock.due_at, paused=clock.paused, remaining=clock.remaining)
        # The clock just read goes along: the ping checks the same turn with nothing awaited in between.
        await self.post_turn(Notice("recovered", record, battle, turn=turn, clock=clock))
        return True

    async def deliver_board(self, row: OutboxRow) -> bool:
        """Bring a battle's status board up to date (an owed edit the lane could not make)."""
        assert row.battle_id is not None
        await self.update_board(row.battle_id)
        return True

    async def board_refused(self, battle_id: int) -> None:
        """Keep a board edit Discord refused in the outbox, so it is made later, after a restart too."""
        await self.outbox.keep(Post(battle_id, BOARD_POST, {}, key=board_key(battle_id), delay=self.outbox.backoff))

    async def acted(self, notice: Notice) -> None:
        """A player who gave an order is no longer stalling: their unanswered reminders count again from zero."""
        assert notice.actor is not None
        await self.service.acted(notice.record.id, notice.actor.user_id)

    def wants(self, notice: Notice) -> bool:
        """Present battles of units' turns; a system with phases of its own (Surface Combat) has its own cog's."""
        return notice.battle.system.phases is None

    async def __call__(self, notice: Notice) -> bool:
        """Handle a notice; of a battle another listener presents, keep only its setup panel up to date."""
        if not self.wants(notice) and notice.kind in BOARD_NOTICES and panel_changed(notice):
            self.boards.request(notice.record.id)
        return await super().__call__(notice)

    def heard(self, notice: Notice) -> None:
        """Ask for the status board to be brought up to date when the notice changed what it shows."""
        if notice.kind in BOARD_NOTICES:
            # The board has a lane of its own: a slow or rate-limited edit never holds up a ping.
            self.boards.request(notice.record.id)

    # --- the status board ---------------------------------------------------

    async def update_board(self, battle_id: int) -> None:
        """Edit the battle's pinned status board to its newest state, posting and pinning it if it is gone."""
        # One process at a time: with several bot processes, two could otherwise both find no board and
        # post two, or edit in the wrong order and leave an older state showing.
        key = board_key(battle_id)
        async with self.service.board_lock(battle_id):
            newest = await self.outbox.newest_of(key)
            await self._update_board(battle_id)
        if newest is not None:
            # The edit showed the battle as it was when these were owed, or newer: they are made.
            await self.outbox.settle_key(key, newest)

    async def _update_board(self, battle_id: int) -> None:
        found = await self.service.current(battle_id)
        if found is None:
            return
        record, battle = found
        if battle.system.has_map:
            # While the battle is set up its board is the GM's setup panel too: what is missing, and buttons.
            embed = board_embed(record, battle, await self.service.clock_of(record))
            view = setup_view(record, battle)
        else:
            # The board shows squares and turns; a map-less system posts its own setup panel in its place, if any.
            panel = front_end(battle).setup_panel
            if panel is None:
                return
            embed, view = panel(record, battle)
        ref = await self.service.message_ref(record.id, BOARD_KIND)
        if ref is not None:
            message = self.bot.get_partial_messageable(ref.channel_id, guild_id=record.guild_id).get_partial_message(
                ref.message_id)
            try:
                await message.edit(embed=embed, view=view, allowed_mentions=NO_PINGS)
                return
            except discord.NotFound:
                log.info("status board of battle %s was deleted; posting a new one", record.id)
        posted = await send(self.channel(record), embed=embed, view=view)
        await self.service.keep_message_ref(record.id, BOARD_KIND, posted.channel.id, posted.id)
        try:
            await posted.pin(reason="battlepost status board")
        except discord.HTTPException as exc:
            log.warning("could not pin the status board of battle %s (%s); it stays unpinned", record.id, exc.status)

    # --- whose turn ---------------------------------------------------------

    async def _recipients(self, record: BattleRecord, units: Sequence[Unit]) -> tuple[dict[str, int], list[int], list[int]]:
        """Return who commands each unit (the GM for unowned ones), and who hears in the channel or by DM."""
        owners = {u.name: u.owner or record.created_by for u in units}
        channel_users: list[int] = []
        dm_users: list[int] = []
        for uid in dict.fromkeys(owners.values()):
            mode = await self.service.notify_mode(uid)
            (dm_users if mode == "dm" else channel_users).append(uid)
        return owners, channel_users, dm_users

    async def _dm(self, user_id: int, content: str, *, embed: discord.Embed | None = None, png: MapImage | None = None,
                  view: discord.ui.View | None = None) -> bool:
        """Send a direct message; return False when the player cannot be reached that way."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await send(user, content=content, embed=embed, png=png, view=view)
        except discord.HTTPException as exc:
            log.info("could not DM user %s (%s); mentioning them in the channel instead", user_id, exc.status)
            return False
        return True

    async def post_turn(self, notice: Notice) -> None:
        """Ping the owners of the units now due, with the map, their options, the deadline and buttons."""
        turn, record, battle = notice.turn, notice.record, notice.battle
        assert turn is not None
        clock = notice.clock if notice.clock is not None else await self.service.clock_of(record)
        if clock.turn_key != turn.key:
            return  # that turn is already over (a skip or a deadline came right after); its successor is called
        units = [u for u in (battle.find_unit(n) for n in turn.units) if u is not None]
        if not units:
            return
        owners, channel_users, dm_users = await self._recipients(record, units)
        # A player who muted this turn is neither mentioned nor sent a DM; their units still show in the prompt.
        awake = await self.service.pingable(record.id, turn.key, list(owners.values()))
        channel_users = [uid for uid in channel_users if uid in awake]
        dm_users = [uid for uid in dm_users if uid in awake]
        if quiet_now(clock, self.service.clock()):
            # Quiet hours: the prompt is posted without a ping; the ping comes at their end (a HELD_TURN timer).
            channel_users, dm_users = [], []
        # The ping is public: a unit in hiding is named, but its square is neither marked nor drawn.
        png = await self.service.render(battle, Highlight(cells=[str(u.cell) for u in units if sees(PUBLIC, u)]),
                                        battle_id=record.id)
        known: dict[str, list[ActionGroup]] = {}  # a unit's actions, worked out once for its DM and the channel
        for uid in dm_users:
            mine = [u for u in units if owners[u.name] == uid]
            embed = turn_prompt(battle, mine, turn.due_at, paused=turn.paused, remaining=turn.remaining, owners={})
            place = f"<#{record.thread_id or record.channel_id}>"
            sent = await self._dm(uid, f"\U0001f514 Your turn in **{battle.name}** ({place}).", embed=embed, png=png,
                                  view=await self._buttons(record, battle, mine, known))
            if not sent:
                channel_users.append(uid)
        embed = turn_prompt(battle, units, turn.due_at, paused=turn.paused, remaining=turn.remaining, owners=owners)
        await send(self.channel(record), content=turn_content(battle, channel_users), embed=embed, png=png,
                   view=await self._buttons(record, battle, units, known), mentions=pinging(channel_users))

    async def _buttons(self, record: BattleRecord, battle: Battle, units: Sequence[Unit],
                       known: dict[str, list[ActionGroup]]) -> discord.ui.View:
        """Return a prompt's buttons: the next actions of the one unit due, else End turn and My options per unit.

        `known` holds the actions already worked out for this ping's prompts, by unit id.
        """
        actions = None
        if len(units) == 1 and battle.system.has_map:
            unit = units[0]
            if unit.id not in known:
                known[unit.id] = await groups_of(battle, unit)
            actions = (unit.id, known[unit.id])
        return turn_view(record.id, [u.name for u in units], actions)

    async def post_reminder(self, notice: Notice) -> None:
        """Remind the players still due that the deadline is near."""
        record, battle, clock = notice.record, notice.battle, notice.clock
        assert clock is not None
        names = list(notice.extra.get("units", []))
        units = [u for u in (battle.find_unit(n) for n in names) if u is not None]
        owners, channel_users, dm_users = await self._recipients(record, units)
        meant_for = str(notice.extra.get("for", BATTLE_REMINDERS))
        reached = await self.service.to_remind(clock, list(dict.fromkeys(owners.values())), meant_for,
                                               bool(notice.extra.get("first", True)))
        if meant_for == HELD_TURN:
            await self._held_turn(record, battle, clock, units, owners, channel_users, dm_users, reached)
            return
        channel_users = [uid for uid in channel_users if uid in reached]
        dm_users = [uid for uid in dm_users if uid in reached]
        for uid in dm_users:
            mine = [u.name for u in units if owners[u.name] == uid]
            if not await self._dm(uid, reminder_content(battle, mine, [], clock)):
                channel_users.append(uid)
        if channel_users:
            shown = [u.name for u in units if owners[u.name] in channel_users]
            await send(self.channel(record), content=reminder_content(battle, shown, channel_users, clock),
                       mentions=pinging(channel_users))
        stalling = await self.service.reminded(clock, reached)
        if stalling:
            await self.report_stalling(record, battle, owners, stalling)

    async def _held_turn(self, record: BattleRecord, battle: Battle, clock: ClockRecord, units: Sequence[Unit],
                         owners: dict[str, int], channel_users: list[int], dm_users: list[int],
                         reached: list[int]) -> None:
        """Ping the players of a turn that began in quiet hours, now that they are over (not a reminder)."""
        channel_users = [uid for uid in channel_users if uid in reached]
        for uid in [uid for uid in dm_users if uid in reached]:
            mine = [u.name for u in units if owners[u.name] == uid]
            if not await self._dm(uid, held_turn_content(battle, mine, [], clock)):
                channel_users.append(uid)
        if channel_users:
            shown = [u.name for u in units if owners[u.name] in channel_users]
            await send(self.channel(record), content=held_turn_content(battle, shown, channel_users, clock),
                       mentions=pinging(channel_users))

    async def report_stalling(self, record: BattleRecord, battle: Battle, owners: dict[str, int],
                              stalling: Sequence[Stalling]) -> None:
        """Tell the GM privately (their thread, the GM role pinged there; else a DM) who lets reminders pass."""
        role = await self.service.gm_role(record.guild_id)
        lines = []
        for stall in stalling:
            mine = [name for name, owner in owners.items() if owner == stall.user_id]
            lines.append(stall_line(stall.user_id, mine, stall.reminders, stall.since))
        head = f"{mentions([record.created_by])}{f' <@&{role}>' if role else ''}"
        content = (f"\U0001f422 {head}: in **{safe(battle.name)}** " + " ".join(lines) +
                   " /gm skip passes the turn, /gm deadline gives more time.")
        await SideThreads(self.bot).to_gm(record, battle, content[:2000], role_id=role)

    async def post_deadline(self, notice: Notice) -> None:
        """Say what a passed deadline did; when the battle waits for its GM, ping the GM."""
        record, battle, clock = notice.record, notice.battle, notice.clock
        assert clock is not None
        extra = notice.extra
        # Standing orders are given for units the channel may not see: it reads them as the public may.
        outcomes = [redact(o, battle, PUBLIC) for o in extra.get("outcomes", [])]
        waiting = bool(extra.get("waiting"))
        embed = deadline_embed(battle, list(extra.get("units", [])), clock, outcomes,
                               list(extra.get("failures", [])), waiting=waiting)
        gm = [record.created_by] if waiting else []
        content = f"{mentions(gm)} the deadline has passed; over to you." if waiting else None
        png = None
        moved = [o for o in outcomes if o.highlight.path or o.highlight.line]
        if moved:
            png = await self.service.render(battle, outcome=moved[0], battle_id=record.id)
        # Owed through the outbox: what the deadline did reaches the channel however long Discord refuses it.
        await self.outbox.owe(owed_message(record.thread_id or record.channel_id, guild_id=record.guild_id,
                                           battle_id=record.id, content=content, embed=embed, png=png, mention=gm))
