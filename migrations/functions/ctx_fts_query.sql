-- The tsquery of one full-text channel: the query's lexemes OR-ed (a question rarely contains
-- every word of its answer). When the caller's readable scopes hold at least p_min_blocks blocks,
-- lexemes found in more than p_common_cutoff of those blocks are left out: such words barely
-- discriminate and would make the channel rank a large part of the table. The counts come from
-- context_scope_terms of p_scopes only, so nothing outside the caller's scopes shapes the query.
-- When every word is common, the rarest one stays.
DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_proc p
              WHERE p.proname = 'ctx_fts_query' AND p.pronamespace = current_schema()::regnamespace
    LOOP
        EXECUTE format('DROP FUNCTION %s', f);
    END LOOP;
END $$;

CREATE FUNCTION ctx_fts_query(
    p_config regconfig, p_text text, p_scopes text[], p_common_cutoff real, p_min_blocks real
) RETURNS tsquery
LANGUAGE plpgsql STABLE AS $$
DECLARE
    lexemes  text[];
    total    bigint;
    kept     text[];
BEGIN
    lexemes := tsvector_to_array(to_tsvector(p_config, coalesce(p_text, '')));
    IF lexemes IS NULL OR cardinality(lexemes) = 0 THEN
        RETURN ''::tsquery;
    END IF;
    kept := lexemes;
    IF p_common_cutoff < 1 THEN
        total := (SELECT coalesce(sum(blocks), 0) FROM context_scope_stats
                   WHERE scope = ANY(p_scopes));
        IF total > 0 AND total >= p_min_blocks THEN
            WITH shares AS (
                SELECT l AS lexeme,
                       coalesce((SELECT sum(t.blocks) FROM context_scope_terms t
                                  WHERE t.config = p_config::text AND t.lexeme = l
                                    AND t.scope = ANY(p_scopes)), 0)::real / total AS share
                  FROM unnest(lexemes) AS l
            )
            SELECT coalesce(array_agg(lexeme) FILTER (WHERE share <= p_common_cutoff),
                            ARRAY(SELECT lexeme FROM shares ORDER BY share, lexeme LIMIT 1))
              INTO kept FROM shares;
        END IF;
    END IF;
    RETURN array_to_string(ARRAY(SELECT quote_literal(l) FROM unnest(kept) AS l), ' | ')::tsquery;
END $$;
