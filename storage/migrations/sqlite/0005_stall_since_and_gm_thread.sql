-- When a player let the first of this turn's unanswered reminders pass (seconds since the epoch; NULL once
-- they act, or while no reminder is unanswered), so the GM hears since when they are stalling.
ALTER TABLE battle_players ADD COLUMN reminded_since REAL;

-- The battle GM's private thread in the battle's channel, where stall reports go (NULL until made).
ALTER TABLE battle_posting ADD COLUMN gm_thread INTEGER;
