"""Hear the battles' changes that any process commits on a PostgreSQL database (LISTEN on one connection).

One connection per listening process, apart from the pools: it only waits. When it drops (the server
restarts, a network cut) it is opened again after a pause that grows up to `MAX_PAUSE`; while it is down
`alive` is False, so the caller falls back to looking for changes itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import asyncpg

from ..changes import CHANNEL, parse_payload
from ..errors import DatabaseUnavailable
from .engine import connect
from .url import redact

log = logging.getLogger(__name__)

FIRST_PAUSE = 1.0
MAX_PAUSE = 30.0

OnChange = Callable[[int, int], None]


class ChangeListener:
    """Call back with (battle id, version) for every change committed on the database, by any process."""

    def __init__(self, url: str, on_change: OnChange) -> None:
        self.url = url
        self.on_change = on_change
        self.alive = False
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @classmethod
    async def start(cls, url: str, on_change: OnChange) -> ChangeListener:
        """Start listening; return once the first connection listens (or failed once: it keeps trying)."""
        listener = cls(url, on_change)
        listener._task = asyncio.get_running_loop().create_task(listener._run(), name="battlepost-listen")
        await listener._ready.wait()
        return listener

    def _heard(self, _conn: Any, _pid: int, _channel: str, text: str) -> None:
        found = parse_payload(text)
        if found is None:
            return
        try:
            self.on_change(*found)
        except Exception:  # one listener's fault must not stop the notices to the others
            log.exception("a listener of battle changes failed")

    async def _run(self) -> None:
        pause = FIRST_PAUSE
        while True:
            try:
                conn = await connect(self.url)
            except DatabaseUnavailable as exc:
                log.warning("cannot listen for battle changes (%s); trying again in %.0f s", exc, pause)
                self._ready.set()
                await asyncio.sleep(pause)
                pause = min(pause * 2, MAX_PAUSE)
                continue
            lost = asyncio.Event()
            conn.add_termination_listener(lambda _c, done=lost: done.set())
            try:
                await conn.add_listener(CHANNEL, self._heard)
                self.alive = True
                pause = FIRST_PAUSE
                self._ready.set()
                await lost.wait()
                log.warning("lost the connection listening for battle changes on %s; opening it again",
                            redact(self.url))
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("listening for battle changes failed (%s); trying again in %.0f s", exc, pause)
                await asyncio.sleep(pause)
            finally:
                self.alive = False
                conn.terminate()

    async def close(self) -> None:
        """Stop listening and close the connection."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
