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
