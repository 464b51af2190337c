-- Read replicas (issue 38): the WAL position of each key's last write.
--
-- After a call that wrote commits, ctxd records the primary's WAL insert position for the key
-- (ctx.core.runtime.replicas); authentication reads it back in its one statement, and a read
-- replica serves the key's next calls only once it has replayed that far: a key reads its own
-- writes through any ctxd. Only ctxd processes with CTX_DATABASE_READ_URL write rows here.
-- UNLOGGED, like the rate counts: no WAL of its own for a row bumped on every write call, and
-- read on the primary only. A crash empties it; then max lag (db.replica_max_lag_mb) is the
-- only bound until each key writes again.
CREATE UNLOGGED TABLE IF NOT EXISTS context_key_lsns (
    key_id uuid   NOT NULL PRIMARY KEY,
    lsn    pg_lsn NOT NULL
) WITH (fillfactor = 50);
