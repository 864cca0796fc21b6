-- A player's request to take back their last order when it may not be taken back alone (dice rolled, something
-- hidden shown, others acted since): the other sides approve or refuse it. Keyed by the battle's newest order
-- when asked, so a request only ever applies to the battle as it was then.
-- status: 'open', 'approved', 'refused', or 'stale' (the battle moved on before anyone answered).
CREATE TABLE takebacks (
    battle_id   INTEGER NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    newest_seq  INTEGER NOT NULL CHECK (newest_seq > 0),
    order_seq   INTEGER NOT NULL CHECK (order_seq > 0),
    user_id     INTEGER NOT NULL,
    count       INTEGER NOT NULL CHECK (count > 0),
    reason      TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'approved', 'refused', 'stale')),
    asked_at    REAL NOT NULL,
    decided_by  INTEGER,
    decided_at  REAL,
    PRIMARY KEY (battle_id, newest_seq)
) STRICT;

-- Players who asked for a daily direct message listing the battles waiting for them. next_at is when the
-- next one is due; sent_at when the last one went out, kept while the digest is off so that turning it off and
-- on again never sends a second one the same day.
CREATE TABLE digests (
    user_id  INTEGER PRIMARY KEY,
    enabled  INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    next_at  REAL NOT NULL,
    sent_at  REAL
) STRICT;

CREATE INDEX digests_due ON digests (next_at) WHERE enabled = 1;
