-- Each player's own settings in one battle, and what the reminders of their current turn have done.
-- remind: 'battle' (the battle's reminder times), 'off', 'once' (the first of them only), or 'every:N'
-- (every N hours of the turn). muted_turn: the turn whose ping and reminders the player muted; '*' for the
-- next turn that calls them. reminded and stall_told count for turn_key only and start again each turn.
CREATE TABLE battle_players (
    battle_id   INTEGER NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    remind      TEXT NOT NULL DEFAULT 'battle',
    muted_turn  TEXT,
    turn_key    TEXT,
    reminded    INTEGER NOT NULL DEFAULT 0 CHECK (reminded >= 0),
    stall_told  INTEGER NOT NULL DEFAULT 0 CHECK (stall_told IN (0, 1)),
    PRIMARY KEY (battle_id, user_id)
) STRICT;

-- Where a battle's private posts go: whether each side has a private thread (threads: a JSON object of
-- side -> {"thread": id, "members": [user ids]}), after how many unanswered reminders the GM hears who
-- is stalling (0: never), and whether the GM was told that threads could not be made (DMs instead).
CREATE TABLE battle_posting (
    battle_id     INTEGER PRIMARY KEY REFERENCES battles (id) ON DELETE CASCADE,
    side_threads  INTEGER NOT NULL DEFAULT 0 CHECK (side_threads IN (0, 1)),
    stall_after   INTEGER NOT NULL DEFAULT 0 CHECK (stall_after >= 0),
    fallback_told INTEGER NOT NULL DEFAULT 0 CHECK (fallback_told IN (0, 1)),
    threads       TEXT NOT NULL DEFAULT '{}'
) STRICT;
