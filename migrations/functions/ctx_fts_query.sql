-- The tsqueries of one full-text channel.
--
-- ctx_fts_plan returns two:
--   q_rank:  the query's lexemes OR-ed (a question rarely contains every word of its answer), which
--            ranks the candidates. When the caller's readable scopes hold at least p_min_blocks
--            blocks, lexemes found in more than p_common_cutoff of those blocks are left out: such
--            words barely discriminate. When every word is common, the rarest one stays.
--   q_match: which rows become candidates, or NULL for "every row q_rank matches". With a budget
--            (p_budget > 0) and more readable blocks than the budget and than p_min_blocks (the
--            store size from which the cutoff applies too), the lexemes are taken rarest
--            first while their blocks add up to at most the budget (the rarest always), plus the
--            rows holding every other lexeme when that set is expected to fit too. A row matching
--            only common words is then never ranked: PostgreSQL has no top-k index for
--            ts_rank_cd, so ranking is paid per candidate, and the common words are the ones that
--            discriminate least. The candidates are ranked with q_rank, so the common words
--            still order them.
--
-- The counts come from context_scope_terms of p_scopes only, so nothing outside the caller's
-- scopes shapes either query. A lexeme without a count is in fewer blocks than the recount's
-- floor (ctx.core.retrieval.term_stats) and counts as floor - 1 per scope: an upper bound, so a
-- budget is never overrun by words the counts did not keep.
--
-- ctx_fts_query is q_rank alone (the query as the unbounded channel reads it).
DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
              WHERE p.proname IN ('ctx_fts_query', 'ctx_fts_plan')
                AND p.pronamespace = current_schema()::regnamespace
    LOOP
        EXECUTE format('DROP FUNCTION %s', f);
    END LOOP;
END $$;

CREATE FUNCTION ctx_fts_plan(
    p_config regconfig, p_text text, p_scopes text[], p_common_cutoff real, p_min_blocks real,
    p_budget integer, OUT q_rank tsquery, OUT q_match tsquery
)
LANGUAGE plpgsql STABLE AS $$
DECLARE
    lexemes  text[];
    total    bigint;
    unseen   bigint;         -- blocks an uncounted lexeme may be in, at most
    kept     text[];
    counts   bigint[];       -- blocks holding each kept lexeme, rarest first
    chosen   text[] := '{}';
    rest     text[] := '{}';
    used     bigint := 0;
    together double precision := 1;
    common   boolean;
    bounded  boolean;
BEGIN
    lexemes := tsvector_to_array(to_tsvector(p_config, coalesce(p_text, '')));
    IF lexemes IS NULL OR cardinality(lexemes) = 0 THEN
        q_rank := ''::tsquery;
        RETURN;
    END IF;
    SELECT coalesce(sum(blocks), 0),
           coalesce(sum(coalesce(term_floor, greatest(2, floor(blocks * 0.005)::integer)) - 1), 0)
      INTO total, unseen
      FROM context_scope_stats WHERE scope = ANY(p_scopes);
    common := coalesce(p_common_cutoff, 1) < 1 AND total > 0 AND total >= p_min_blocks;
    -- Like the cutoff, the bound waits for p_min_blocks: below it ranking every match is cheap,
    -- and words common in a small scope (a speaker's name in a conversation) still carry meaning.
    bounded := coalesce(p_budget, 0) > 0 AND total > p_budget AND total >= p_min_blocks;
    kept := lexemes;
    IF common OR bounded THEN
        WITH counted AS (
            SELECT l AS lexeme,
                   coalesce((SELECT sum(t.blocks) FROM context_scope_terms t
                              WHERE t.config = p_config::text AND t.lexeme = l
                                AND t.scope = ANY(p_scopes)), unseen)::bigint AS blocks
              FROM unnest(lexemes) AS l
        ), judged AS (
            SELECT lexeme, blocks, NOT (common AND blocks::real / total > p_common_cutoff) AS ok
              FROM counted
        ), taken AS (
            SELECT lexeme, blocks FROM judged WHERE ok
            UNION ALL  -- every word common: the rarest stays
            (SELECT lexeme, blocks FROM judged WHERE NOT EXISTS (SELECT FROM judged WHERE ok)
              ORDER BY blocks, lexeme LIMIT 1)
        )
        SELECT array_agg(lexeme ORDER BY blocks, lexeme), array_agg(blocks ORDER BY blocks, lexeme)
          INTO kept, counts FROM taken;
    END IF;
    q_rank := array_to_string(ARRAY(SELECT quote_literal(l) FROM unnest(kept) AS l), ' | ')::tsquery;
    IF NOT bounded THEN
        RETURN;
    END IF;
    FOR i IN 1 .. cardinality(kept) LOOP
        IF i = 1 OR used + counts[i] <= p_budget THEN
            chosen := chosen || kept[i];
            used := used + counts[i];
        ELSE
            rest := rest || kept[i];
            together := together * (counts[i]::double precision / total);
        END IF;
    END LOOP;
    IF cardinality(rest) = 0 THEN
        RETURN;  -- every kept word fits: the channel matches as unbounded
    END IF;
    q_match := array_to_string(ARRAY(SELECT quote_literal(l) FROM unnest(chosen) AS l), ' | ')::tsquery;
    -- Rows holding every common word as well, when that set (expected: total times the product
    -- of their shares) still fits.
    IF cardinality(rest) > 1 AND used + together * total <= p_budget THEN
        q_match := q_match
            || array_to_string(ARRAY(SELECT quote_literal(l) FROM unnest(rest) AS l), ' & ')::tsquery;
    END IF;
END $$;

CREATE FUNCTION ctx_fts_query(
    p_config regconfig, p_text text, p_scopes text[], p_common_cutoff real, p_min_blocks real
) RETURNS tsquery
LANGUAGE sql STABLE AS $$
    SELECT q_rank FROM ctx_fts_plan(p_config, p_text, p_scopes, p_common_cutoff, p_min_blocks, 0)
$$;
