-- Every post the bot owes Discord (turn pings, reminders, status board edits, results whose interaction is
-- gone, side-thread secrets), kept until Discord takes it or a newer one makes it obsolete. A row is
-- claimed by leasing it (leased_until), so a process that stops mid-post leaves it to be tried again.
CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    -- NULL for a post of no battle (an answer to a command outside any battle).
    battle_id    INTEGER REFERENCES battles (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL,
    -- A newer row with the same key supersedes an older one not yet being sent (a board edit, say).
    coalesce_key TEXT,
    payload      TEXT NOT NULL DEFAULT '{}',
    due_at       REAL NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    leased_until REAL,
    created_at   REAL NOT NULL,
    settled_at   REAL,
    -- NULL while owed; then sent, superseded, obsolete or refused.
    outcome      TEXT
) STRICT;

-- The delivery loop polls this: only owed rows are indexed, so the history costs nothing.
CREATE INDEX outbox_owed_due ON outbox (due_at, id) WHERE settled_at IS NULL;
CREATE INDEX outbox_owed_key ON outbox (coalesce_key) WHERE settled_at IS NULL;
CREATE INDEX outbox_battle ON outbox (battle_id);
