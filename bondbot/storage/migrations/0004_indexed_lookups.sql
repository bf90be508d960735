-- Every query a user can trigger reads an index, never the whole guild's ledger or every
-- sheet (tests/storage/test_query_plans.py checks each plan).

-- The character an account belongs to ('sheet:{c}' and 'chips:{t}:{c}'; NULL for a bank
-- or outside the game), computed from the account (never stored twice, so the ledger
-- stays append-only and cannot disagree with it). One character's ledger is then two
-- index ranges, newest first, however big the guild's ledger is.
ALTER TABLE ledger ADD COLUMN src_character INTEGER GENERATED ALWAYS AS (
    CASE substr(src, 1, 6)
        WHEN 'sheet:' THEN CAST(substr(src, 7) AS INTEGER)
        WHEN 'chips:' THEN CAST(substr(src, 7 + instr(substr(src, 7), ':')) AS INTEGER)
    END
) VIRTUAL;
ALTER TABLE ledger ADD COLUMN dst_character INTEGER GENERATED ALWAYS AS (
    CASE substr(dst, 1, 6)
        WHEN 'sheet:' THEN CAST(substr(dst, 7) AS INTEGER)
        WHEN 'chips:' THEN CAST(substr(dst, 7 + instr(substr(dst, 7), ':')) AS INTEGER)
    END
) VIRTUAL;
CREATE INDEX ledger_by_src_character ON ledger (src_character, guild_id, id)
    WHERE src_character IS NOT NULL;
CREATE INDEX ledger_by_dst_character ON ledger (dst_character, guild_id, id)
    WHERE dst_character IS NOT NULL;

-- What lists and autocomplete show, in columns written with the sheet (derived from it by
-- bondbot.storage.characters): the name as autocomplete compares it (bondbot.sheets.fold:
-- case, accents and punctuation ignored), the rank, and the sheet's house skills (a JSON
-- array, NULL for none). Lists read them from covering indexes, never a sheet's JSON.
-- bondbot_fold and bondbot_house_skills are the Python functions, registered on the
-- connection by Database.open for this backfill.
ALTER TABLE characters ADD COLUMN name_fold TEXT NOT NULL DEFAULT '';
ALTER TABLE characters ADD COLUMN rank TEXT NOT NULL DEFAULT 'Agent';
ALTER TABLE characters ADD COLUMN house_skills TEXT CHECK (house_skills IS NULL OR json_valid(house_skills));
UPDATE characters SET
    name_fold = bondbot_fold(name),
    rank = json_extract(data, '$.rank'),
    house_skills = bondbot_house_skills(data);

-- `alive` is a column here, not a partial index's WHERE: SQLite reads an index as covering
-- only when it holds every column the query names.
CREATE INDEX characters_listed
    ON characters (guild_id, alive, name_key, name_fold, kind, owner_id, revealed, rank, name);
CREATE INDEX characters_with_house_skills
    ON characters (guild_id, alive, kind, revealed, house_skills) WHERE house_skills IS NOT NULL;
