"""What the benchmarks measure with: percentiles, CPU time, the event loop's longest callback, memory."""

from __future__ import annotations

import asyncio
import gc
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any


def pct(values: list[float], q: float) -> float:
    """Return the q-th percentile of values (seconds) in milliseconds; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))] * 1000


def _children(pid: int) -> list[int]:
    """Return the processes a process started, as the kernel lists them per thread."""
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                found += [int(c) for c in (task / "children").read_text().split()]
            except (OSError, ValueError):
                pass  # the thread ended while we looked
    except OSError:
        pass  # the process ended while we looked
    return found


def descendants(pid: int | None = None) -> list[int]:
    """Return the ids of every live process started by this one, however deep (map workers, the resource tracker).

    Read from each process's own list of children, not by scanning every process on the machine: the probe
    runs twice per order, and a scan of a busy machine's /proc would cost more than some orders.
    """
    found: list[int] = []
    todo = [os.getpid() if pid is None else pid]
    while todo:
        for child in _children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def process_cpu(pid: int) -> float:
    """Return the CPU seconds every thread of a process has run so far, in nanoseconds' precision."""
    total = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                # The first field is the time the thread has run on a CPU, in nanoseconds.
                total += int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                pass
    except OSError:
        return 0.0
    return total / 1e9


_probing = 0.0  # CPU seconds this process spent in cpu_now itself, left out of what it reports


def cpu_now() -> float:
    """Return the CPU seconds used so far by this process and every live process it started.

    The probe's own reading of /proc is left out, so an order is not charged for being measured.
    """
    global _probing
    began = time.thread_time()
    others = sum(process_cpu(pid) for pid in descendants())
    _probing += time.thread_time() - began
    return time.process_time() - _probing + others


def _rss(pid: int | str) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def rss_mib() -> float:
    """Return the resident memory now of this process and every live process it started, in MiB."""
    return _rss("self") + sum(_rss(pid) for pid in descendants())


class LoopWatch:
    """Time every callback the event loop runs, to find the longest one while something is watched.

    asyncio runs each callback (a task step, a timer, an I/O handler) through `Handle._run`; wrapping it
    measures exactly how long the loop could answer nothing else. Used as ``with LoopWatch() as watch:``.
    """

    def __init__(self) -> None:
        self.longest = 0.0
        self.longest_cpu = 0.0
        self.longest_gc = 0.0
        self.callbacks = 0
        self._original: Callable[[Any], None] | None = None
        self._gc_started = 0.0

    def reset(self) -> tuple[float, float]:
        """Return the longest callback since the last reset (wall time, and the loop thread's CPU time in it)."""
        longest, self.longest = self.longest, 0.0
        cpu, self.longest_cpu = self.longest_cpu, 0.0
        return longest, cpu

    def reset_gc(self) -> float:
        """Return the longest garbage collection since the last reset, and start again."""
        longest, self.longest_gc = self.longest_gc, 0.0
        return longest

    def _collecting(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self.longest_gc = max(self.longest_gc, time.perf_counter() - self._gc_started)

    def __enter__(self) -> LoopWatch:
        original = asyncio.events.Handle._run
        self._original = original
        watch = self

        def timed(handle: Any) -> None:
            start = time.perf_counter()
            cpu = time.thread_time()
            try:
                original(handle)
            finally:
                spent = time.perf_counter() - start
                worked = time.thread_time() - cpu
                watch.callbacks += 1
                if spent > watch.longest:
                    watch.longest = spent
                if worked > watch.longest_cpu:
                    watch.longest_cpu = worked

        asyncio.events.Handle._run = timed  # type: ignore[method-assign]
        gc.callbacks.append(self._collecting)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._original is not None:
            asyncio.events.Handle._run = self._original  # type: ignore[method-assign]
        if self._collecting in gc.callbacks:
            gc.callbacks.remove(self._collecting)


@dataclass
class Series:
    """Timings of one case: wall time per order, the longest loop callback during each, and CPU in all."""

    wall: list[float] = field(default_factory=list)
    stalls: list[float] = field(default_factory=list)
    stalls_cpu: list[float] = field(default_factory=list)
    collections: list[float] = field(default_factory=list)
    cpu: float = 0.0
    orders: int = 0

    def cpu_ms(self) -> float:
        """Return CPU time per order in milliseconds (every thread of the process and of its map workers)."""
        return self.cpu / max(1, self.orders) * 1000

    def merge(self, other: Series) -> Series:
        """Return both series together."""
        return Series(self.wall + other.wall, self.stalls + other.stalls, self.stalls_cpu + other.stalls_cpu,
                      self.collections + other.collections, self.cpu + other.cpu, self.orders + other.orders)


class Timer:
    """Measure one order: wall time to its answer, then CPU time and the longest loop callback until all of it is done.

    Call `answered()` when the answer arrives; the block goes on to wait for the order's background work
    (the status board, pings), which counts in CPU and stalls but not in the wall time.
    """

    def __init__(self, series: Series, watch: LoopWatch | None) -> None:
        self.series = series
        self.watch = watch
        self._answered: float | None = None

    async def __aenter__(self) -> Timer:
        if self.watch is not None:
            self.watch.reset()
            self.watch.reset_gc()
        self._answered = None
        self._cpu = cpu_now()
        self._start = time.perf_counter()
        return self

    def answered(self) -> None:
        """Record that the answer arrived now."""
        self._answered = time.perf_counter()

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        if kind is not None:
            return
        end = self._answered if self._answered is not None else time.perf_counter()
        self.series.wall.append(end - self._start)
        self.series.cpu += cpu_now() - self._cpu
        self.series.orders += 1
        if self.watch is not None:
            stall, stall_cpu = self.watch.reset()
            self.series.stalls.append(stall)
            self.series.stalls_cpu.append(stall_cpu)
            self.series.collections.append(self.watch.reset_gc())
