-- Weighted Reciprocal Rank Fusion in one statement over five channels: dense cosine (the context
-- vectors of one embedding generation, ctx.core.embed.context), English full text, German full text, trigram title similarity and, when
-- the query resolved to dates, a date channel (ISO days and months as tokens). Each channel adds
-- weight / (k + rank); the sum is multiplied by the block's mass factor and its type's retrieval
-- factor.
--
-- Every channel reads its own index (HNSW, GIN) with the filters (scopes, archive, excluded types,
-- category, tags, excluded ids) inside it, so no channel returns a block the caller may not read
-- and none scans the whole table. A weight of 0 switches a channel off.
--
-- Called with named arguments only, and every argument is required: the values come from
-- settings (ctx.core.retrieval), so nothing here can drift from them.
--
-- Every earlier signature goes first (the positional one of 0002 had defaults; CREATE OR REPLACE
-- cannot change names or defaults), whatever overloads exist.
DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
              WHERE p.proname = 'ctx_rrf' AND p.pronamespace = current_schema()::regnamespace
    LOOP
        EXECUTE format('DROP FUNCTION %s', f);
    END LOOP;
END $$;

CREATE FUNCTION ctx_rrf(
    p_query              text,
    p_embedding          text,       -- '[…]' literal of the query vector, or NULL: no dense channel
    p_generation         integer,
    p_dims               integer,
    p_scopes             text[],
    p_category           text,       -- NULL: any
    p_tags               text[],     -- every one must be present
    p_exclude_ids        uuid[],
    p_exclude_types      text[],
    p_k                  integer,
    p_result_limit       integer,
    p_weight_dense       real,
    p_weight_fts_en      real,
    p_weight_fts_de      real,
    p_weight_trigram     real,
    p_weight_dates       real,
    p_limit_dense        integer,
    p_limit_fts_en       integer,
    p_limit_fts_de       integer,
    p_limit_trigram      integer,
    p_limit_dates        integer,
    p_trigram_threshold  real,
    p_date_query         text,       -- 'd20260323 | m202603', or NULL: no date channel
    p_common_cutoff      real,
    p_cutoff_min_blocks  real,
    p_private_category   text,       -- blocks of 'private' types are found only in this category
                                     -- (NULL: only when p_category names theirs)
    p_tenant             uuid,       -- the caller's tenant: blocks granted to it (and accepted)
                                     -- are read besides p_scopes (NULL: none)
    p_fts_budget         integer,    -- rows a full-text channel ranks at most (0: every match;
                                     -- see ctx_fts_plan)
    p_trigram_scan_max   integer,    -- readable blocks up to which the title channel searches
                                     -- every title; above, it compares the titles of the other
                                     -- channels' candidates only
    p_dense_exact_max    integer,    -- readable blocks up to which the dense channel compares
                                     -- every vector (exact) instead of walking the HNSW graph
    p_hnsw_ef_search     integer,    -- HNSW candidate list per walk (hnsw.ef_search)
    p_hnsw_iterative     text,       -- 'relaxed_order', 'strict_order' or 'off': whether a walk
                                     -- that filters too much goes on (hnsw.iterative_scan)
    p_hnsw_max_tuples    integer     -- how far an iterative walk goes (hnsw.max_scan_tuples)
) RETURNS TABLE (
    block_id       uuid,
    score          double precision,
    dense_rank     integer,
    fts_en_rank    integer,
    fts_de_rank    integer,
    trigram_rank   integer,
    dates_rank     integer,
    dense_score    real,
    fts_en_score   real,
    fts_de_score   real,
    trigram_score  real
)
LANGUAGE plpgsql STABLE AS $$
DECLARE
    excluded   text[];
    private    text[];
    granted    uuid[];
    q_en       tsquery;
    q_de       tsquery;
    m_en       tsquery;             -- which rows the channel ranks (NULL: every q_en match)
    m_de       tsquery;
    cap        bigint;
    q_dates    tsquery;
    content_words text;
    w          real[] := ARRAY[p_weight_dense, p_weight_fts_en, p_weight_fts_de, p_weight_trigram,
                               p_weight_dates];
    filters    constant text :=
        '(b.scope = ANY($3) OR b.id = ANY($22)) AND NOT b.is_archived AND NOT (b.block_type = ANY($6)) '
        'AND ($4::text IS NULL OR b.category = $4) AND b.tags @> $5 AND NOT (b.id = ANY($8)) '
        'AND (NOT (b.block_type = ANY($20)) OR b.category = $21)';
    dense_sql  text := 'SELECT NULL::uuid AS id, NULL::real AS sim, NULL::bigint AS rnk WHERE false';
    trgm_sql   text;
    readable   bigint;
    shared     text[];              -- types a query sees in every category (neither private nor excluded)
    rows_where text;                -- which rows the caller can read, as index conditions
    few        boolean := false;    -- at most p_dense_exact_max of them: every channel reads them
    src        text := 'context_blocks b';  -- where the channels read rows from
    cond       text;                -- the filters each channel applies to them
