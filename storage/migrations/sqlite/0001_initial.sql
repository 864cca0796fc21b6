-- Initial schema. Discord ids are 64-bit snowflakes (INTEGER); times are unix seconds (REAL);
-- JSON documents are TEXT written by orjson. STRICT makes SQLite reject a value of the wrong type.

CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    gm_role_id INTEGER,
    settings   TEXT NOT NULL DEFAULT '{}'
) STRICT;

CREATE TABLE user_settings (
    user_id  INTEGER PRIMARY KEY,
    notify   TEXT NOT NULL DEFAULT 'channel' CHECK (notify IN ('channel', 'dm')),
    settings TEXT NOT NULL DEFAULT '{}'
) STRICT;

-- AUTOINCREMENT so a deleted battle's id is never handed out again: persistent buttons
-- carry the battle id, and an old button must not act on a newer battle.
-- state is the last column so listing battles never reads its overflow pages.
CREATE TABLE battles (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    thread_id  INTEGER,
    name       TEXT NOT NULL,
    ruleset    TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'setup' CHECK (status IN ('setup', 'active', 'ended')),
    created_by INTEGER NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    version    INTEGER NOT NULL CHECK (version >= 1),
    state      TEXT NOT NULL
) STRICT;

-- (guild_id, channel_id) also serves lookups by guild_id alone.
CREATE INDEX battles_guild_channel ON battles (guild_id, channel_id);
CREATE INDEX battles_guild_thread ON battles (guild_id, thread_id) WHERE thread_id IS NOT NULL;

-- One row per order. state_before is the whole state document before the order, as
-- zlib-compressed UTF-8 JSON (NULL for 'create'): undo restores it rather than inverting
-- the order. It is the last column so paging the log never reads its overflow pages.
CREATE TABLE events (
    battle_id     INTEGER NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq >= 1),
    actor_id      INTEGER NOT NULL,
    kind          TEXT NOT NULL,
    order_text    TEXT NOT NULL,
    outcome       TEXT,
    hidden        INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
    undone        INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
    created_at    REAL NOT NULL,
    status_before TEXT CHECK (status_before IN ('setup', 'active', 'ended')),
    state_before  BLOB,
    PRIMARY KEY (battle_id, seq)
) STRICT;

CREATE TABLE timers (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    battle_id INTEGER NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    kind      TEXT NOT NULL,
    due_at    REAL NOT NULL,
    payload   TEXT NOT NULL DEFAULT '{}',
    fired_at  REAL
) STRICT;

-- The scheduler polls this: only unfired timers are indexed, so fired history costs nothing.
CREATE INDEX timers_pending_due ON timers (due_at, id) WHERE fired_at IS NULL;
-- Serves cancel/pending by battle and the ON DELETE CASCADE from battles.
CREATE INDEX timers_battle ON timers (battle_id, kind);

-- Messages the bot edits in place (status board, turn prompt), one per battle and kind.
CREATE TABLE messages (
    battle_id  INTEGER NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (battle_id, kind)
) STRICT, WITHOUT ROWID;
