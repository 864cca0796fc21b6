"""Deliver the posts the bot owes Discord from the outbox, across refusals, restarts and process kills.

Every post is a row first (storage.outbox). The process that owes a post sends it at once (`owe`, or
`send_now` for a row written with an order); should Discord refuse it, or the process stop, the delivery
loop (`run_forever`, one per process) claims it again when it is due: after a backoff that doubles with
each refused attempt, or after the wait a 429 asks for, or when the lease of a process that stopped runs
out. A post is settled when Discord takes it, when its handler finds it obsolete (a turn already over),
or when Discord refuses it for good (a 4xx other than a rate limit: a deleted channel, a lost permission).

What a kind of post does is a handler, registered by the front end that owns the post: the outbox knows
how to retry, not what a turn ping says. The one kind it sends itself is `message`: a finished message
(content, embeds, a file and whom it may mention), such as an order's result whose interaction is gone.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import aiohttp
import discord

from storage import Database, OutboxRow, Post

log = logging.getLogger(__name__)

__all__ = ["MESSAGE", "Outbox", "OutboxRow", "Post", "TryLater", "backoff", "message_post", "rebuilt_view"]

LEASE = 300.0  # far longer than any one post takes, discord.py's own retries and rate-limit waits included
IN_FLIGHT = 16  # posts the loop sends at once
BACKOFF = 2.0  # seconds before the second attempt; doubled for each later one
MAX_BACKOFF = 900.0
POLL = 2.0  # at most this long between two looks at the outbox
GRACE = 10.0  # a post written with an order is the loop's only once its writer had time to send it
KEEP_SETTLED = 86_400.0  # a settled post is kept this long (to look into), then forgotten
PURGE_EVERY = 3_600.0
MAX_FILE = 2 * 1024 * 1024  # a bigger file is left out of a stored message (its text still goes)
MESSAGE = "message"

Handler = Callable[[OutboxRow], Awaitable[bool | None]]
Clock = Callable[[], float]


class TryLater(Exception):
    """Raised by a handler whose post cannot be made yet (the turn's clock is not started); retried after `wait`."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"not ready; try again in {wait:g} s")
        self.wait = wait


def message_post(channel_id: int, *, guild_id: int | None, battle_id: int | None = None, content: str | None = None,
                 embeds: Sequence[discord.Embed] = (), mention: Sequence[int] = (), file: bytes | None = None,
                 filename: str = "", description: str | None = None, view: discord.ui.View | None = None) -> Post:
    """Return a finished message to owe a channel, mentioning exactly the users in `mention`.

    A view's buttons and menus are kept by their custom ids: the bot's persistent items answer them whichever
    process posts the message, and after a restart.
    """
    payload: dict[str, Any] = {"channel": channel_id, "guild": guild_id, "content": content,
                               "embeds": [e.to_dict() for e in embeds], "mention": list(mention),
                               "components": view.to_components() if view is not None else []}
    if file is not None and len(file) <= MAX_FILE:
        payload["file"] = {"name": filename, "data": base64.b64encode(file).decode("ascii"),
                           "description": description}
    return Post(battle_id, MESSAGE, payload)


def rebuilt_view(rows: Sequence[dict[str, Any]]) -> discord.ui.View | None:
    """Return a view of the buttons and select menus of stored action rows (None when there are none)."""
    view = discord.ui.View(timeout=None)
    for number, row in enumerate(rows):
        for part in row.get("components", []):
            item: discord.ui.Item[discord.ui.View]
            if part.get("type") == discord.ComponentType.button.value:
                emoji = part.get("emoji")
                item = discord.ui.Button(
                    style=discord.ButtonStyle(part.get("style", 2)), label=part.get("label"),
                    custom_id=part.get("custom_id"), url=part.get("url"), disabled=bool(part.get("disabled")),
                    emoji=discord.PartialEmoji.from_dict(emoji) if emoji else None, row=number)
            elif part.get("type") == discord.ComponentType.string_select.value:
                item = discord.ui.Select(
                    custom_id=part["custom_id"], placeholder=part.get("placeholder"),
                    min_values=part.get("min_values", 1), max_values=part.get("max_values", 1),
                    disabled=bool(part.get("disabled")), row=number,
                    options=[discord.SelectOption(label=o["label"], value=o.get("value", o["label"]),
                                                  description=o.get("description"), default=bool(o.get("default")))
                             for o in part.get("options", [])])
            else:
                continue  # no other kind is posted by the bot
            view.add_item(item)
    return view if view.children else None


def backoff(attempts: int, base: float = BACKOFF) -> float:
    """Return the wait before the next try of a post refused `attempts` times."""
    return float(min(MAX_BACKOFF, base * 2.0 ** max(0, attempts - 1)))


def _retry_after(exc: Exception) -> float | None:
    """Return how long Discord asked the bot to wait, when it did (a 429)."""
    if isinstance(exc, discord.RateLimited):
        return float(exc.retry_after)
    if isinstance(exc, discord.HTTPException) and exc.status == 429:
        header = exc.response.headers.get("Retry-After") if exc.response is not None else None
        with contextlib.suppress(TypeError, ValueError):
            return float(header) if header is not None else None
    return None


def _for_good(exc: Exception) -> bool:
    """Return whether Discord refused a post for good: a 4xx but a rate limit (sending it again changes nothing)."""
    return (isinstance(exc, discord.HTTPException) and not isinstance(exc, discord.RateLimited)
            and 400 <= exc.status < 500 and exc.status != 429)


class Outbox:
    """Send owed posts through their kind's handler, once each, and try refused ones again later."""

    def __init__(self, db: Database, client: discord.Client, *, clock: Clock = time.time, lease: float = LEASE,
                 backoff: float = BACKOFF, grace: float = GRACE) -> None:
        self.db = db
        self.client = client
        self.clock = clock
        self.lease = lease
        self.backoff = backoff
        self.grace = grace
        self.handlers: dict[str, Handler] = {MESSAGE: self._send_message}
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()

    def register(self, kind: str, handler: Handler) -> None:
        """Make `handler` the sender of posts of this kind (it returns False when the post is obsolete)."""
        self.handlers[kind] = handler

    async def owe(self, post: Post, *, raise_refusal: bool = False) -> bool:
        """Keep a post in the outbox and send it now; return whether Discord took it (else it is retried later).

        With raise_refusal, a refusal for good is raised (after the row is settled) for the caller to report.
        """
        post_id = await self.db.outbox.add(post, self.clock())
        return await self.send_id(post_id, raise_refusal=raise_refusal)

    async def keep(self, post: Post) -> int:
        """Keep a post in the outbox for the loop to send when it is due; return its id."""
        return await self.db.outbox.add(post, self.clock())

    async def newest_of(self, key: str) -> int | None:
        """Return the id of the newest post still owed under a key, if any."""
        return await self.db.outbox.newest_of(key)

    async def settle_key(self, key: str, upto: int) -> int:
        """Settle as made every post owed under a key up to this id (a newer one stands for them); return how many."""
        return await self.db.outbox.settle_key(key, upto, self.clock())

    def send_now(self, post_id: int) -> asyncio.Task[bool]:
        """Start sending one owed post in the background (the loop takes it if this process cannot)."""
        task = asyncio.get_running_loop().create_task(self.send_id(post_id), name=f"outbox-{post_id}")
        self._keep(task)
        return task

    async def send_id(self, post_id: int, *, raise_refusal: bool = False) -> bool:
        """Claim one owed post and send it; return whether it is settled as sent (False: someone else has it)."""
        row = await self.db.outbox.claim(post_id, self.clock(), self.lease)
        if row is None:
            return False
        return await self.deliver(row, raise_refusal=raise_refusal)

    async def deliver(self, row: OutboxRow, *, raise_refusal: bool = False) -> bool:
        """Run a claimed post's handler and settle or postpone it by what happened; return whether it was sent."""
        handler = self.handlers.get(row.kind)
        if handler is None:
            # Another process (a newer release, a plug-in's front end) may know it: leave it to the lease.
            log.warning("no handler for owed post %s of kind %r here; leaving it", row.id, row.kind)
            return False
        try:
            made = await handler(row)
        except TryLater as later:
            await self._postpone(row, later.wait, f"not ready ({later})")
            return False
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
            if _for_good(exc):
                log.warning("Discord refused post %s (%s of battle %s) for good: %s", row.id, row.kind,
                            row.battle_id, exc)
                await self.db.outbox.settle(row, "refused", self.clock())
                if raise_refusal:
                    raise
                return False
            wait = _retry_after(exc)
            await self._postpone(row, backoff(row.attempts, self.backoff) if wait is None else wait, repr(exc))
            return False
        except Exception:
            log.exception("sending post %s (%s of battle %s) failed; trying again later", row.id, row.kind,
                          row.battle_id)
            await self._postpone(row, backoff(row.attempts, self.backoff), "an error")
            return False
        if not await self.db.outbox.settle(row, "obsolete" if made is False else "sent", self.clock()):
            log.warning("post %s was claimed again while being sent (its lease ran out)", row.id)
        return made is not False

    async def _postpone(self, row: OutboxRow, wait: float, why: str) -> None:
        log.info("post %s (%s of battle %s) not made (%s); trying again in %.1f s", row.id, row.kind,
                 row.battle_id, why, wait)
        await self.db.outbox.postpone(row, self.clock() + wait)
        self._wake.set()

    async def run_due(self) -> int:
        """Claim and start the posts due now, each in its own task so one slow post holds up no other.

        At most IN_FLIGHT at once: a post claimed waits for Discord (its rate limits) inside its lease, so a
        backlog after downtime is taken a few at a time rather than leased all at once and left to expire.
        """
        started = 0
        while len(self._tasks) < IN_FLIGHT:
            row = await self.db.outbox.claim_due(self.clock(), self.lease)
            if row is None:
                break
            task = asyncio.get_running_loop().create_task(self.deliver(row), name=f"outbox-{row.id}")
            self._keep(task)
            task.add_done_callback(lambda _task: self._wake.set())  # room for the next one
            started += 1
        return started

    async def run_forever(self, poll: float = POLL, *, ready: Callable[[], Awaitable[Any]] | None = None) -> None:
        """Send due posts until cancelled, waking when a post is postponed or every `poll` seconds."""
        if self.db.backend == "sqlite":
            # A SQLite file serves one process: whatever its last run had leased, nobody is sending now. Done
            # before the bot is ready, so nothing this run claims is freed.
            freed = await self.db.outbox.release_all()
            if freed:
                log.info("%d post(s) left half-sent by the last run are owed again", freed)
        if ready is not None:
            await ready()
        purged_at = 0.0
        while True:
            try:
                if self.clock() - purged_at >= PURGE_EVERY:
                    purged_at = self.clock()
                    await self.db.outbox.purge(purged_at - KEEP_SETTLED)
                await self.run_due()
                due = await self.db.outbox.next_due()
            except Exception:
                log.exception("the outbox failed a pass; it tries again in %.0f s", poll)
                due = None
            wait = poll if due is None else min(poll, max(0.05, due - self.clock()))
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)

    async def drain(self) -> None:
        """Wait for the posts being sent now (not for the ones waiting out a backoff)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _keep(self, task: asyncio.Task[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send_message(self, row: OutboxRow) -> bool:
        """Post a finished message in its channel, mentioning exactly the users it names."""
        payload = row.payload
        channel = self.client.get_partial_messageable(int(payload["channel"]), guild_id=payload.get("guild"))
        mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                           users=[discord.Object(id=int(uid)) for uid in payload.get("mention", [])])
        kwargs: dict[str, Any] = {"content": payload.get("content"), "allowed_mentions": mentions,
                                  "embeds": [discord.Embed.from_dict(e) for e in payload.get("embeds", [])]}
        view = rebuilt_view(payload.get("components", []))
        if view is not None:
            # Stopped, so discord.py keeps no copy: the bot's persistent items answer these by their ids.
            view.stop()
            kwargs["view"] = view
        stored = payload.get("file")
        if stored:
            kwargs["file"] = discord.File(io.BytesIO(base64.b64decode(stored["data"])), filename=stored["name"],
                                          description=stored.get("description"))
        await channel.send(**kwargs)
        return True
