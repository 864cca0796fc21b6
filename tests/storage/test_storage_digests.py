"""Daily digests on both backends: each claimed once a day, never twice however it is turned off and on."""

from __future__ import annotations

from storage import Database
from storage.digests import DAY


async def test_a_digest_is_claimed_once_and_then_set_at_the_players_hour(db: Database) -> None:
    assert await db.digests.get(7) is None
    assert not await db.digests.turn_off(7)
    on = await db.digests.turn_on(7, 1000.0, None)
    assert (on.enabled, on.next_at, on.sent_at) == (True, 1000.0, None)
    assert await db.digests.claim_due(999.0) is None
    claimed = await db.digests.claim_due(1000.0)
    assert claimed is not None and claimed.user_id == 7
    assert (claimed.next_at, claimed.sent_at) == (1000.0 + DAY, 1000.0)
    # A second process asking at once finds nothing left.
    assert await db.digests.claim_due(1000.0) is None
    # The sender sets the player's own hour; a schedule reckoned from an older sending changes nothing.
    assert not await db.digests.schedule(7, None, 5000.0)
    assert await db.digests.schedule(7, 1000.0, 1000.0 + DAY - 3600)
    assert (await db.digests.get(7)).next_at == 1000.0 + DAY - 3600  # type: ignore[union-attr]


async def test_turning_on_again_keeps_a_schedule_set_by_a_sending_in_between(db: Database) -> None:
    await db.digests.turn_on(7, 1000.0, None)
    await db.digests.claim_due(1000.0)
    assert await db.digests.turn_off(7)
    assert await db.digests.claim_due(1000.0 + DAY) is None, "off: never claimed"
    # Reckoned from the last sending: taken as given.
    again = await db.digests.turn_on(7, 1000.0 + 2 * DAY, 1000.0)
    assert again.enabled and again.next_at == 1000.0 + 2 * DAY
    # Reckoned before a sending that came in between (another process): the sender's schedule stands.
    claimed = await db.digests.claim_due(1000.0 + 2 * DAY)
    assert claimed is not None
    stale = await db.digests.turn_on(7, 1000.0 + 2 * DAY, 1000.0)
    assert stale.next_at == 1000.0 + 3 * DAY and stale.sent_at == 1000.0 + 2 * DAY


async def test_digests_come_due_in_order(db: Database) -> None:
    await db.digests.turn_on(1, 500.0, None)
    await db.digests.turn_on(2, 100.0, None)
    first = await db.digests.claim_due(600.0)
    second = await db.digests.claim_due(600.0)
    assert (first and first.user_id, second and second.user_id) == (2, 1)
    assert await db.digests.claim_due(600.0) is None
