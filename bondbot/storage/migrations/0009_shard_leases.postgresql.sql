-- PostgreSQL's 0009 (see 0009_shard_leases.sql): times are double precision.
CREATE TABLE shard_leases (
    shard        INTEGER PRIMARY KEY CHECK (shard >= -1),
    holder       TEXT    COLLATE "C" NOT NULL,
    process      BIGINT  NOT NULL,
    host         TEXT    NOT NULL,
    machine      TEXT    COLLATE "C" NOT NULL,
    shard_count  INTEGER,
    started_at   DOUBLE PRECISION NOT NULL,
    heartbeat_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX shard_leases_by_holder ON shard_leases (holder);

CREATE TABLE shard_plan (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    shard_count  INTEGER NOT NULL CHECK (shard_count >= 1),
    recorded_at  DOUBLE PRECISION NOT NULL
);
