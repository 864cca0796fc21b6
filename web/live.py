"""Live updates: who watches which battle, told within a second of each change.

In the bot's own process an order's commit reaches the hub at once (a table service listener). On
PostgreSQL an order committed by any other process over the same database reaches it as a notice
(LISTEN/NOTIFY, `bot.webfront.listen_changes`) as soon as it commits. Over a SQLite file shared by several
processes (the bot beside a `python -m bot web`) there are no notices: the hub looks at the version of each
watched battle once a second, one small read per battle however many pages watch it. While notices come it
still looks, rarely (`SLOW_POLL`), for a change made while the listening connection was down.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

POLL = 1.0  # seconds between looks at the version of each watched battle, with no notices to wait for
SLOW_POLL = 30.0  # the same while the database's notices come

VersionOf = Callable[[int, int | None], Awaitable[int | None]]


class Watch:
    """One page's subscription: the newest version it has not been told of yet (older ones are dropped)."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[int] = asyncio.Queue(maxsize=1)

    def tell(self, version: int) -> None:
        """Hand over a version, replacing one the page has not taken yet."""
        if self.queue.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
        self.queue.put_nowait(version)


class Hub:
    """Tell every page watching a battle that it changed."""

    def __init__(self, version_of: VersionOf, poll: float = POLL, slow_poll: float = SLOW_POLL) -> None:
        self.version_of = version_of
        self.poll = poll
        self.slow_poll = slow_poll
        self.pushed: Callable[[], bool] = lambda: False  # whether the database's notices reach us now
        self.watches: dict[int, set[Watch]] = {}
        self.versions: dict[int, int] = {}
        self._task: asyncio.Task[None] | None = None

    def watch(self, battle_id: int, version: int) -> Watch:
        """Start watching a battle from the version a page shows."""
        found = Watch()
        self.watches.setdefault(battle_id, set()).add(found)
        self.versions.setdefault(battle_id, version)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._look(), name="battlepost-web-poll")
        return found

    def leave(self, battle_id: int, watch: Watch) -> None:
        """Stop a page's watch."""
        watching = self.watches.get(battle_id)
        if watching is None:
            return
        watching.discard(watch)
        if not watching:
            del self.watches[battle_id]
            self.versions.pop(battle_id, None)

    def changed(self, battle_id: int, version: int) -> None:
        """Tell the pages watching a battle of its new version (once per version)."""
        if battle_id not in self.watches or self.versions.get(battle_id, -1) >= version:
            return
        self.versions[battle_id] = version
        for watch in list(self.watches[battle_id]):
            watch.tell(version)

    @property
    def watching(self) -> int:
        """Return how many pages are watching, over every battle."""
        return sum(len(w) for w in self.watches.values())

    async def _look(self) -> None:
        """Look at each watched battle's version once a poll, while any page watches."""
        while self.watches:
            await asyncio.sleep(self.slow_poll if self.pushed() else self.poll)
            for battle_id in list(self.watches):
                known = self.versions.get(battle_id)
                try:
                    version = await self.version_of(battle_id, known)
                except Exception:
                    log.exception("web view: could not read the version of battle %s", battle_id)
                    continue
                if version is not None:
                    self.changed(battle_id, version)

    async def close(self) -> None:
        """Stop looking."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
