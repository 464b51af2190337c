-- Hybrid retrieval: embedding generations, per-block embeddings, the block's own date, ctx_rrf().

ALTER TABLE context_blocks ADD COLUMN occurred_at timestamptz;
CREATE INDEX context_blocks_occurred ON context_blocks (occurred_at) WHERE occurred_at IS NOT NULL;

-- Filled by temporal extraction: the block's content times as tokens ("d20260323", "m202603")
-- for the date channel, and the mass factor 1/sqrt(number of content times) that keeps blocks
-- mentioning many dates from dominating every query.
ALTER TABLE context_blocks ADD COLUMN ts_dates tsvector;
ALTER TABLE context_blocks ADD COLUMN time_mass real NOT NULL DEFAULT 1.0
    CHECK (time_mass > 0 AND time_mass <= 1);
CREATE INDEX context_blocks_ts_dates ON context_blocks USING gin (ts_dates)
    WHERE ts_dates IS NOT NULL;

-- A generation is one embedding space (provider + model + dimensions). Exactly one is active;
-- a rebuild fills a 'building' one in the background and switches when it is complete.
CREATE TABLE context_embedding_generations (
    id            serial      PRIMARY KEY,
    provider      text        NOT NULL,
    model         text        NOT NULL,
    dimensions    integer     NOT NULL CHECK (dimensions BETWEEN 1 AND 4000),
    status        text        NOT NULL DEFAULT 'building'
                  CHECK (status IN ('building', 'active', 'retired')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    activated_at  timestamptz
);
CREATE UNIQUE INDEX context_embedding_generations_one_active
    ON context_embedding_generations ((true)) WHERE status = 'active';

-- One row per block and generation. The column has no fixed dimension; each generation gets its
-- own partial HNSW index over an expression cast to its dimension (see ctx_embedding_index()).
CREATE TABLE context_block_embeddings (
    block_id      uuid        NOT NULL REFERENCES context_blocks (id) ON DELETE CASCADE,
    generation    integer     NOT NULL REFERENCES context_embedding_generations (id) ON DELETE CASCADE,
    content_hash  text        NOT NULL,
    embedding     halfvec     NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (block_id, generation)
);
CREATE INDEX context_block_embeddings_generation ON context_block_embeddings (generation);

-- Creates the HNSW (cosine) index of one generation; idempotent.
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
        'USING hnsw ((embedding::halfvec(%s)) halfvec_cosine_ops) '
        'WITH (m = 16, ef_construction = 64) WHERE generation = %s',
        p_generation, dims, p_generation);
END $$;

-- Weighted Reciprocal Rank Fusion in one statement over dense cosine (active generation), English
-- FTS, German FTS, trigram title similarity and, when the query resolved to dates, a date channel
-- (ISO days and months only). Each channel contributes weight / (k + rank), multiplied by the
-- block's mass factor and its type's retrieval factor.
--
-- Every channel reads its own index (HNSW, GIN, GiST KNN) with the filters (scopes, archive,
-- excluded types, category, tags, excluded ids) inside it, so no channel returns a block the
-- caller may not read and none scans the whole table. Full-text queries OR their lexemes (a
-- question rarely contains every word of its answer). In a large store (at least p_min_blocks
-- blocks) they leave out lexemes that occur in more than p_common_cutoff of all blocks (ANALYZE
-- statistics): such words barely discriminate and would make the channel rank a large part of
-- the table; a small store keeps every word, since ranking it all is cheap.
CREATE OR REPLACE FUNCTION ctx_fts_query(
    p_config regconfig, p_text text, p_column text, p_common_cutoff real, p_min_blocks real
) RETURNS tsquery
LANGUAGE plpgsql STABLE AS $$
DECLARE
    lexemes  text[];
    common   text[];
    freqs    real[];
    kept     text[];
BEGIN
    lexemes := tsvector_to_array(to_tsvector(p_config, coalesce(p_text, '')));
    IF lexemes IS NULL OR cardinality(lexemes) = 0 THEN
        RETURN ''::tsquery;
    END IF;
    IF p_common_cutoff < 1 AND (SELECT reltuples FROM pg_class
                                 WHERE oid = 'context_blocks'::regclass) >= p_min_blocks THEN
        SELECT most_common_elems::text::text[], most_common_elem_freqs
          INTO common, freqs
          FROM pg_stats
         WHERE schemaname = current_schema() AND tablename = 'context_blocks'
           AND attname = p_column;
    END IF;
    IF common IS NOT NULL THEN
        kept := ARRAY(SELECT l FROM unnest(lexemes) AS l
                       WHERE coalesce(freqs[array_position(common, l)], 0) <= p_common_cutoff);
        IF cardinality(kept) = 0 THEN
            -- every word is common: keep the rarest one rather than nothing
            kept := ARRAY(SELECT l FROM unnest(lexemes) AS l
                           ORDER BY coalesce(freqs[array_position(common, l)], 0) LIMIT 1);
        END IF;
    ELSE
        kept := lexemes;
    END IF;
    RETURN array_to_string(ARRAY(SELECT quote_literal(l) FROM unnest(kept) AS l), ' | ')::tsquery;
