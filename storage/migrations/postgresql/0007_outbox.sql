-- The posts the bot owes Discord: the PostgreSQL twin of sqlite/0009_outbox.sql.
CREATE TABLE outbox (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    battle_id    BIGINT REFERENCES battles (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL,
    coalesce_key TEXT,
    payload      TEXT NOT NULL DEFAULT '{}',
    due_at       DOUBLE PRECISION NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    leased_until DOUBLE PRECISION,
    created_at   DOUBLE PRECISION NOT NULL,
    settled_at   DOUBLE PRECISION,
    outcome      TEXT
);

CREATE INDEX outbox_owed_due ON outbox (due_at, id) WHERE settled_at IS NULL;
CREATE INDEX outbox_owed_key ON outbox (coalesce_key) WHERE settled_at IS NULL;
CREATE INDEX outbox_battle ON outbox (battle_id);
