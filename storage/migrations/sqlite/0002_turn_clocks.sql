-- Each battle's turn clock: the deadline rules its GM chose, and where the current turn's
-- deadline stands. The deadline and reminder rows in `timers` are derived from this row, so the
-- scheduler can rebuild a missing one after a crash instead of losing it.
-- deadline and remaining are seconds; the other times are unix seconds, NULL when not set.
CREATE TABLE battle_clocks (
    battle_id    INTEGER PRIMARY KEY REFERENCES battles (id) ON DELETE CASCADE,
    deadline     REAL NOT NULL DEFAULT 86400 CHECK (deadline > 0),
    policy       TEXT NOT NULL DEFAULT 'wait' CHECK (policy IN ('wait', 'hold', 'default')),
    reminders    TEXT NOT NULL DEFAULT '["50%","1h"]',
    turn_key     TEXT,
    turn_started REAL,
    due_at       REAL,
    paused_at    REAL,
    remaining    REAL CHECK (remaining IS NULL OR remaining >= 0),
    expired_at   REAL
) STRICT;

-- Startup recovery walks the active battles; without this it would scan every battle ever played.
CREATE INDEX battles_active ON battles (id) WHERE status = 'active';
