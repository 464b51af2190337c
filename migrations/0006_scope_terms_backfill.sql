-- Count each existing scope's words once: 0005 created the tables empty, and a scope nobody
-- writes to would otherwise never get counts (and no common-word cutoff). Later writes, deletes
-- and archiving keep them fresh.
INSERT INTO context_jobs (kind, payload, dedupe_key)
SELECT 'scope_terms', jsonb_build_object('scope', scope), 'scope:' || scope
  FROM (SELECT DISTINCT scope FROM context_blocks) AS scopes
ON CONFLICT DO NOTHING;
