-- Context vectors (ctx.core.embed.context): the dense channel searches each block's embedding
-- blended with its neighbours', kept next to the raw embedding. Existing rows start with their
-- own embedding; an embed_context job per (scope, category) blends them.
ALTER TABLE context_block_embeddings ADD COLUMN context halfvec;
UPDATE context_block_embeddings SET context = embedding;
ALTER TABLE context_block_embeddings ALTER COLUMN context SET NOT NULL;

-- A row written without a context vector (a rebuild's fill before its blend, a bulk load) starts
-- with its own embedding.
CREATE FUNCTION ctx_context_default() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.context IS NULL THEN
        NEW.context := NEW.embedding;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER context_block_embeddings_context BEFORE INSERT ON context_block_embeddings
    FOR EACH ROW EXECUTE FUNCTION ctx_context_default();

-- Neighbours in writing order, and the keyset pages of a whole sequence.
CREATE INDEX context_blocks_sequence ON context_blocks (scope, category, created_at, id)
    WHERE NOT is_archived;

-- Each generation's HNSW index now covers the context vector (same name, new expression).
DO $$
DECLARE
    g record;
BEGIN
    FOR g IN SELECT id, dimensions FROM context_embedding_generations LOOP
        EXECUTE format('DROP INDEX IF EXISTS context_block_embeddings_hnsw_%s', g.id);
        IF EXISTS (SELECT 1 FROM context_embedding_generations
                    WHERE id = g.id AND status IN ('active', 'building')) THEN
            EXECUTE format(
                'CREATE INDEX context_block_embeddings_hnsw_%s ON context_block_embeddings '
                'USING hnsw ((context::halfvec(%s)) halfvec_cosine_ops) '
                'WITH (m = 16, ef_construction = 64) WHERE generation = %s',
                g.id, g.dimensions, g.id);
        END IF;
    END LOOP;
END $$;

INSERT INTO context_jobs (kind, payload, dedupe_key)
SELECT 'embed_context', jsonb_build_object('scope', scope, 'category', category),
       'context:' || scope || ':' || category
  FROM (SELECT DISTINCT scope, category FROM context_blocks) s
ON CONFLICT DO NOTHING;
