"""Advisory lock keys: which two 32-bit numbers stand for a battle's lock, its board's, or the migrations'."""

from __future__ import annotations

# The first key says what is locked; it starts from "bp" (0x6270) so battlepost's locks stay apart
# from any other program's advisory locks on the same server.
_CLASS_BASE = 0x6270_0000
MIGRATIONS = 0
_INT4 = 0x7FFF_FFFF


def lock_ids(space: int, key: int) -> tuple[int, int]:
    """Return the (class, object) pair of pg_advisory_xact_lock for a lock space and key."""
    if 0 <= key <= _INT4:
        return _CLASS_BASE + space, key
    # Ids past 2^31 fold onto the positive range: two battles may then share a lock, which only
    # makes them wait for each other, never run together.
    return _CLASS_BASE + space, (key ^ (key >> 31)) & _INT4
