-- The recount's floor (words in fewer of a scope's blocks get no row) is kept with the count, so
-- ctx_fts_plan can bound an uncounted word's blocks by it. Rows counted before this migration
-- have NULL: their floor was greatest(2, blocks * 0.005).
ALTER TABLE context_scope_stats ADD COLUMN IF NOT EXISTS term_floor integer;

-- `ctx embed status` and /api/status read the vectors written in the last minute (throughput,
-- ETA) without scanning the table.
CREATE INDEX IF NOT EXISTS context_block_embeddings_created
    ON context_block_embeddings (created_at);
