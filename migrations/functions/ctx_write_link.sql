-- Write a link source -> target, or raise the confidence of the one there; NULL when a person
-- rejected that link before (a rejected link is never written again). The one home of that rule
-- for every writer below or beside ctx.core.graph: Dream and people (ctx.core.graph.links
-- .write_link, which also keeps a symmetric link from being written the other way) and the
-- Guard (ctx.core.guard.check: an update's supersedes link, a translation link).
CREATE OR REPLACE FUNCTION ctx_write_link(
    p_source uuid, p_target uuid, p_type text, p_confidence real, p_origin text,
    p_pipeline_version integer, p_note text
) RETURNS bigint LANGUAGE sql AS $$
    INSERT INTO context_links (source_id, target_id, link_type, confidence, origin,
                               pipeline_version, note)
    VALUES (p_source, p_target, p_type, p_confidence, p_origin, p_pipeline_version,
            left(p_note, 500))
    ON CONFLICT (source_id, target_id, link_type) DO UPDATE
       SET confidence = greatest(context_links.confidence, EXCLUDED.confidence),
           pipeline_version = EXCLUDED.pipeline_version
     WHERE context_links.status <> 'rejected'
    RETURNING id
$$;
