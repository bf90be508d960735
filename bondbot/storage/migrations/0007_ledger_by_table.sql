-- A table's ledger, oldest first, for the evening's summary at its close
-- (ledger.table_entries): one range of this index, however big the guild's ledger is.
CREATE INDEX ledger_by_table ON ledger (table_id, id) WHERE table_id IS NOT NULL;
