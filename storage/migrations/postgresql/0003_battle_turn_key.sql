-- The turn a battle was in when its state was last written by an order ('' when no turn was running;
-- NULL when not known: written before this column, by an undo or by an import). Startup compares it with
-- the turn its clock has, so only battles whose clock may be out of step are read and rebuilt.
ALTER TABLE battles ADD COLUMN turn_key TEXT;
