"""The outbox: every post the bot owes Discord, kept until Discord takes it or it is obsolete.

A post is a row written before anything is sent, in the same transaction as the order it follows where
there is one (`enqueue`, a step of that transaction's program), so neither a crash nor a refused request
loses it. A process sends a row only after claiming it: the claim leases the row (`leased_until`) and
counts the attempt, in one UPDATE that succeeds for one claimer only (on PostgreSQL with FOR UPDATE SKIP
LOCKED, so several processes share the owed rows without waiting on each other, as the timers do). A
process that stops mid-post leaves its lease to run out, and the row is claimed again. Settling a row
names the attempt it claimed, so a claimer whose lease ran out (and whose row another claimed since)
cannot settle or postpone the newer attempt.

Rows with the same coalescing key (a battle's status board) supersede one another: a new row settles
every older one with its key that nobody is sending right now.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from . import codec
from .engine import Engine
from .errors import BattleNotFound
from .program import Program, Query, changed, count, every, one, single

log = logging.getLogger(__name__)

Settled = Literal["sent", "superseded", "obsolete", "refused"]

_COLUMNS = "id, battle_id, kind, coalesce_key, payload, due_at, attempts, leased_until, created_at, settled_at, outcome"

_BATTLE_EXISTS = Query.of("SELECT 1 FROM battles WHERE id = ?")
_SUPERSEDE = Query.of("""
UPDATE outbox SET settled_at = ?, outcome = 'superseded'
WHERE coalesce_key = ? AND settled_at IS NULL AND (leased_until IS NULL OR leased_until <= ?)
""")
_TWIN = Query.of("SELECT id FROM outbox WHERE coalesce_key = ? AND payload = ? AND settled_at IS NULL ORDER BY id LIMIT 1")
_INSERT = Query.of("""
INSERT INTO outbox (battle_id, kind, coalesce_key, payload, due_at, created_at) VALUES (?, ?, ?, ?, ?, ?)
RETURNING id
""")
# "settled_at IS NULL" appears literally so SQLite uses the partial index.
_CLAIM_SET = """
UPDATE outbox SET leased_until = ?, attempts = attempts + 1
WHERE id = (
    SELECT id FROM outbox
    WHERE settled_at IS NULL AND due_at <= ? AND (leased_until IS NULL OR leased_until <= ?)
    ORDER BY due_at, id LIMIT 1"""
_CLAIM_DUE = Query.of(
    f"{_CLAIM_SET}\n) RETURNING {_COLUMNS}\n",
    postgres=f"{_CLAIM_SET}\n    FOR UPDATE SKIP LOCKED\n) RETURNING {_COLUMNS}\n",
)
# The process that wrote a row sends it at once, before it is due for the loop: claimed by its id.
_CLAIM_ONE = Query.of(f"""
UPDATE outbox SET leased_until = ?, attempts = attempts + 1
WHERE id = ? AND settled_at IS NULL AND (leased_until IS NULL OR leased_until <= ?)
RETURNING {_COLUMNS}
""")
_SETTLE = Query.of("""
UPDATE outbox SET settled_at = ?, outcome = ?, leased_until = NULL
WHERE id = ? AND attempts = ? AND settled_at IS NULL
""")
_POSTPONE = Query.of("""
UPDATE outbox SET due_at = ?, leased_until = NULL
WHERE id = ? AND attempts = ? AND settled_at IS NULL
""")
# What one successful edit made current: the owed rows of its key up to the newest it read.
_SETTLE_KEY = Query.of("""
UPDATE outbox SET settled_at = ?, outcome = 'sent'
WHERE coalesce_key = ? AND id <= ? AND settled_at IS NULL AND (leased_until IS NULL OR leased_until <= ?)
""")
_NEWEST_OF_KEY = Query.of("SELECT MAX(id) FROM outbox WHERE coalesce_key = ? AND settled_at IS NULL")
_OWED = Query.of(f"SELECT {_COLUMNS} FROM outbox WHERE battle_id = ? AND settled_at IS NULL ORDER BY due_at, id")
_GET = Query.of(f"SELECT {_COLUMNS} FROM outbox WHERE id = ?")
_RELEASE_ALL = Query.of("UPDATE outbox SET leased_until = NULL WHERE settled_at IS NULL AND leased_until IS NOT NULL")
_PURGE = Query.of("DELETE FROM outbox WHERE settled_at IS NOT NULL AND settled_at < ?")
_NEXT_DUE = Query.of("SELECT MIN(due_at) FROM outbox WHERE settled_at IS NULL")


@dataclass(frozen=True, slots=True)
class Post:
    """One post to owe Discord: what kind, for which battle (if any), its details, and the key newer ones supersede by."""

    battle_id: int | None
    kind: str
    payload: Mapping[str, Any]
    key: str | None = None
    delay: float = 0.0  # seconds after now before the delivery loop may take it
    # Owed once: while a post of the same key and payload is owed (even one being sent), no second is added.
    once: bool = False


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """Hold one owed (or settled) post as stored."""

    id: int
    battle_id: int | None
    kind: str
    key: str | None
    payload: dict[str, Any]
    due_at: float
    attempts: int
    leased_until: float | None
    created_at: float
    settled_at: float | None
    outcome: str | None


def _row(row: tuple[Any, ...]) -> OutboxRow:
    return OutboxRow(id=int(row[0]), battle_id=None if row[1] is None else int(row[1]), kind=row[2], key=row[3], payload=codec.decode(row[4]),
                     due_at=float(row[5]), attempts=int(row[6]),
                     leased_until=None if row[7] is None else float(row[7]), created_at=float(row[8]),
                     settled_at=None if row[9] is None else float(row[9]), outcome=row[10])


def enqueue(post: Post, now: float) -> Program[int]:
    """Write one owed post inside the caller's transaction (superseding older ones of its key); return its id.

    A post owed `once` whose twin (same key and payload) is still owed is not written again: the twin's id
    is returned, so a process that stopped while sending it and a later change asking for it post it once.
    """
    payload = codec.encode(dict(post.payload))
    if post.once and post.key is not None:
        twin = yield one(_TWIN, post.key, payload)
        if twin is not None:
            return int(twin[0])
    if post.key is not None:
        yield count(_SUPERSEDE, float(now), post.key, float(now))
    row = yield one(_INSERT, post.battle_id, post.kind, post.key, payload, float(now) + post.delay, float(now))
    return int(row[0])


class OutboxRepo:
    """Owe, claim, settle and postpone the posts the bot makes on Discord."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    async def add(self, post: Post, now: float) -> int:
        """Owe a post on its own (no order with it); return its id."""

        def run() -> Program[int]:
            if post.battle_id is not None and (yield one(_BATTLE_EXISTS, post.battle_id)) is None:
                raise BattleNotFound(post.battle_id)
            return (yield from enqueue(post, now))

        post_id = await self._engine.write(run())
        log.debug("owed post %d (%s) of battle %d", post_id, post.kind, post.battle_id)
        return post_id

    async def claim_due(self, now: float, lease: float) -> OutboxRow | None:
        """Lease the earliest owed post due by now that nobody holds; None when there is none."""
        row = await self._engine.write(single(_CLAIM_DUE, float(now) + lease, float(now), float(now)))
        return None if row is None else _row(row)

    async def claim(self, post_id: int, now: float, lease: float) -> OutboxRow | None:
        """Lease one owed post, due or not, unless it is settled or somebody holds it; None then."""
        row = await self._engine.write(single(_CLAIM_ONE, float(now) + lease, post_id, float(now)))
        return None if row is None else _row(row)

    async def settle(self, row: OutboxRow, outcome: Settled, now: float) -> bool:
        """Mark a claimed post done (sent, obsolete or refused for good); False if the claim was lost meanwhile."""
        return bool(await self._engine.write(changed(_SETTLE, float(now), outcome, row.id, row.attempts)))

    async def postpone(self, row: OutboxRow, due_at: float) -> bool:
        """Give a claimed post back, to be tried again at due_at; False if the claim was lost meanwhile."""
        return bool(await self._engine.write(changed(_POSTPONE, float(due_at), row.id, row.attempts)))

    async def newest_of(self, key: str) -> int | None:
        """Return the id of the newest owed post with this key, or None."""
        row = await self._engine.read(single(_NEWEST_OF_KEY, key))
        return None if row is None or row[0] is None else int(row[0])

    async def settle_key(self, key: str, upto: int, now: float) -> int:
        """Mark sent the owed posts of a key up to id `upto` that nobody holds (an edit made them current)."""
        return int(await self._engine.write(changed(_SETTLE_KEY, float(now), key, upto, float(now))))

    async def release_all(self) -> int:
        """Free every lease (only for a database one process uses: its leases died with its last run)."""
        return int(await self._engine.write(changed(_RELEASE_ALL)))

    async def purge(self, before: float) -> int:
        """Forget the posts settled before a time (made, superseded or refused long ago); return how many."""
        return int(await self._engine.write(changed(_PURGE, float(before))))

    async def owed(self, battle_id: int) -> list[OutboxRow]:
        """Return a battle's posts not yet settled, earliest due first."""
        return [_row(r) for r in await self._engine.read(every(_OWED, battle_id))]

    async def get(self, post_id: int) -> OutboxRow | None:
        """Return one post, settled or not."""
        row = await self._engine.read(single(_GET, post_id))
        return None if row is None else _row(row)

    async def next_due(self) -> float | None:
        """Return when the earliest owed post comes due (leases aside), or None when nothing is owed."""
        row = await self._engine.read(single(_NEXT_DUE))
        return None if row is None or row[0] is None else float(row[0])
