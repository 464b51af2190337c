-- The tsquery of one full-text channel: the query's lexemes OR-ed (a question rarely contains
-- every word of its answer). In a large store (at least p_min_blocks blocks) lexemes that occur in
-- more than p_common_cutoff of all blocks (ANALYZE statistics of p_column) are left out: such
-- words barely discriminate and would make the channel rank a large part of the table; a small
-- store keeps every word, since ranking it all is cheap. When every word is common, the rarest
-- one stays.
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
            kept := ARRAY(SELECT l FROM unnest(lexemes) AS l
                           ORDER BY coalesce(freqs[array_position(common, l)], 0) LIMIT 1);
        END IF;
    ELSE
        kept := lexemes;
    END IF;
    RETURN array_to_string(ARRAY(SELECT quote_literal(l) FROM unnest(kept) AS l), ' | ')::tsquery;
END $$;
