-- Each save of a table's state bumps its version, and a save is refused unless the table
-- is still at the version the action started from: the bot keeps open tables in memory,
-- and a second process writing the same table (a mistake) must not be overwritten.
ALTER TABLE card_tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
