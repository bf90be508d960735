-- PostgreSQL's 0008 (see 0008_card_table_thread.sql): a Discord id is a BIGINT.
ALTER TABLE card_tables ADD COLUMN thread_id BIGINT;
