"""The garbage collector, set for a long-running bot once it has started.

Python's cyclic collector now and then walks every object the process holds; a bot that has loaded its
modules, command tree and rule tables holds hundreds of thousands that will never be garbage, and each
full walk over them stalls the event loop. Once startup is over they are frozen out of the collector's
sight, and young objects are collected in larger batches, so collections come less often and stay short.
Reference counting still frees almost everything at once; only reference cycles wait for a collection.
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger(__name__)

# Objects allocated (net) between two collections of the youngest generation; CPython's default is 700.
YOUNG_THRESHOLD = 20_000


def settle_heap() -> None:
    """Collect what startup left behind, freeze the rest out of later collections, and collect young objects less often."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
    log.info("heap settled: %d objects frozen, young collections every %d allocations", gc.get_freeze_count(),
             YOUNG_THRESHOLD)
