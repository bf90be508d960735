-- PostgreSQL's 0004 (see 0004_indexed_lookups.sql). Generated columns are STORED (the
-- only kind PostgreSQL has). A PostgreSQL database is migrated from empty by this
-- version of BondBot, or filled by `bondbot copy-database` after its migrations, so
-- there are no sheets to backfill here.
ALTER TABLE ledger ADD COLUMN src_character BIGINT GENERATED ALWAYS AS (
    CASE substr(src, 1, 6)
        WHEN 'sheet:' THEN CAST(substr(src, 7) AS BIGINT)
        WHEN 'chips:' THEN CAST(split_part(src, ':', 3) AS BIGINT)
    END
) STORED;
ALTER TABLE ledger ADD COLUMN dst_character BIGINT GENERATED ALWAYS AS (
    CASE substr(dst, 1, 6)
        WHEN 'sheet:' THEN CAST(substr(dst, 7) AS BIGINT)
        WHEN 'chips:' THEN CAST(split_part(dst, ':', 3) AS BIGINT)
    END
) STORED;
CREATE INDEX ledger_by_src_character ON ledger (src_character, guild_id, id)
    WHERE src_character IS NOT NULL;
CREATE INDEX ledger_by_dst_character ON ledger (dst_character, guild_id, id)
    WHERE dst_character IS NOT NULL;

ALTER TABLE characters ADD COLUMN name_fold TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE characters ADD COLUMN rank TEXT COLLATE "C" NOT NULL DEFAULT 'Agent';
ALTER TABLE characters ADD COLUMN house_skills TEXT COLLATE "C"
    CHECK (house_skills IS NULL OR CAST(house_skills AS jsonb) IS NOT NULL);

CREATE INDEX characters_listed
    ON characters (guild_id, alive, name_key, name_fold, kind, owner_id, revealed, rank, name);
CREATE INDEX characters_with_house_skills
    ON characters (guild_id, alive, kind, revealed, house_skills) WHERE house_skills IS NOT NULL;
