-- Card tables: one open table per channel. The whole table (seats, choices, the game
-- engine with its shoe, Hero Point offers, contests) is the JSON document `state`,
-- rewritten in the same transaction as the ledger rows of each action. Chips and the
-- NPC's bank are ledger balances ('chips:{table}:{character}', 'bank:{table}').
CREATE TABLE card_tables (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('open', 'closed')),
    message_id  INTEGER,
    state       TEXT    NOT NULL CHECK (json_valid(state)),
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    closed_at   TEXT
);
CREATE UNIQUE INDEX card_tables_one_open_per_channel ON card_tables (channel_id)
    WHERE status = 'open';
CREATE INDEX card_tables_by_guild ON card_tables (guild_id, status);
