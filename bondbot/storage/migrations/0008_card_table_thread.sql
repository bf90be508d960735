-- The public thread a table plays in, started from its message (NULL: not yet, or the
-- table stays in its channel; 0: the bot was not allowed to start one).
ALTER TABLE card_tables ADD COLUMN thread_id INTEGER;
