"""Who of a file's players is a member of the server: imported units never ping strangers by proxy."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

MemberCheck = Callable[[int], Awaitable[bool]]
MAX_OWNER_LOOKUPS = 25  # distinct players asked about per import; owners past that are treated as absent


async def absent_owners(owners: Iterable[int], is_member: MemberCheck) -> set[int]:
    """Return the owners who are not members of the server the units are imported into."""
    distinct = sorted(set(owners))
    absent = set(distinct[MAX_OWNER_LOOKUPS:])
    for owner in distinct[:MAX_OWNER_LOOKUPS]:
        if not await is_member(owner):
            absent.add(owner)
    return absent
