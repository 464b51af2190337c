-- Limits (issue 19): per-key request counts, and the longest content per block type.

-- Per-key request counts for the rate limits (limits.*_per_minute): one row per key, kind and
-- minute. Every ctxd of a database counts into the same rows, so a key's limit holds across a
-- fleet. UNLOGGED: no WAL for a counter bumped on every request; a crash empties it, which only
-- forgives the current minute.
CREATE UNLOGGED TABLE IF NOT EXISTS context_rate_counts (
    api_key_id   uuid        NOT NULL,
    kind         text        NOT NULL,
    window_start timestamptz NOT NULL,
    n            integer     NOT NULL,
    PRIMARY KEY (api_key_id, kind, window_start)
);

-- The longest content a block of each type may have (characters); every write path checks it
-- (ctx.core.blocks.write.prepare_write). 900,000 is what any request may carry.
ALTER TABLE context_block_types ADD COLUMN IF NOT EXISTS max_content_chars integer NOT NULL
    DEFAULT 900000 CHECK (max_content_chars BETWEEN 1 AND 900000);
