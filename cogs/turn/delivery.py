"""Deliver the notifier's posts at least once, the urgent ones first.

A post Discord refuses (a 5xx after discord.py's own retries, a timeout) is tried again later rather
than dropped. Status-board edits run in a lane of their own per battle and coalesce: while one edit
waits on Discord (a rate limit, say), later changes fold into a single edit of the newest state, and
turn pings never queue behind them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

log = logging.getLogger(__name__)

# Seconds before each new try of a refused post; after the last, the post is given up (and logged).
RETRY_DELAYS = (10.0, 60.0, 300.0, 1800.0, 3600.0)

Track = Callable[["asyncio.Task[None]"], None]


class Retries:
    """Run refused posts again after growing delays; waiting costs no task, so shutdown never waits on it."""

    def __init__(self, track: Track, delays: tuple[float, ...] = RETRY_DELAYS) -> None:
        self.track = track
        self.delays = delays
        self._waiting: set[asyncio.TimerHandle] = set()

    def again(self, what: str, attempt: int, post: Callable[[int], Awaitable[None]]) -> None:
        """Schedule try number attempt + 1 of a post, or give it up when the tries are spent."""
        if attempt >= len(self.delays):
            log.error("gave up on %s after %d tries", what, attempt + 1)
            return
        loop = asyncio.get_running_loop()

        def start() -> None:
            self._waiting.discard(handle)
            task = loop.create_task(self._run(what, attempt + 1, post), name=f"retry {what}")
            self.track(task)

        handle = loop.call_later(self.delays[attempt], start)
        self._waiting.add(handle)

    async def _run(self, what: str, attempt: int, post: Callable[[int], Awaitable[None]]) -> None:
        try:
            await post(attempt)
        except discord.HTTPException as exc:
            log.warning("%s failed again (%s); trying later", what, exc.status)
            self.again(what, attempt, post)

    def cancel(self) -> None:
        """Forget every retry still waiting (the bot is shutting down)."""
        for handle in self._waiting:
            handle.cancel()
        self._waiting.clear()


class BoardLane:
    """Edit each battle's status board in its own lane, at most one edit per `spacing` seconds per battle.

    The first change after a quiet spell is shown at once. Changes asked for while an edit runs, or within
    `spacing` of the last edit's start, fold into one later edit, which reads the newest state: a burst of
    orders ends with the board showing its last one. That later edit waits on a timer, not a task, so
    delivering an order's notices never waits out the spacing.
    """

    def __init__(self, edit: Callable[[int], Awaitable[None]], track: Track, retries: Retries, *,
                 spacing: float = 0.0, refused: Callable[[int], Awaitable[None]] | None = None) -> None:
        self.edit = edit
        self.track = track
        self.retries = retries
        self.spacing = spacing
        # Given, a refused edit is handed to it (to keep in the outbox) instead of to the retries here.
        self.refused = refused
        self._running: set[int] = set()
        self._again: set[int] = set()
        self._last: dict[int, float] = {}
        self._waiting: dict[int, asyncio.TimerHandle] = {}

    def request(self, battle_id: int, attempt: int = 0) -> None:
        """Bring a battle's board up to date: now if it was not edited lately, else once the spacing is up."""
        if battle_id in self._running:
            self._again.add(battle_id)
            return
        if battle_id in self._waiting:
            return  # the edit already due reads the state as it is then
        loop = asyncio.get_running_loop()
        wait = self._last.get(battle_id, -self.spacing) + self.spacing - loop.time()
        if wait > 0:
            self._waiting[battle_id] = loop.call_later(wait, self._start, battle_id, attempt)
            return
        self._start(battle_id, attempt)

    def pending(self) -> bool:
        """Return whether an edit is running or waiting for its turn."""
        return bool(self._running or self._waiting)

    def _start(self, battle_id: int, attempt: int) -> None:
        self._waiting.pop(battle_id, None)
        self._running.add(battle_id)
        loop = asyncio.get_running_loop()
        self._last[battle_id] = loop.time()
        if len(self._last) > 1024:  # forget battles whose spacing is long over
            horizon = loop.time() - self.spacing
            self._last = {b: t for b, t in self._last.items() if t >= horizon}
        task = loop.create_task(self._run(battle_id, attempt), name=f"board-{battle_id}")
        self.track(task)

    async def _run(self, battle_id: int, attempt: int) -> None:
        self._again.discard(battle_id)
        try:
            await self.edit(battle_id)
        except discord.HTTPException as exc:
            log.warning("could not update the status board of battle %s (%s); trying later", battle_id,
                        exc.status)
            if self.refused is not None:
                await self.refused(battle_id)
                return
            self.retries.again(f"the status board of battle {battle_id}", attempt,
                               lambda tries: self._retry(battle_id, tries))
            return
        finally:
            self._running.discard(battle_id)
        if battle_id in self._again:
            self._again.discard(battle_id)
            self.request(battle_id)

    async def _retry(self, battle_id: int, attempt: int) -> None:
        self.request(battle_id, attempt)

    def cancel(self) -> None:
        """Forget the edits still waiting for their turn (the bot is shutting down)."""
        for handle in self._waiting.values():
            handle.cancel()
        self._waiting.clear()
