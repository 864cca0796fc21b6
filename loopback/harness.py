"""Drive a real discord.py bot against the loopback stand-in: set up a server, then act as its users."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Any

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from loopback.components import component_data, modal_data
from loopback.errors import InteractionError
from loopback.interactions import InteractionBuilder
from loopback.models import LoopbackChannel, LoopbackUser, MessageBody, StoredMessage
from loopback.payloads import DEFAULT_BOT_PERMISSIONS
from loopback.replies import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    DEFERRED_CHANNEL_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionRecord,
    Reply,
)
from loopback.roster import Roster, permission_bits
from loopback.server import LoopbackServer
from loopback.world import World

log = logging.getLogger(__name__)

async def identify_now(self: discord.Client, shard_id: int | None, *, initial: bool = False) -> None:
    """Identify without waiting: the stand-in does not rate-limit IDENTIFY."""


# A bot built with discord.py's default guild_ready_timeout waits 2 s after the last GUILD_CREATE.
SLOW_GUILD_READY = 0.5


class LoopbackDiscord(Roster):
    """Run a loopback Discord on 127.0.0.1 and let a test (or the console) act as its users.

    Use as ``async with LoopbackDiscord() as discord:``; it points discord.py's REST base and gateway
    at itself while open and restores them on exit. Create bots with ``guild_ready_timeout=0.05``:
    discord.py otherwise waits 2 s for more guilds before it is ready.
    """

    _active: LoopbackDiscord | None = None

    def __init__(
        self,
        *,
        guild_name: str = "Test Server",
        bot_name: str = "battlepost",
        bot_permissions: int | discord.Permissions = DEFAULT_BOT_PERMISSIONS,
        timeout: float = 10.0,
        settle: float = 0.03,
        quiet_after_reply: bool = True,
        ack_window: float | None = None,
        guild_id: int | None = None,
    ) -> None:
        world = World(bot_name=bot_name)
        super().__init__(world, LoopbackServer(world), permission_bits(bot_permissions), guild_name, guild_id)
        self.builder = InteractionBuilder(world)
        # Discord forgets an interaction not answered within 3 s; tests of that set this window.
        world.ack_window = ack_window
        self.timeout = timeout
        self.settle_quiet = settle
        # Off for load tests: with many bots busy the server is never quiet, and a reply is done when answered.
        self.quiet_after_reply = quiet_after_reply
        self._bot: discord.Client | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._saved: tuple[str, yarl.URL, Any] | None = None

    # Lifecycle

    async def __aenter__(self) -> LoopbackDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Start the server and point discord.py's REST base and gateway URL at it."""
        if LoopbackDiscord._active is not None:
            raise RuntimeError("another LoopbackDiscord is open; discord.py's URLs are process-wide")
        await self.server.start()
        self._saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, discord.Client.before_identify_hook)
        Route.BASE = self.server.base_url + "/api/v10"
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.server.gateway_url)
        # Sharded bots wait 5 s between IDENTIFYs (Discord's limit); the stand-in has no such limit.
        discord.Client.before_identify_hook = identify_now  # type: ignore[method-assign]
        LoopbackDiscord._active = self

    async def close(self) -> None:
        """Stop the bot if it runs, stop the server and restore discord.py's URLs."""
        try:
            if self._bot is not None:
                await self.stop_bot()
        finally:
            await self.server.close()
            if self._saved is not None:
                Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, hook = self._saved
                discord.Client.before_identify_hook = hook  # type: ignore[method-assign]
                self._saved = None
            if LoopbackDiscord._active is self:
                LoopbackDiscord._active = None

    async def start_bot(
        self, bot: discord.Client, token: str = "loopback-token", *, wait_for_sync: bool = True
    ) -> None:
        """Run bot.start(token) in a task; return once it is ready and (by default) has synced its commands."""
        if self._bot is not None:
            raise RuntimeError("a bot is already running; call stop_bot() first")
        if getattr(bot._connection, "guild_ready_timeout", 0) > SLOW_GUILD_READY:
            log.warning(
                "bot has guild_ready_timeout=%s; pass guild_ready_timeout=0.05 to start fast",
                bot._connection.guild_ready_timeout,
            )
        self.server.token = token
        self.server.gateway.token = token
        syncs_before = self.world.command_syncs
        self._outbox.clear()
        self._bot = bot
        self._bot_task = asyncio.create_task(bot.start(token), name="loopback-bot")
        # Login runs setup_hook (migrations, cog loading), so allow it more than one interaction's time.
        await self._poll(bot.is_ready, "the bot to become ready", max(30.0, self.timeout))
        if wait_for_sync:
            await self._poll(
                lambda: self.world.command_syncs > syncs_before,
                "the bot to sync its commands (pass wait_for_sync=False if it does not)",
                self.timeout,
            )
        await self.settle()
        log.info("bot %s is running against the loopback", self.world.bot_user.name)

    async def serve_processes(self, token: str, shard_count: int, *, limit: float = 60.0) -> None:
        """Wait until bots in other processes (see ``launch``) connect on every shard and sync their commands."""
        self.server.token = token
        self.server.gateway.token = token
        await self.wait_for_shards(set(range(shard_count)), limit=limit)
        await self._poll(lambda: self.world.command_syncs > 0, "a bot process to sync its commands", limit)
        await self.settle()

    async def wait_for_shards(self, shards: set[int], *, limit: float = 60.0) -> None:
        """Wait until identified gateway sessions cover these shard ids (a restarted process reconnecting)."""

        def covered() -> bool:
            live = {s.shard[0] for s in self.server.gateway.identified_sessions() if s.shard is not None}
            return shards <= live

        await self._poll(covered, f"bot processes to connect shards {sorted(shards)}", limit)

    async def stop_bot(self) -> None:
        """Close the bot; the stand-in keeps its messages, files and synced commands for a restart."""
        bot, task = self._bot, self._bot_task
        self._bot, self._bot_task = None, None
        if bot is None or task is None:
            return
        await self._flush()
        await bot.close()
        # bot.start() returns once closed; awaiting it surfaces a crash instead of hiding it.
        await asyncio.wait_for(task, timeout=self.timeout)
        await self.server.gateway.close()

    async def until(self, done: Callable[[], object], what: str, *, limit: float | None = None) -> None:
        """Wait until `done()` is true, e.g. a button the bot deferred (which needs no follow-up) got its answer."""
        await self._poll(lambda: bool(done()), what, self.timeout if limit is None else limit)

    async def _poll(self, done: Callable[[], bool], what: str, limit: float, every: float = 0.005) -> None:
        # discord.py has no awaitable for "ready" before login, so poll while watching the bot task.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while not done():
            if self._bot_task is not None and self._bot_task.done():
                await self._bot_crashed(f"the bot stopped while waiting for {what}")
            if loop.time() > deadline:
                raise TimeoutError(f"timed out after {limit:g}s waiting for {what}")
            await asyncio.sleep(every)

    async def _bot_crashed(self, message: str) -> None:
        bot, task = self._bot, self._bot_task
        self._bot, self._bot_task = None, None
        if bot is not None:
            # A failed login leaves discord.py's HTTP session open; close it so nothing leaks.
            await bot.close()
        if task is not None:
            task.result()
        raise RuntimeError(message)

    async def settle(self) -> None:
        """Deliver queued events, then wait until the bot has read them and made no request for a short while."""
        await self._flush()
        await self._poll(self._bot_read_all_events, "the bot to read its gateway events", self.timeout, 0.001)
        self.server.activity.touch()
        if not await self.server.activity.settle(self.settle_quiet, self.timeout):
            raise TimeoutError(f"the bot kept making requests for {self.timeout:g}s")

    def _bot_read_all_events(self) -> bool:
        """Return whether the bot's gateway socket has parsed every event sent to its session so far.

        discord.py stores an event's sequence number and runs its parser in one step with no await
        between, so a sequence at or past the last one sent proves every earlier event was parsed.
        Asking the client for a heartbeat would prove it too, but discord.py answers through its
        gateway rate limiter (110 frames a minute); past that it stops reading the socket until the
        minute is out, which stalled every test that settled often.
        """
        if self._bot is None:
            # A bot in another process: its events arrive in order, before any interaction sent after them.
            return True
        sockets = {ws.session_id: ws for ws in self._websockets()}
        for session in self.server.gateway.identified_sessions():
            ws = sockets.get(session.session_id)
            if ws is None or (ws.sequence or 0) < session.sequence:
                return False
        return True

    def _websockets(self) -> list[Any]:
        """Return the bot's gateway sockets: one, or one per shard of an AutoShardedClient."""
        bot = self._bot
        if isinstance(bot, discord.AutoShardedClient):
            # ShardInfo keeps its shard (and the shard its socket) in _parent; discord.py offers no public way.
            return [info._parent.ws for info in bot.shards.values()]
        return [] if bot is None or bot.ws is None else [bot.ws]

    @property
    def bot(self) -> discord.Client | None:
        """Return the running bot, if any."""
        return self._bot

    # Acting as users

    async def slash(
        self,
        command: str,
        /,
        *,
        user: LoopbackUser | None = None,
        channel: LoopbackChannel | None = None,
        options: Mapping[str, Any] | None = None,
        bypass_permissions: bool = False,
        within: float | None = None,
        **kwargs: Any,
    ) -> Reply:
        """Invoke a slash command ("battle rules set" for subcommands) and return the bot's answer.

        Options come as keyword arguments, or through ``options=`` when a name clashes with these
        parameters (an option called ``user``). Values are checked against the synced schema.
        """
        self._require_bot()
        user = user or self.default_user
        channel = channel or self.general
        given = {**(options or {}), **kwargs}
        data = self.builder.command_data(
            command, given, user=user, channel=channel, bypass_permissions=bypass_permissions
        )
        record = self.builder.envelope(
            APPLICATION_COMMAND, data, user=user, channel=channel, command_name=command
        )
        return await self._exchange(record, f"/{command}", within)

    async def autocomplete(
        self,
        command: str,
        option: str,
        value: str,
        /,
        *,
        user: LoopbackUser | None = None,
        channel: LoopbackChannel | None = None,
        options: Mapping[str, Any] | None = None,
        within: float | None = None,
        **kwargs: Any,
    ) -> list[dict[str, Any]]:
        """Type `value` into an autocomplete option and return the choices the bot offers."""
        self._require_bot()
        user = user or self.default_user
        channel = channel or self.general
        given = {**(options or {}), **kwargs, option: value}
        data = self.builder.command_data(command, given, user=user, channel=channel, focused=option)
        record = self.builder.envelope(AUTOCOMPLETE, data, user=user, channel=channel, command_name=command)
        reply = await self._exchange(record, f"autocomplete of /{command} {option}", within)
        return reply.choices

    async def click(
        self,
        message: StoredMessage | Reply,
        custom_id: str,
        /,
        *,
        user: LoopbackUser | None = None,
        within: float | None = None,
    ) -> Reply:
        """Press a button on a stored message and return the bot's answer."""
        return await self._component(message, custom_id, None, user, within)

    async def select(
        self,
        message: StoredMessage | Reply,
        custom_id: str,
        values: list[Any],
        /,
        *,
        user: LoopbackUser | None = None,
        within: float | None = None,
    ) -> Reply:
        """Choose values in a select menu on a stored message and return the bot's answer."""
        return await self._component(message, custom_id, list(values), user, within)

    async def _component(
        self,
        message: StoredMessage | Reply,
        custom_id: str,
        values: list[Any] | None,
        user: LoopbackUser | None,
        within: float | None,
    ) -> Reply:
        target = message.message if isinstance(message, Reply) else message
        if target is None:
            raise InteractionError("that reply has no message to interact with")
        user = user or self.default_user
        channel = self.world.channels[target.channel_id]
        data = component_data(self.world, target, custom_id, user, values)
        record = self.builder.envelope(MESSAGE_COMPONENT, data, user=user, channel=channel, message=target)
        return await self._exchange(record, f"component {custom_id!r}", within)

    async def submit_modal(
        self,
        reply: Reply,
        values: Mapping[str, Any],
        /,
        *,
        user: LoopbackUser | None = None,
        within: float | None = None,
    ) -> Reply:
        """Fill in and submit the modal the bot opened in `reply`; values are keyed by field custom_id."""
        modal = reply.modal
        if modal is None:
            raise InteractionError("the bot did not answer that interaction with a modal")
        origin = reply.interaction
        user = user or origin.user
        channel = self.world.channels[origin.channel_id]
        source = self.world.messages.get(origin.source_message_id or 0)
        data = modal_data(modal, values)
        record = self.builder.envelope(MODAL_SUBMIT, data, user=user, channel=channel, message=source)
        return await self._exchange(record, f"modal {modal.get('custom_id')!r}", within)

    async def post_message(self, channel: LoopbackChannel, user: LoopbackUser, content: str) -> StoredMessage:
        """Post a message as a user; the bot sees it as MESSAGE_CREATE (content only with its intent)."""
        await self._flush()
        message = self.world.create_message(
            channel.id, MessageBody(json={"content": content}), author_id=user.id
        )
        await self.server.announce.message_created(message)
        await self.settle()
        return message

    def _require_bot(self) -> None:
        if not self.server.gateway.identified_sessions():
            raise InteractionError("no bot is connected; call start_bot() (or start the bot's processes) first")

    async def _exchange(self, record: InteractionRecord, what: str, within: float | None) -> Reply:
        limit = self.timeout if within is None else within
        await self._flush()
        self._require_bot()
        serving = self.server.gateway.sessions_for(record.guild_id)
        if not serving:
            # What a user sees on Discord while the process running that shard is down.
            raise InteractionError(f"no connected bot serves the shard of {what}; the interaction failed")
        # Discord delivers an interaction once, to the session of the guild's shard.
        session = serving[0]
        self.world.register_interaction(record)
        loop = asyncio.get_running_loop()
        record.dispatched_at = loop.time()
        await session.dispatch("INTERACTION_CREATE", record.payload)
        deadline = loop.time() + limit
        await self._wait(
            record, record.answered, deadline, f"the bot did not answer {what} within {limit:g}s", session.closed
        )
        if record.response_type == DEFERRED_CHANNEL_MESSAGE:
            await self._wait(
                record, record.completed, deadline, f"the bot deferred {what} but never followed up", session.closed
            )
        if self.quiet_after_reply and not await self.server.activity.settle(
            self.settle_quiet, max(0.0, deadline - loop.time())
        ):
            raise TimeoutError(f"the bot kept making requests after {what}")
        return Reply(record, self.world)

    async def _wait(
        self, record: InteractionRecord, event: asyncio.Event, deadline: float, message: str,
        gone: asyncio.Event | None = None,
    ) -> None:
        loop = asyncio.get_running_loop()
        waiter = asyncio.ensure_future(event.wait())
        watched: set[asyncio.Future[Any]] = {waiter}
        lost = asyncio.ensure_future(gone.wait()) if gone is not None else None
        if lost is not None:
            watched.add(lost)
        if self._bot_task is not None:
            watched.add(self._bot_task)
        try:
            done, _ = await asyncio.wait(
                watched, timeout=max(0.0, deadline - loop.time()), return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            waiter.cancel()
            if lost is not None:
                lost.cancel()
        if waiter in done or event.is_set():
            return
        if lost is not None and lost in done:
            raise InteractionError(f"the bot's connection closed before it answered: {message}")
        if self._bot_task is not None and self._bot_task in done:
            await self._bot_crashed(f"the bot stopped: {message}")
        if record.rejections:
            message += "; Discord rejected its answer: " + "; ".join(record.rejections)
        raise TimeoutError(message)