BEGIN
    PERFORM set_config('hnsw.ef_search', p_hnsw_ef_search::text, true);
    -- the `%` operator of the trigram channel reads its threshold from this setting
    PERFORM set_config('pg_trgm.similarity_threshold', p_trigram_threshold::text, true);
    PERFORM set_config('hnsw.iterative_scan', p_hnsw_iterative, true);
    PERFORM set_config('hnsw.max_scan_tuples', p_hnsw_max_tuples::text, true);
    -- Blocks the caller can read, from the per-scope counts (NULL: never counted, e.g. a store
    -- filled before its first recount): the size decides how the dense and title channels search.
    readable := (SELECT sum(blocks) FROM context_scope_stats WHERE scope = ANY(p_scopes));
    -- Which types a query sees is context_type_reach's (column query): read once per call.
    excluded := coalesce(p_exclude_types, '{}') || ARRAY(
        SELECT name::text FROM context_type_reach WHERE query = 'none');
    private := ARRAY(SELECT name::text FROM context_type_reach WHERE query = 'category');
    granted := ctx_granted_blocks(p_tenant);
    -- The query without English stopwords: the German channel would otherwise match German
    -- text through "we", "do", "how", and the title channel would compare every title that
    -- shares a trigram with "the".
    content_words := (SELECT string_agg(token, ' ') FROM ts_debug('english', p_query)
                       WHERE lexemes IS NOT NULL AND lexemes <> '{}');
    IF w[2] > 0 THEN
        SELECT p.q_rank, p.q_match INTO q_en, m_en FROM ctx_fts_plan(
            p_config => 'english', p_text => p_query, p_scopes => p_scopes,
            p_common_cutoff => p_common_cutoff, p_min_blocks => p_cutoff_min_blocks,
            p_budget => p_fts_budget) p;
    END IF;
    IF w[3] > 0 THEN
        SELECT p.q_rank, p.q_match INTO q_de, m_de FROM ctx_fts_plan(
            p_config => 'german', p_text => content_words, p_scopes => p_scopes,
            p_common_cutoff => p_common_cutoff, p_min_blocks => p_cutoff_min_blocks,
            p_budget => p_fts_budget) p;
    END IF;
    -- The hard bound where ctx_fts_plan bounds (or the size is unknown: never counted):
    -- whatever the counts said (they lag writes, and every word may be common), a channel ranks
    -- at most its budget of rows.
    cap := CASE WHEN coalesce(p_fts_budget, 0) > 0
                 AND (readable IS NULL OR readable >= p_cutoff_min_blocks) THEN p_fts_budget END;
    q_dates := CASE WHEN w[5] > 0 AND p_date_query IS NOT NULL
                    THEN to_tsquery('simple', p_date_query) END;

    -- A governed thread's few readable rows: its own records plus its scope's shared blocks,
    -- however many other threads the scope holds. When they are at most p_dense_exact_max, every
    -- channel reads them straight from the indexes that find them (the scope's category, its
    -- shared types) instead of its own store-wide index: a GIN or HNSW index would pay for
    -- every match of a common word, or a long filtered graph walk, in other threads' rows. The
    -- count is bounded (it stops past the limit). Plain scopes keep the channels' own indexes
    -- (reading a small store's rows once cost more than its indexes: bench/latency.py).
    -- (written with :scopes, :category and :shared, numbered for each statement that uses it)
    rows_where := '(b.scope = ANY(:scopes) AND b.category = :category '
                  'OR b.scope = ANY(:scopes) AND b.block_type = ANY(:shared))';
    IF coalesce(p_dense_exact_max, 0) > 0 AND p_private_category IS NOT NULL THEN
        shared := ARRAY(SELECT name::text FROM context_type_reach
                         WHERE name::text <> ALL(excluded) AND name::text <> ALL(private));
        EXECUTE format('SELECT count(*) <= $4 FROM (SELECT FROM context_blocks b WHERE %s LIMIT $4 + 1) x',
                       replace(replace(replace(rows_where, ':scopes', '$1'), ':category', '$2'),
                               ':shared', '$3'))
           INTO few
          USING p_scopes, p_private_category, shared, p_dense_exact_max;
    END IF;
    cond := filters;
    IF few THEN
        -- the readable rows once (filters included), read by every channel as "b"
        src := 'few b';
        cond := 'true';
    END IF;

    IF p_embedding IS NOT NULL AND p_generation IS NOT NULL AND w[1] > 0 THEN
        -- The walk returns its rows roughly nearest first (relaxed order) and goes on while the
        -- filters thin them out; it fetches ef_search rows (at least the limit), which are
        -- sorted by their exact distance before the limit is taken.
        dense_sql := format($d$
            SELECT id, sim, rnk FROM (
                SELECT id, sim, row_number() OVER (ORDER BY dist, id) AS rnk FROM (
                    SELECT e.block_id AS id,
                           (e.context::halfvec(%1$s) <=> $2::halfvec(%1$s)) AS dist,
                           (1 - (e.context::halfvec(%1$s) <=> $2::halfvec(%1$s)))::real AS sim
                      FROM context_block_embeddings e
                      JOIN %6$s ON b.id = e.block_id
                     WHERE e.generation = %2$s AND %3$s
                     ORDER BY (e.context::halfvec(%1$s) <=> $2::halfvec(%1$s))%4$s
                     LIMIT %5$s) d) r
             WHERE rnk <= $7$d$, p_dims, p_generation, cond,
            -- Exact: "+ 0" is an order no index provides, so every readable vector is compared
            -- (a few ms for a small scope, where the graph walk could miss some of its vectors).
            CASE WHEN few OR readable <= p_dense_exact_max THEN ' + 0' ELSE '' END,
            greatest(p_limit_dense, p_hnsw_ef_search), src);
    END IF;

    -- The title channel: pg_trgm's `%` costs CPU per title sharing trigrams with the query (tens
    -- of ms at 100,000 blocks, whatever the indexes), and title similarity rarely finds what no
    -- other channel found. Up to p_trigram_scan_max readable blocks it searches every title;
    -- above, it ranks the titles of the dense and full-text candidates (already filtered).
    trgm_sql := CASE WHEN readable IS NULL OR readable <= p_trigram_scan_max THEN format($t$
        SELECT b.id, similarity(b.title, $17)::real AS s
          FROM %2$s
         WHERE $12[4] > 0 AND b.title %% $17 AND %1$s$t$, cond, src)
    ELSE $t$
        SELECT id, s FROM (
            SELECT b.id, similarity(b.title, $17)::real AS s
              FROM context_blocks b
             WHERE $12[4] > 0
               AND b.id IN (SELECT id FROM dense UNION SELECT id FROM en UNION SELECT id FROM de)
        ) c WHERE s >= current_setting('pg_trgm.similarity_threshold')::real$t$
    END;

    RETURN QUERY EXECUTE format($q$
        WITH %6$s dense AS (%1$s),
        en AS (
            SELECT id, s, row_number() OVER (ORDER BY s DESC, id) AS rnk FROM (
                SELECT c.id, ts_rank_cd(c.ts_en, $15)::real AS s FROM (
                    SELECT b.id, b.ts_en, row_number() OVER () AS n FROM %5$s
                     WHERE $15 IS NOT NULL AND b.ts_en @@ coalesce($23, $15) AND %2$s) c
                 %4$s
                 ORDER BY 2 DESC LIMIT $9) x
        ),
        de AS (
            SELECT id, s, row_number() OVER (ORDER BY s DESC, id) AS rnk FROM (
                SELECT c.id, ts_rank_cd(c.ts_de, $16)::real AS s FROM (
                    SELECT b.id, b.ts_de, row_number() OVER () AS n FROM %5$s
                     WHERE $16 IS NOT NULL AND b.ts_de @@ coalesce($24, $16) AND %2$s) c
                 %4$s
                 ORDER BY 2 DESC LIMIT $10) x
        ),
        trgm AS (
            SELECT id, s, row_number() OVER (ORDER BY s DESC, id) AS rnk FROM (
                %3$s
                 ORDER BY 2 DESC
                 LIMIT $11) x
        ),
        dated AS (
            -- Blocks of the named time tie with each other (every July turn carries the same
            -- month token): they share a rank, so no block of that time is pulled less than
            -- another by the order of ids.
            SELECT id, dense_rank() OVER (ORDER BY s DESC) AS rnk FROM (
                SELECT b.id, ts_rank_cd(b.ts_dates, $18)::real AS s
                  FROM %5$s
                 WHERE $18 IS NOT NULL AND b.ts_dates @@ $18 AND %2$s
                 ORDER BY 2 DESC LIMIT $19) x
        ),
        dated_last AS (SELECT max(rnk) AS rnk FROM dated),
        fused AS (
            SELECT coalesce(dense.id, en.id, de.id, trgm.id, dated.id) AS id,
                   coalesce($12[1] / ($13 + dense.rnk), 0)
                 + coalesce($12[2] / ($13 + en.rnk), 0)
                 + coalesce($12[3] / ($13 + de.rnk), 0)
                 + coalesce($12[4] / ($13 + trgm.rnk), 0) AS raw,
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
               ((f.raw + coalesce($12[5] / ($13 + dr.rnk), 0))
                * b.time_mass * t.factor)::double precision,
               f.d_rnk::int, f.e_rnk::int, f.g_rnk::int, f.t_rnk::int, dr.rnk::int,
               f.d_sim, f.e_s, f.g_s, f.t_s
          FROM fused f
          JOIN context_blocks b ON b.id = f.id
          JOIN context_type_reach t ON t.name = b.block_type
          -- A block of the named time that another channel found but the date channel's limit
          -- cut off ranks with the last of the date channel (the ties it was cut from).
          CROSS JOIN LATERAL (
              SELECT coalesce(f.x_rnk, CASE WHEN $18 IS NOT NULL AND b.ts_dates @@ $18
                                            THEN (SELECT rnk FROM dated_last) END) AS rnk) dr
         ORDER BY 2 DESC, f.id
         LIMIT $14
    $q$, dense_sql, cond, trgm_sql,
        -- the cap as a plain comparison, which the window below stops at (a run condition)
        CASE WHEN cap IS NULL THEN '' ELSE 'WHERE c.n <= $25' END, src,
        CASE WHEN few THEN format(
            'few AS MATERIALIZED (SELECT b.id, b.title, b.ts_en, b.ts_de, b.ts_dates '
            'FROM context_blocks b WHERE (%s OR b.id = ANY($22)) AND %s),',
            replace(replace(replace(rows_where, ':scopes', '$3'), ':category', '$21'),
                    ':shared', '$26'), filters) ELSE '' END)
    USING p_query, p_embedding, p_scopes, p_category, coalesce(p_tags, '{}'), excluded,
          p_limit_dense, coalesce(p_exclude_ids, '{}'), p_limit_fts_en, p_limit_fts_de,
          p_limit_trigram, w, p_k::double precision, p_result_limit, q_en, q_de, content_words,
          q_dates, p_limit_dates, private, coalesce(p_private_category, p_category), granted,
          m_en, m_de, cap, shared;
END $$;
