-- Creates the HNSW (cosine) index of one embedding generation over its context vectors
-- (ctx.core.embed.context); idempotent. Each generation has
-- its own partial index over the vector cast to its dimension, so the table needs no fixed
-- dimension and a rebuild never touches the index that serves queries.
CREATE OR REPLACE FUNCTION ctx_embedding_index(p_generation integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    dims integer;
BEGIN
    SELECT dimensions INTO dims FROM context_embedding_generations WHERE id = p_generation;
    IF dims IS NULL THEN
        RAISE EXCEPTION 'unknown embedding generation %', p_generation;
    END IF;
    EXECUTE format(
        'CREATE INDEX IF NOT EXISTS context_block_embeddings_hnsw_%s ON context_block_embeddings '
        'USING hnsw ((context::halfvec(%s)) halfvec_cosine_ops) '
        'WITH (m = 16, ef_construction = 64) WHERE generation = %s',
        p_generation, dims, p_generation);
END $$;
