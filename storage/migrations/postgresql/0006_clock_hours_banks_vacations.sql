-- Clock hours, quiet hours, time banks and vacations: the PostgreSQL twin of
-- sqlite/0007_clock_hours_banks_vacations.sql.
ALTER TABLE battle_clocks ADD COLUMN zone TEXT;
ALTER TABLE battle_clocks ADD COLUMN at_minute INTEGER CHECK (at_minute IS NULL OR at_minute BETWEEN 0 AND 1439);
ALTER TABLE battle_clocks ADD COLUMN skip_weekends INTEGER NOT NULL DEFAULT 0 CHECK (skip_weekends IN (0, 1));
ALTER TABLE battle_clocks ADD COLUMN quiet_from INTEGER CHECK (quiet_from IS NULL OR quiet_from BETWEEN 0 AND 1439);
ALTER TABLE battle_clocks ADD COLUMN quiet_to INTEGER CHECK (quiet_to IS NULL OR quiet_to BETWEEN 0 AND 1439);
ALTER TABLE battle_clocks ADD COLUMN bank_start DOUBLE PRECISION;
ALTER TABLE battle_clocks ADD COLUMN bank_per_turn DOUBLE PRECISION;
ALTER TABLE battle_clocks ADD COLUMN bank_cap DOUBLE PRECISION;
ALTER TABLE battle_clocks ADD COLUMN banks TEXT NOT NULL DEFAULT '{}';
ALTER TABLE battle_clocks ADD COLUMN bank_due TEXT NOT NULL DEFAULT '[]';
ALTER TABLE battle_clocks ADD COLUMN vacation_allowance DOUBLE PRECISION NOT NULL DEFAULT 1209600
    CHECK (vacation_allowance >= 0);
ALTER TABLE battle_clocks ADD COLUMN vacation_used TEXT NOT NULL DEFAULT '{}';
ALTER TABLE battle_clocks ADD COLUMN vacation_turn TEXT NOT NULL DEFAULT '{}';

CREATE TABLE vacations (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    starts     DOUBLE PRECISION NOT NULL,
    ends       DOUBLE PRECISION NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    CHECK (ends > starts)
);

CREATE INDEX vacations_user ON vacations (guild_id, user_id, ends);
