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
