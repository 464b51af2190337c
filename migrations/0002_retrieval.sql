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
-- Filters (scopes, archive, excluded types, category, tags, excluded ids) apply inside every
-- channel, so no channel can return a block the caller may not read.
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
    p_date_query      text    DEFAULT NULL   -- 'd20260323 | m202603' or NULL: no date channel
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
    dense_sql text;
BEGIN
    PERFORM set_config('pg_trgm.similarity_threshold', p_trgm_threshold::text, true);
    PERFORM set_config('hnsw.ef_search', greatest(40, p_limits[1] * 2)::text, true);
    PERFORM set_config('hnsw.iterative_scan', 'relaxed_order', true);

    IF p_embedding IS NULL OR p_generation IS NULL OR p_weights[1] = 0 THEN
        dense_sql := 'SELECT NULL::uuid AS id, NULL::real AS sim, NULL::bigint AS rnk WHERE false';
    ELSE
        dense_sql := format($d$
            SELECT id, sim, row_number() OVER (ORDER BY dist) AS rnk FROM (
                SELECT e.block_id AS id,
                       (e.embedding::halfvec(%1$s) <=> $2::halfvec(%1$s)) AS dist,
                       (1 - (e.embedding::halfvec(%1$s) <=> $2::halfvec(%1$s)))::real AS sim
                  FROM context_block_embeddings e
                  JOIN eligible b ON b.id = e.block_id
                 WHERE e.generation = %2$s
                 ORDER BY e.embedding::halfvec(%1$s) <=> $2::halfvec(%1$s)
                 LIMIT $7) d$d$, p_dims, p_generation);
    END IF;

    RETURN QUERY EXECUTE format($q$
        WITH eligible AS MATERIALIZED (
            SELECT b.id, b.ts_en, b.ts_de, b.ts_dates, b.title, b.time_mass,
                   t.retrieval_policy, t.retrieval_factor
              FROM context_blocks b
              JOIN context_block_types t ON t.name = b.block_type
             WHERE b.scope = ANY($3)
               AND NOT b.is_archived
               AND t.retrieval_policy <> 'excluded'
               AND NOT (b.block_type = ANY($6))
               AND ($4::text IS NULL OR b.category = $4)
               AND b.tags @> $5
               AND NOT (b.id = ANY($8))
        ),
        q AS (
            -- OR the lexemes: a question rarely contains every word of its answer. The German
            -- channel drops English stopwords first, or "we", "do", "how" would match German text.
            SELECT replace(plainto_tsquery('english', $1)::text, '&', '|')::tsquery AS en,
                   replace(plainto_tsquery('german', coalesce(
                       (SELECT string_agg(token, ' ') FROM ts_debug('english', $1)
                         WHERE lexemes IS NOT NULL AND lexemes <> '{}'), ''))::text,
                       '&', '|')::tsquery AS de,
                   to_tsquery('simple', coalesce($15, '')) AS dates
        ),
        dense AS (%s),
        en AS (
            SELECT id, s, row_number() OVER (ORDER BY s DESC, id) AS rnk FROM (
                SELECT b.id, ts_rank_cd(b.ts_en, q.en)::real AS s
                  FROM eligible b, q WHERE b.ts_en @@ q.en
                 ORDER BY 2 DESC LIMIT $9) x
        ),
        de AS (
            SELECT id, s, row_number() OVER (ORDER BY s DESC, id) AS rnk FROM (
                SELECT b.id, ts_rank_cd(b.ts_de, q.de)::real AS s
                  FROM eligible b, q WHERE b.ts_de @@ q.de
                 ORDER BY 2 DESC LIMIT $10) x
        ),
        trgm AS (
            SELECT id, s, row_number() OVER (ORDER BY s DESC, id) AS rnk FROM (
                SELECT b.id, similarity(b.title, $1)::real AS s
                  FROM eligible b WHERE b.title %% $1
                 ORDER BY 2 DESC LIMIT $11) x
        ),
        dated AS (
            SELECT id, row_number() OVER (ORDER BY s DESC, id) AS rnk FROM (
                SELECT b.id, ts_rank_cd(b.ts_dates, q.dates)::real AS s
                  FROM eligible b, q
                 WHERE $15 IS NOT NULL AND $12[5] > 0 AND b.ts_dates @@ q.dates
                 ORDER BY 2 DESC LIMIT $16) x
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
               (f.raw * b.time_mass * CASE WHEN b.retrieval_policy = 'normal' THEN 1.0
                                           ELSE b.retrieval_factor END)::double precision,
               f.d_rnk::int, f.e_rnk::int, f.g_rnk::int, f.t_rnk::int, f.x_rnk::int,
               f.d_sim, f.e_s, f.g_s, f.t_s
          FROM fused f JOIN eligible b ON b.id = f.id
         ORDER BY 2 DESC, f.id
         LIMIT $14
    $q$, dense_sql)
    USING p_query, p_embedding, p_scopes, p_category, p_tags, p_exclude_types, p_limits[1],
          p_exclude_ids, p_limits[2], p_limits[3], p_limits[4], p_weights, p_k::double precision,
          p_result_limit, p_date_query, p_limits[5];
END $$;

-- Options the generation's embedder was built with (never secrets: those come from settings).
ALTER TABLE context_embedding_generations ADD COLUMN options jsonb NOT NULL DEFAULT '{}'::jsonb;
