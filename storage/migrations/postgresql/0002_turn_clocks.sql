-- Each battle's turn clock, the PostgreSQL twin of sqlite/0002_turn_clocks.sql.
CREATE TABLE battle_clocks (
    battle_id    BIGINT PRIMARY KEY REFERENCES battles (id) ON DELETE CASCADE,
    deadline     DOUBLE PRECISION NOT NULL DEFAULT 86400 CHECK (deadline > 0),
    policy       TEXT NOT NULL DEFAULT 'wait' CHECK (policy IN ('wait', 'hold', 'default')),
    reminders    TEXT NOT NULL DEFAULT '["50%","1h"]',
    turn_key     TEXT,
    turn_started DOUBLE PRECISION,
    due_at       DOUBLE PRECISION,
    paused_at    DOUBLE PRECISION,
    remaining    DOUBLE PRECISION CHECK (remaining IS NULL OR remaining >= 0),
    expired_at   DOUBLE PRECISION
);

CREATE INDEX battles_active ON battles (id) WHERE status = 'active';
