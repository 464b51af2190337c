-- `ctx embed status` and /api/status count from indexes, never by scanning a large table: the
-- blocks of the embedded types (an index-only scan of this small, deduplicated index instead of
-- the blocks' heap), and the job queue by status (queued and running have their partial indexes
-- already; quarantined jobs get theirs).
CREATE INDEX IF NOT EXISTS context_blocks_type ON context_blocks (block_type);
CREATE INDEX IF NOT EXISTS context_jobs_quarantined ON context_jobs (kind)
    WHERE status = 'quarantined';
