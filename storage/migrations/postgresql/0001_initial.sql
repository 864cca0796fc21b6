-- Initial schema, the PostgreSQL twin of sqlite/0001_initial.sql: the same tables, columns and
-- meanings. Discord ids are 64-bit snowflakes (BIGINT); times are unix seconds (DOUBLE PRECISION);
-- JSON documents are TEXT written by orjson, stored as written so both backends hand back the same
-- bytes; flags are 0/1 SMALLINTs so every statement binds the same parameters on both backends.

CREATE TABLE guild_settings (
    guild_id   BIGINT PRIMARY KEY,
    gm_role_id BIGINT,
    settings   TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE user_settings (
    user_id  BIGINT PRIMARY KEY,
    notify   TEXT NOT NULL DEFAULT 'channel' CHECK (notify IN ('channel', 'dm')),
    settings TEXT NOT NULL DEFAULT '{}'
);

-- An identity column never hands a deleted battle's id out again: persistent buttons carry the
-- battle id, and an old button must not act on a newer battle.
CREATE TABLE battles (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    thread_id  BIGINT,
    name       TEXT NOT NULL,
    ruleset    TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'setup' CHECK (status IN ('setup', 'active', 'ended')),
    created_by BIGINT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    version    INTEGER NOT NULL CHECK (version >= 1),
    state      TEXT NOT NULL
);

CREATE INDEX battles_guild_channel ON battles (guild_id, channel_id);
CREATE INDEX battles_guild_thread ON battles (guild_id, thread_id) WHERE thread_id IS NOT NULL;

-- One row per order; state_before is the zlib-compressed state before it (NULL for 'create').
CREATE TABLE events (
    battle_id     BIGINT NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq >= 1),
    actor_id      BIGINT NOT NULL,
    kind          TEXT NOT NULL,
    order_text    TEXT NOT NULL,
    outcome       TEXT,
    hidden        SMALLINT NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
    undone        SMALLINT NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
    created_at    DOUBLE PRECISION NOT NULL,
    status_before TEXT CHECK (status_before IN ('setup', 'active', 'ended')),
    state_before  BYTEA,
    PRIMARY KEY (battle_id, seq)
);

CREATE TABLE timers (
    id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    battle_id BIGINT NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    kind      TEXT NOT NULL,
    due_at    DOUBLE PRECISION NOT NULL,
    payload   TEXT NOT NULL DEFAULT '{}',
    fired_at  DOUBLE PRECISION
);

-- The schedulers of every process poll this: only unfired timers are indexed.
CREATE INDEX timers_pending_due ON timers (due_at, id) WHERE fired_at IS NULL;
CREATE INDEX timers_battle ON timers (battle_id, kind);

CREATE TABLE messages (
    battle_id  BIGINT NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (battle_id, kind)
);
