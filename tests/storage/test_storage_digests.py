"""Daily digests on both backends: each claimed once a day, never twice however it is turned off and on."""

from __future__ import annotations

from storage import Database
from storage.digests import DAY


async def test_a_digest_is_claimed_once_a_day(db: Database) -> None:
    assert await db.digests.get(7) is None
    assert not await db.digests.turn_off(7)
    on = await db.digests.turn_on(7, 1000.0)
    assert (on.enabled, on.next_at, on.sent_at) == (True, 1000.0, None)
    assert await db.digests.claim_due(999.0) is None
    claimed = await db.digests.claim_due(1000.0)
    assert claimed is not None and claimed.user_id == 7
    assert (claimed.next_at, claimed.sent_at) == (1000.0 + DAY, 1000.0)
    # A second process asking at once finds nothing left.
    assert await db.digests.claim_due(1000.0) is None
    # Off and on again the same day: due a day after the last one, not now.
    assert await db.digests.turn_off(7)
    assert await db.digests.claim_due(1000.0 + DAY) is None
    again = await db.digests.turn_on(7, 2000.0)
    assert again.next_at == 1000.0 + DAY and again.enabled
    assert await db.digests.claim_due(1000.0 + DAY - 1) is None
    assert (await db.digests.claim_due(1000.0 + DAY)) is not None


async def test_digests_come_due_in_order_and_a_late_turn_on_is_due_at_once(db: Database) -> None:
    await db.digests.turn_on(1, 500.0)
    await db.digests.turn_on(2, 100.0)
    first = await db.digests.claim_due(600.0)
    second = await db.digests.claim_due(600.0)
    assert (first and first.user_id, second and second.user_id) == (2, 1)
    assert await db.digests.claim_due(600.0) is None
    # Turned on again more than a day after the last one: due at once.
    await db.digests.turn_off(2)
    later = await db.digests.turn_on(2, 600.0 + 2 * DAY)
    assert later.next_at == 600.0 + 2 * DAY
