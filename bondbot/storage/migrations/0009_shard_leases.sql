-- Which process serves which shard (storage.leases): a row per shard a running process
-- holds, its heartbeat renewed every few seconds; shard -1 is a process serving every shard.
-- Times are seconds since 1970 on the database's own clock, so hosts' clocks never matter.
CREATE TABLE shard_leases (
    shard        INTEGER PRIMARY KEY CHECK (shard >= -1),
    holder       TEXT    NOT NULL,  -- this run of the process (a random token)
    process      INTEGER NOT NULL,  -- its pid
    host         TEXT    NOT NULL,  -- its host name
    machine      TEXT    NOT NULL,  -- its boot and pid namespace: where `process` can be looked up
    shard_count  INTEGER,           -- NULL: every shard, at Discord's recommended count
    started_at   REAL    NOT NULL,
    heartbeat_at REAL    NOT NULL
);
CREATE INDEX shard_leases_by_holder ON shard_leases (holder);

-- The shard count the processes on this database run with (one row, once a process with a
-- count has started): a process with another count is refused while one of them runs.
CREATE TABLE shard_plan (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    shard_count  INTEGER NOT NULL CHECK (shard_count >= 1),
    recorded_at  REAL    NOT NULL
);
