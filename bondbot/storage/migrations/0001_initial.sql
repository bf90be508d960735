-- Guild settings, character sheets, active characters, and the ledger of money and Hero
-- Points with the balances it maintains. Applied in one transaction by Database.migrate().

CREATE TABLE guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    gm_role_id      INTEGER,
    locale          TEXT    NOT NULL DEFAULT 'fr' CHECK (locale IN ('fr', 'en')),
    currency        TEXT    NOT NULL DEFAULT '$' CHECK (length(currency) BETWEEN 1 AND 8),
    spend_window_s  INTEGER NOT NULL DEFAULT 60 CHECK (spend_window_s > 0),
    turn_timer_s    INTEGER NOT NULL DEFAULT 90 CHECK (turn_timer_s > 0),
    award_table     TEXT    -- NULL: the seed's table; else `0:0 1-5:1 …` (rules/alternative.py)
);

-- The sheet's identity is in columns (uniqueness, ownership, visibility); the rest of the
-- sheet is one JSON document validated by bondbot.sheets. Hero Points and cash are not
-- here: they are balances of the account 'sheet:{id}'. A deleted character is kept
-- (alive = 0) so its ledger history still names it; its name becomes free again.
CREATE TABLE characters (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: ledger accounts name it
    guild_id    INTEGER NOT NULL,
    name        TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    name_key    TEXT    NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('PC', 'NPC')),
    owner_id    INTEGER,
    revealed    INTEGER NOT NULL DEFAULT 0 CHECK (revealed IN (0, 1)),
    alive       INTEGER NOT NULL DEFAULT 1 CHECK (alive IN (0, 1)),
    data        TEXT    NOT NULL CHECK (json_valid(data)),
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    CHECK ((kind = 'PC') = (owner_id IS NOT NULL)),
    UNIQUE (guild_id, id)
);
CREATE UNIQUE INDEX characters_living_name ON characters (guild_id, name_key) WHERE alive = 1;
CREATE INDEX characters_by_owner ON characters (guild_id, owner_id) WHERE alive = 1;

-- The composite key makes the database refuse an active character from another guild.
CREATE TABLE active_characters (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX active_by_character ON active_characters (guild_id, character_id);

-- One row per movement: `amount` leaves `src` and reaches `dst`; NULL is outside the game
-- (a GM grant or take, an unlimited bank's losses). Accounts: 'sheet:{character}',
-- 'chips:{table}:{character}', 'bank:{table}'.
CREATE TABLE ledger (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('cash', 'hero')),
    amount      INTEGER NOT NULL CHECK (typeof(amount) = 'integer' AND amount > 0),
    src         TEXT,
    dst         TEXT,
    reason      TEXT    NOT NULL CHECK (length(reason) BETWEEN 1 AND 64),
    table_id    INTEGER,
    actor_id    INTEGER,
    note        TEXT,
    created_at  TEXT    NOT NULL,
    CHECK (src IS NOT NULL OR dst IS NOT NULL),
    CHECK (src IS NOT dst)
);
CREATE INDEX ledger_by_guild ON ledger (guild_id, id);
CREATE INDEX ledger_by_src ON ledger (src, kind);
CREATE INDEX ledger_by_dst ON ledger (dst, kind);

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'ledger is append-only');
END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'ledger is append-only');
END;

-- Balances follow the ledger in the same statement, so they cannot disagree with it. A
-- limited account can never go below zero: the CHECK fails the ledger INSERT itself.
CREATE TABLE balances (
    account    TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('cash', 'hero')),
    balance    INTEGER NOT NULL DEFAULT 0,
    unlimited  INTEGER NOT NULL DEFAULT 0 CHECK (unlimited IN (0, 1)),
    PRIMARY KEY (account, kind),
    CHECK (unlimited = 1 OR balance >= 0)
) WITHOUT ROWID;

-- Two steps (create at zero, then add) because a CHECK is tested before an upsert's
-- conflict, so an upsert's candidate row with a negative amount would always be refused.
CREATE TRIGGER ledger_debits_src AFTER INSERT ON ledger WHEN NEW.src IS NOT NULL
BEGIN
    INSERT INTO balances (account, kind) VALUES (NEW.src, NEW.kind) ON CONFLICT DO NOTHING;
    UPDATE balances SET balance = balance - NEW.amount
    WHERE account = NEW.src AND kind = NEW.kind;
END;

CREATE TRIGGER ledger_credits_dst AFTER INSERT ON ledger WHEN NEW.dst IS NOT NULL
BEGIN
    INSERT INTO balances (account, kind) VALUES (NEW.dst, NEW.kind) ON CONFLICT DO NOTHING;
    UPDATE balances SET balance = balance + NEW.amount
    WHERE account = NEW.dst AND kind = NEW.kind;
END;
