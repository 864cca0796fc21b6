-- Players' requests to take back an order the other sides must approve, daily digests and seats: the PostgreSQL
-- twin of sqlite/0008_takebacks_digests_and_seats.sql.
CREATE TABLE takebacks (
    battle_id   BIGINT NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    newest_seq  BIGINT NOT NULL CHECK (newest_seq > 0),
    order_seq   BIGINT NOT NULL CHECK (order_seq > 0),
    user_id     BIGINT NOT NULL,
    count       INTEGER NOT NULL CHECK (count > 0),
    reason      TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'approved', 'refused', 'stale')),
    asked_at    DOUBLE PRECISION NOT NULL,
    decided_by  BIGINT,
    decided_at  DOUBLE PRECISION,
    PRIMARY KEY (battle_id, newest_seq)
);

CREATE TABLE digests (
    user_id  BIGINT PRIMARY KEY,
    enabled  SMALLINT NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    next_at  DOUBLE PRECISION NOT NULL,
    sent_at  DOUBLE PRECISION
);

CREATE INDEX digests_due ON digests (next_at) WHERE enabled = 1;

CREATE TABLE seats (
    battle_id   BIGINT NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL,
    units       TEXT NOT NULL,
    sides       TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'asked', 'taken', 'closed')),
    released_by BIGINT NOT NULL,
    released_at DOUBLE PRECISION NOT NULL,
    candidate   BIGINT,
    taken_by    BIGINT,
    taken_at    DOUBLE PRECISION,
    PRIMARY KEY (battle_id, user_id)
);

CREATE TABLE seat_rules (
    battle_id      BIGINT PRIMARY KEY REFERENCES battles (id) ON DELETE CASCADE,
    approval       SMALLINT NOT NULL DEFAULT 0 CHECK (approval IN (0, 1)),
    disorder_after INTEGER NOT NULL DEFAULT 2 CHECK (disorder_after >= 0)
);

CREATE TABLE absences (
    battle_id      BIGINT NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    user_id        BIGINT NOT NULL,
    missed         INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0),
    missed_total   INTEGER NOT NULL DEFAULT 0 CHECK (missed_total >= 0),
    disorder_since DOUBLE PRECISION,
    PRIMARY KEY (battle_id, user_id)
);

-- A player's statistics across battles start from the battles they gave orders in.
CREATE INDEX events_actor ON events (actor_id, battle_id);
