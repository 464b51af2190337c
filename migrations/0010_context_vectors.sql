-- Context vectors (ctx.core.embed.context): the dense channel searches each block's embedding
-- blended with its neighbours', kept next to the raw embedding. Existing rows start with their
-- own embedding; an embed_context job per (scope, category) blends them.

-- Each generation's HNSW index moves to the context vector (same name, new expression); dropped
-- first, so filling the column does not update an index that is about to go.
DO $$
DECLARE
    g record;
BEGIN
    FOR g IN SELECT id FROM context_embedding_generations LOOP
        EXECUTE format('DROP INDEX IF EXISTS context_block_embeddings_hnsw_%s', g.id);
    END LOOP;
END $$;

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

DO $$
DECLARE
    g record;
BEGIN
    FOR g IN SELECT id, dimensions FROM context_embedding_generations
              WHERE status IN ('active', 'building') LOOP
        EXECUTE format(
            'CREATE INDEX context_block_embeddings_hnsw_%s ON context_block_embeddings '
            'USING hnsw ((context::halfvec(%s)) halfvec_cosine_ops) '
            'WITH (m = 16, ef_construction = 64) WHERE generation = %s',
            g.id, g.dimensions, g.id);
    END LOOP;
END $$;

-- A block that leaves a sequence or joins one (deleted, archived, unarchived, moved to another
-- scope or category) changes its neighbours' context vectors: queue the recount in the same
-- transaction as the change, for the place it left and the place it took.
CREATE FUNCTION ctx_context_place_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO context_jobs (kind, payload, dedupe_key)
    VALUES ('embed_context',
            jsonb_build_object('scope', OLD.scope, 'category', OLD.category,
                               'at', OLD.created_at, 'id', OLD.id),
            'context:' || OLD.id || ':' || OLD.scope || ':' || OLD.category)
    ON CONFLICT DO NOTHING;
    IF TG_OP = 'UPDATE' AND (NEW.scope, NEW.category) IS DISTINCT FROM (OLD.scope, OLD.category)
    THEN
        INSERT INTO context_jobs (kind, payload, dedupe_key)
        VALUES ('embed_context',
                jsonb_build_object('scope', NEW.scope, 'category', NEW.category,
                                   'at', NEW.created_at, 'id', NEW.id),
                'context:' || NEW.id || ':' || NEW.scope || ':' || NEW.category)
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER context_blocks_place_deleted AFTER DELETE ON context_blocks
    FOR EACH ROW EXECUTE FUNCTION ctx_context_place_changed();
CREATE TRIGGER context_blocks_place_moved AFTER UPDATE OF is_archived, scope, category
    ON context_blocks FOR EACH ROW
    WHEN ((OLD.is_archived, OLD.scope, OLD.category)
          IS DISTINCT FROM (NEW.is_archived, NEW.scope, NEW.category))
    EXECUTE FUNCTION ctx_context_place_changed();

INSERT INTO context_jobs (kind, payload, dedupe_key)
SELECT 'embed_context', jsonb_build_object('scope', scope, 'category', category),
       'context:' || scope || ':' || category
  FROM (SELECT DISTINCT scope, category FROM context_blocks) s
ON CONFLICT DO NOTHING;
