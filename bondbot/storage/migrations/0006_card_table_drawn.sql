-- Whether a closed table's message was redrawn closed (no buttons, the seed shown): a bot
-- stopped between closing a table and editing its message redraws it at the next start.
ALTER TABLE card_tables ADD COLUMN closed_drawn INTEGER NOT NULL DEFAULT 0
    CHECK (closed_drawn IN (0, 1));
UPDATE card_tables SET closed_drawn = 1 WHERE status = 'closed';
CREATE INDEX card_tables_closed_undrawn ON card_tables (id)
    WHERE status = 'closed' AND closed_drawn = 0;
