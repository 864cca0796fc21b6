"""Where maps are drawn: in worker processes, so their pixels use another core than the bot's own work.

Drawing and deflating a map is most of an order's CPU, and in the bot's process it would share one core
with everything else the interpreter does. The pool sends each worker the map's view, overlays and crop
(plain data) and gets the finished PNG and alt text back; with no workers, maps are drawn in a thread of
the bot's process instead. The same input gives the same bytes either way.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor

from bot.maps import MapImage, draw
from render import Crop, MapView, Overlay

log = logging.getLogger(__name__)

# prctl(2)'s option asking the kernel to signal this process when the thread that started it ends.
PR_SET_PDEATHSIG = 1
# How often a worker looks whether its bot is still there, where no death signal can be asked for.
PARENT_CHECK_SECONDS = 1.0


def _ask_for_death_signal() -> None:
    """Ask Linux to kill this process when its parent ends (nothing elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):  # no prctl in this C library: the parent check below still runs
        log.debug("no death signal for the map worker", exc_info=True)


def _watch_parent(parent: int) -> None:
    """End this worker as soon as its parent process is gone, so a killed bot leaves no worker behind."""
    while True:
        if os.getppid() != parent:
            os._exit(0)
        time.sleep(PARENT_CHECK_SECONDS)


def start_worker(parent: int) -> None:
    """Tie this map worker's life to its bot: a death signal, and a thread that checks for the parent."""
    _ask_for_death_signal()
    # The parent may have died before the death signal was asked for; the watcher sees that at once.
    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watch", daemon=True).start()


class RenderPool:
    """Draw maps in `workers` processes (started on first use), or in a thread of this process when 0."""

    def __init__(self, workers: int = 0) -> None:
        if workers < 0:
            raise ValueError(f"the render pool needs 0 or more workers, not {workers}")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            # Spawned, not forked: the bot's process has threads (the database's, the rules'), and a fork
            # copies their locks in whatever state they are.
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=start_worker, initargs=(os.getpid(),))
            log.info("drawing maps in %d worker processes", self.workers)
        return self._pool

    async def draw(self, view: MapView, overlays: Sequence[Overlay], crop: Crop | None, *,
                   battle_id: int | None = None, palette: str = "colour") -> MapImage:
        """Draw a map and its alt text off the event loop."""
        job = functools.partial(draw, view, list(overlays), crop, battle_id=battle_id, palette=palette)
        if self.workers == 0:
            return await asyncio.to_thread(job)
        return await asyncio.get_running_loop().run_in_executor(self._executor(), job)

    def shutdown(self) -> None:
        """Stop the worker processes (they start again if another map is asked for)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