END $$;

CREATE OR REPLACE FUNCTION ctx_rrf(
    p_query           text,
    p_embedding       text,          -- '[…]' literal of the query vector, or NULL: no dense channel
    p_generation      integer,
    p_dims            integer,
    p_scopes          text[],
    p_category        text    DEFAULT NULL,
    p_tags            text[]  DEFAULT '{}',
    p_exclude_ids     uuid[]  DEFAULT '{}',
    p_exclude_types   text[]  DEFAULT '{}',
    p_weights         real[]  DEFAULT '{0.45,0.25,0.20,0.10,0.10}',
    p_k               integer DEFAULT 60,
    p_limits          integer[] DEFAULT '{75,100,100,30,100}',
    p_trgm_threshold  real    DEFAULT 0.05,
    p_result_limit    integer DEFAULT 200,
    p_date_query      text    DEFAULT NULL,  -- 'd20260323 | m202603' or NULL: no date channel
    p_common_cutoff   real    DEFAULT 0.05,
    p_cutoff_min_blocks real  DEFAULT 5000
) RETURNS TABLE (
    block_id    uuid,
    score       double precision,
    dense_rank  integer,
    en_rank     integer,
    de_rank     integer,
    trgm_rank   integer,
    date_rank   integer,
    dense_sim   real,
    en_score    real,
    de_score    real,
    trgm_sim    real
)
LANGUAGE plpgsql STABLE AS $$
DECLARE
    excluded   text[];
    q_en       tsquery;
    q_de       tsquery;
    q_dates    tsquery;
    content_words text;
    w          real[] := p_weights || ARRAY[0, 0, 0, 0, 0]::real[];
    filters    constant text :=
        'b.scope = ANY($3) AND NOT b.is_archived AND NOT (b.block_type = ANY($6)) '
        'AND ($4::text IS NULL OR b.category = $4) AND b.tags @> $5 AND NOT (b.id = ANY($8))';
    dense_sql  text := 'SELECT NULL::uuid AS id, NULL::real AS sim, NULL::bigint AS rnk WHERE false';
