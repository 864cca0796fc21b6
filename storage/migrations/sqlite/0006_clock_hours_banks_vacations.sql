-- Clock hours, quiet hours, time banks and vacations of a battle's clock (minutes after midnight in the
-- battle's zone; seconds for lengths), each side's bank and each player's vacation time used (JSON
-- objects, written with the clock row so they change together), and each player's vacations.
ALTER TABLE battle_clocks ADD COLUMN zone TEXT;
ALTER TABLE battle_clocks ADD COLUMN at_minute INTEGER CHECK (at_minute IS NULL OR at_minute BETWEEN 0 AND 1439);
ALTER TABLE battle_clocks ADD COLUMN skip_weekends INTEGER NOT NULL DEFAULT 0 CHECK (skip_weekends IN (0, 1));
ALTER TABLE battle_clocks ADD COLUMN quiet_from INTEGER CHECK (quiet_from IS NULL OR quiet_from BETWEEN 0 AND 1439);
ALTER TABLE battle_clocks ADD COLUMN quiet_to INTEGER CHECK (quiet_to IS NULL OR quiet_to BETWEEN 0 AND 1439);
ALTER TABLE battle_clocks ADD COLUMN bank_start REAL;
ALTER TABLE battle_clocks ADD COLUMN bank_per_turn REAL;
ALTER TABLE battle_clocks ADD COLUMN bank_cap REAL;
ALTER TABLE battle_clocks ADD COLUMN banks TEXT NOT NULL DEFAULT '{}';
ALTER TABLE battle_clocks ADD COLUMN bank_due TEXT NOT NULL DEFAULT '[]';
ALTER TABLE battle_clocks ADD COLUMN vacation_allowance REAL NOT NULL DEFAULT 1209600 CHECK (vacation_allowance >= 0);
ALTER TABLE battle_clocks ADD COLUMN vacation_used TEXT NOT NULL DEFAULT '{}';
ALTER TABLE battle_clocks ADD COLUMN vacation_turn TEXT NOT NULL DEFAULT '{}';

-- A player away from every battle of a server, from `starts` to `ends` (unix seconds).
CREATE TABLE vacations (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    starts     REAL NOT NULL,
    ends       REAL NOT NULL,
    created_at REAL NOT NULL,
    CHECK (ends > starts)
) STRICT;

CREATE INDEX vacations_user ON vacations (guild_id, user_id, ends);
