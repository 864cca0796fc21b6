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

-- Seats freed for a substitute: the player who left (user_id), the units they commanded (a JSON list of unit
-- ids), and who took the seat. status: 'open' (any member may take it), 'asked' (candidate waits for the GM's
-- approval), 'taken', or 'closed' (the GM gave the units out otherwise). Each tenure stays apart in the log:
-- every order records who gave it.
CREATE TABLE seats (
    battle_id   INTEGER NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    units       TEXT NOT NULL,
    sides       TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'asked', 'taken', 'closed')),
    released_by INTEGER NOT NULL,
    released_at REAL NOT NULL,
    candidate   INTEGER,
    taken_by    INTEGER,
    taken_at    REAL,
    PRIMARY KEY (battle_id, user_id)
) STRICT;

-- Per battle: whether a substitute needs the GM's approval to take a seat, and after how many missed
-- deadlines in a row a player's side falls into civil disorder (0: never).
CREATE TABLE seat_rules (
    battle_id      INTEGER PRIMARY KEY REFERENCES battles (id) ON DELETE CASCADE,
    approval       INTEGER NOT NULL DEFAULT 0 CHECK (approval IN (0, 1)),
    disorder_after INTEGER NOT NULL DEFAULT 2 CHECK (disorder_after >= 0)
) STRICT;

-- Each player's deadlines missed in a row in a battle (an order of theirs starts the count again), and since
-- when their units are in civil disorder (NULL: they are not).
CREATE TABLE absences (
    battle_id      INTEGER NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    missed         INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0),
    missed_total   INTEGER NOT NULL DEFAULT 0 CHECK (missed_total >= 0),
    disorder_since REAL,
    PRIMARY KEY (battle_id, user_id)
) STRICT;

-- A player's statistics across battles start from the battles they gave orders in.
CREATE INDEX events_actor ON events (actor_id, battle_id);