BEGIN
    PERFORM set_config('hnsw.ef_search', greatest(40, p_limits[1] * 2)::text, true);
    -- the `%` operator of the trigram channel reads its threshold from this setting
    PERFORM set_config('pg_trgm.similarity_threshold', p_trgm_threshold::text, true);
    PERFORM set_config('hnsw.iterative_scan', 'relaxed_order', true);
    excluded := coalesce(p_exclude_types, '{}') || ARRAY(
        SELECT name::text FROM context_block_types WHERE retrieval_policy = 'excluded');
    -- The query without English stopwords: the German channel would otherwise match German
    -- text through "we", "do", "how", and the title channel would compare every title that
    -- shares a trigram with "the".
    content_words := (SELECT string_agg(token, ' ') FROM ts_debug('english', p_query)
                       WHERE lexemes IS NOT NULL AND lexemes <> '{}');
    q_en := CASE WHEN w[2] > 0 THEN ctx_fts_query(
                'english', p_query, 'ts_en', p_common_cutoff, p_cutoff_min_blocks) END;
    q_de := CASE WHEN w[3] > 0 THEN ctx_fts_query(
                'german', content_words, 'ts_de', p_common_cutoff, p_cutoff_min_blocks) END;
    q_dates := CASE WHEN w[5] > 0 AND p_date_query IS NOT NULL
                    THEN to_tsquery('simple', p_date_query) END;

    IF p_embedding IS NOT NULL AND p_generation IS NOT NULL AND w[1] > 0 THEN
        dense_sql := format($d$
            SELECT id, sim, row_number() OVER (ORDER BY dist, id) AS rnk FROM (
                SELECT e.block_id AS id,
                       (e.embedding::halfvec(%1$s) <=> $2::halfvec(%1$s)) AS dist,
                       (1 - (e.embedding::halfvec(%1$s) <=> $2::halfvec(%1$s)))::real AS sim
                  FROM context_block_embeddings e
                  JOIN context_blocks b ON b.id = e.block_id
                 WHERE e.generation = %2$s AND %3$s
                 ORDER BY e.embedding::halfvec(%1$s) <=> $2::halfvec(%1$s)
                 LIMIT $7) d$d$, p_dims, p_generation, filters);
    END IF;

    RETURN QUERY EXECUTE format($q$
        WITH dense AS (%1$s),
        en AS (
            SELECT id, s, row_number() OVER (ORDER BY s DESC, id) AS rnk FROM (
                SELECT b.id, ts_rank_cd(b.ts_en, $15)::real AS s
                  FROM context_blocks b
                 WHERE $15 IS NOT NULL AND b.ts_en @@ $15 AND %2$s
                 ORDER BY 2 DESC LIMIT $9) x
        ),
        de AS (
            SELECT id, s, row_number() OVER (ORDER BY s DESC, id) AS rnk FROM (
                SELECT b.id, ts_rank_cd(b.ts_de, $16)::real AS s
                  FROM context_blocks b
                 WHERE $16 IS NOT NULL AND b.ts_de @@ $16 AND %2$s
                 ORDER BY 2 DESC LIMIT $10) x
        ),
        trgm AS (
            SELECT id, s, row_number() OVER (ORDER BY s DESC, id) AS rnk FROM (
                SELECT b.id, similarity(b.title, $17)::real AS s
                  FROM context_blocks b
                 WHERE $12[4] > 0 AND b.title %% $17 AND %2$s
                 ORDER BY 2 DESC
                 LIMIT $11) x
        ),
        dated AS (
            SELECT id, row_number() OVER (ORDER BY s DESC, id) AS rnk FROM (
                SELECT b.id, ts_rank_cd(b.ts_dates, $18)::real AS s
                  FROM context_blocks b
                 WHERE $18 IS NOT NULL AND b.ts_dates @@ $18 AND %2$s
                 ORDER BY 2 DESC LIMIT $19) x
        ),
        fused AS (
            SELECT coalesce(dense.id, en.id, de.id, trgm.id, dated.id) AS id,
                   coalesce($12[1] / ($13 + dense.rnk), 0)
                 + coalesce($12[2] / ($13 + en.rnk), 0)
                 + coalesce($12[3] / ($13 + de.rnk), 0)
                 + coalesce($12[4] / ($13 + trgm.rnk), 0)
                 + coalesce($12[5] / ($13 + dated.rnk), 0) AS raw,
                   dense.rnk AS d_rnk, en.rnk AS e_rnk, de.rnk AS g_rnk, trgm.rnk AS t_rnk,
                   dated.rnk AS x_rnk,
                   dense.sim AS d_sim, en.s AS e_s, de.s AS g_s, trgm.s AS t_s
              FROM dense
              FULL OUTER JOIN en ON en.id = dense.id
              FULL OUTER JOIN de ON de.id = coalesce(dense.id, en.id)
              FULL OUTER JOIN trgm ON trgm.id = coalesce(dense.id, en.id, de.id)
              FULL OUTER JOIN dated ON dated.id = coalesce(dense.id, en.id, de.id, trgm.id)
        )
        SELECT f.id,
               (f.raw * b.time_mass * CASE WHEN t.retrieval_policy = 'normal' THEN 1.0
                                           ELSE t.retrieval_factor END)::double precision,
               f.d_rnk::int, f.e_rnk::int, f.g_rnk::int, f.t_rnk::int, f.x_rnk::int,
               f.d_sim, f.e_s, f.g_s, f.t_s
          FROM fused f
          JOIN context_blocks b ON b.id = f.id
          JOIN context_block_types t ON t.name = b.block_type
         ORDER BY 2 DESC, f.id
         LIMIT $14
    $q$, dense_sql, filters)
    USING p_query, p_embedding, p_scopes, p_category, coalesce(p_tags, '{}'), excluded,
          p_limits[1], coalesce(p_exclude_ids, '{}'), p_limits[2], p_limits[3], p_limits[4], w,
          p_k::double precision, p_result_limit, q_en, q_de, content_words, q_dates,
          p_limits[5];
END $$;

-- Options the generation's embedder was built with (never secrets: those come from settings).
ALTER TABLE context_embedding_generations ADD COLUMN options jsonb NOT NULL DEFAULT '{}'::jsonb;
