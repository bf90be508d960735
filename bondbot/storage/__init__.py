"""Persistence, and the only place that writes SQL: SQLite (aiosqlite, the default) or
PostgreSQL (psycopg, `postgres`), each behind one group-commit writer and a read connection
(`db`, `writer`; the connections themselves in `sqliteconn` and `pgconn`), with migrations,
the append-only ledger and its balances (`ledger`), reconnection after a lost connection
(`link`) and the shards' leases (`leases`)."""
