-- Since when a player lets reminders pass, and the GM's private thread: the PostgreSQL twin of
-- sqlite/0005_stall_since_and_gm_thread.sql.
ALTER TABLE battle_players ADD COLUMN reminded_since DOUBLE PRECISION;

ALTER TABLE battle_posting ADD COLUMN gm_thread BIGINT;
