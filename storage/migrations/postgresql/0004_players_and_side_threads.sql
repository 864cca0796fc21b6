-- Players' own settings per battle and where a battle's private posts go: the PostgreSQL twin of
-- sqlite/0004_players_and_side_threads.sql.
CREATE TABLE battle_players (
    battle_id   BIGINT NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL,
    remind      TEXT NOT NULL DEFAULT 'battle',
    muted_turn  TEXT,
    turn_key    TEXT,
    reminded    INTEGER NOT NULL DEFAULT 0 CHECK (reminded >= 0),
    stall_told  SMALLINT NOT NULL DEFAULT 0 CHECK (stall_told IN (0, 1)),
    PRIMARY KEY (battle_id, user_id)
);

CREATE TABLE battle_posting (
    battle_id     BIGINT PRIMARY KEY REFERENCES battles (id) ON DELETE CASCADE,
    side_threads  SMALLINT NOT NULL DEFAULT 0 CHECK (side_threads IN (0, 1)),
    stall_after   INTEGER NOT NULL DEFAULT 0 CHECK (stall_after >= 0),
    fallback_told SMALLINT NOT NULL DEFAULT 0 CHECK (fallback_told IN (0, 1)),
    threads       TEXT NOT NULL DEFAULT '{}'
);
