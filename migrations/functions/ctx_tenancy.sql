-- Which tenant owns a scope, and which scopes a key may read. Authentication (keys, web
-- sessions) and the Guard's writer check read scopes only through ctx_key_read_scopes, so the
-- rule lives in one place.

CREATE OR REPLACE FUNCTION ctx_scope_tenant(p_scope text) RETURNS uuid
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT tenant_id FROM context_tenant_scopes WHERE scope = p_scope),
                    ctx_root_tenant())
$$;

-- The key's home scope, then its allowed scopes, each kept only when the key's tenant owns it or
-- holds a grant for it from the scope's owner of today (a grant lapses when the scope changes
-- owner). Fail-closed: an unknown key, a key without a tenant or a scope another tenant owns
-- without a grant gives nothing.
CREATE OR REPLACE FUNCTION ctx_key_read_scopes(p_key uuid) RETURNS text[]
LANGUAGE sql STABLE AS $$
    SELECT coalesce(array_agg(u.scope ORDER BY u.n), '{}')
      FROM context_api_keys k
     CROSS JOIN LATERAL (SELECT DISTINCT ON (s) s AS scope, n
                           FROM unnest(ARRAY[k.home_scope] || k.allowed_scopes)
                                WITH ORDINALITY AS x(s, n)
                          ORDER BY s, n) u
     WHERE k.id = p_key AND k.tenant_id IS NOT NULL
       AND (ctx_scope_tenant(u.scope) = k.tenant_id
            OR EXISTS (SELECT 1 FROM context_scope_grants g
                        WHERE g.scope = u.scope AND g.tenant_id = k.tenant_id
                          AND g.owner_tenant_id = ctx_scope_tenant(u.scope)))
$$;

-- The blocks shared with a tenant that it accepted (NULL tenant: none). Retrieval and reads by id
-- add these to the caller's scopes; nothing else does.
CREATE OR REPLACE FUNCTION ctx_granted_blocks(p_tenant uuid) RETURNS uuid[]
LANGUAGE sql STABLE AS $$
    SELECT coalesce(array_agg(g.block_id), '{}') FROM context_block_grants g
     WHERE g.tenant_id = p_tenant AND g.accepted_at IS NOT NULL
$$;
