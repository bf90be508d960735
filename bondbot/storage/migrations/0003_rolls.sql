-- Skill rolls (rulebook.md "Skill roll"): each roll is kept so its owner can spend Hero
-- Points on it later, one step per point, from any device and after a restart. `steps`
-- only grows, by compare-and-set in the same transaction as the Hero Point's ledger row,
-- so a double click can never spend twice.
CREATE TABLE rolls (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    character_id    INTEGER NOT NULL,
    roller_id       INTEGER NOT NULL,   -- the Discord user who rolled (the owner or the GM)
    spender_id      INTEGER,            -- the only user who may spend: the PC's owner
    skill           TEXT    NOT NULL CHECK (length(skill) BETWEEN 1 AND 64),
    characteristic  TEXT    NOT NULL CHECK (characteristic IN ('STR', 'DEX', 'WIL', 'PER', 'INT')),
    char_value      INTEGER NOT NULL,
    level           INTEGER NOT NULL CHECK (level BETWEEN 0 AND 15),
    ease            TEXT    NOT NULL,   -- the Ease Factor asked for, as a fraction (`5`, `5/2`)
    effective_ease  TEXT    NOT NULL,   -- the one rolled against (3 lower without the skill)
    primary_chance  INTEGER NOT NULL,
    success_chance  INTEGER NOT NULL,
    d100            INTEGER NOT NULL CHECK (d100 BETWEEN 1 AND 100),
    quality         INTEGER CHECK (quality IS NULL OR quality BETWEEN 1 AND 4),  -- NULL: failed
    steps           INTEGER NOT NULL DEFAULT 0 CHECK (steps BETWEEN 0 AND 4),
    secret          INTEGER NOT NULL DEFAULT 0 CHECK (secret IN (0, 1)),
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL,
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id)
);
CREATE INDEX rolls_by_character ON rolls (guild_id, character_id, id);
