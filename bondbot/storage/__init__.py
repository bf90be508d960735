"""Persistence, and the only place that writes SQL: SQLite (aiosqlite, the default) or
PostgreSQL (psycopg), each behind one group-commit writer and a read connection (`db`,
`writer`), with migrations, the append-only ledger and its balances, reconnection after a
lost connection (`link`) and the shards' leases (`leases`)."""
