"""A small thread-safe LRU for immutable render layers."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

V = TypeVar("V")


class LayerCache(Generic[V]):
    """Keep the most recently used values, up to `capacity` of them.

    Thread-safety: renders run in worker threads (`asyncio.to_thread`), so every
    look-up and insertion holds a lock. The value is built outside the lock so a
    slow build never blocks other renders; two threads missing the same key at
    once may both build it, and the second result simply replaces the first.
    Values must never be mutated once stored: callers copy what they draw on.
    """

    def __init__(self, capacity: int) -> None:
        """Create an empty cache holding at most `capacity` values."""
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_build(self, key: Hashable, build: Callable[[], V]) -> V:
        """Return the value stored under key, building and storing it on a miss."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                self.hits += 1
                return found
            self.misses += 1
        value = build()
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.capacity:
                dropped, _ = self._items.popitem(last=False)
                log.debug("layer cache full: dropped %r", dropped)
        return value

    def clear(self) -> None:
        """Forget every stored value and reset the counters."""
        with self._lock:
            self._items.clear()
            self.hits = 0
            self.misses = 0

    def __len__(self) -> int:
        """Return how many values are stored."""
        with self._lock:
            return len(self._items)

    def __contains__(self, key: Hashable) -> bool:
        """Return whether key is stored, without touching its recency."""
        with self._lock:
            return key in self._items


class KeptFrames(Generic[V]):
    """Keep the last encoded frame of each battle's map, up to `budget` bytes of rows, least recently used out.

    `size_of` tells a value's bytes. A kept value is never mutated while it is in the store; `take` hands it
    over to one caller (who may draw on it, then keep the result), and a newer frame replaces the old.
    Thread-safe like LayerCache: maps are encoded in worker threads when there are no worker processes.
    """

    def __init__(self, budget: int, size_of: Callable[[V], int]) -> None:
        """Create an empty store holding frames of at most `budget` bytes in all."""
        if budget < 1:
            raise ValueError("budget must be at least 1 byte")
        self.budget = budget
        self._size_of = size_of
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._used = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        """Return the frame kept under key, if any."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def take(self, key: Hashable) -> V | None:
        """Remove and return the frame kept under key, if any: the caller owns it until it keeps a frame again."""
        with self._lock:
            found = self._items.pop(key, None)
            if found is not None:
                self._used -= self._size_of(found)
            return found

    def keep(self, key: Hashable, value: V) -> None:
        """Keep a frame under key in place of the one before, dropping the oldest frames past the budget."""
        size = self._size_of(value)
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._used -= self._size_of(old)
            if size > self.budget:
                return  # larger than the whole budget: encoded afresh next time
            self._items[key] = value
            self._used += size
            while self._used > self.budget:
                _, dropped = self._items.popitem(last=False)
                self._used -= self._size_of(dropped)

    def clear(self) -> None:
        """Forget every kept frame."""
        with self._lock:
            self._items.clear()
            self._used = 0

    def __len__(self) -> int:
        """Return how many frames are kept."""
        with self._lock:
            return len(self._items)
