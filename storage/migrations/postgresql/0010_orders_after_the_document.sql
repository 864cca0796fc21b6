-- How many of a battle's newest orders the stored state does not include yet. An order writes its log entry
-- (with the dice it rolled) at once; the whole state document is written again only every few orders, when
-- the battle's status changes, and by anything that is not a replayable order. Reading a battle replays these
-- orders on the stored document; each run of them starts at an entry that keeps the state before it.
ALTER TABLE battles ADD COLUMN behind INTEGER NOT NULL DEFAULT 0;
