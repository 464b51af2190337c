-- Content times may come from relative expressions in a block's text, resolved against the
-- block's own date ("yesterday" in a note of 2023-05-08 is 2023-05-07): a third source. Every
-- dated block of a dated type is queued for extraction once so existing blocks gain them.

ALTER TABLE context_temporal DROP CONSTRAINT context_temporal_source_check;
ALTER TABLE context_temporal ADD CONSTRAINT context_temporal_source_check
    CHECK (source IN ('own', 'content', 'relative'));

INSERT INTO context_jobs (kind, payload, dedupe_key)
SELECT 'temporal', jsonb_build_object('block_id', b.id), b.id::text
  FROM context_blocks b
  JOIN context_block_types t ON t.name = b.block_type
 WHERE t.temporal_extract AND b.occurred_at IS NOT NULL
ON CONFLICT DO NOTHING;
