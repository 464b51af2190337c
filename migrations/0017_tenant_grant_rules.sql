-- Grants, tightened after review: a block grant shows nothing until the receiving tenant accepts
-- it (no tenant can push text into another's retrieval), and a scope grant remembers the tenant
-- that made it, so it lapses when the scope changes owner.

ALTER TABLE context_block_grants ADD COLUMN accepted_at timestamptz;
UPDATE context_block_grants SET accepted_at = created_at;

ALTER TABLE context_scope_grants
    ADD COLUMN owner_tenant_id uuid REFERENCES context_tenants (id) ON DELETE CASCADE;
UPDATE context_scope_grants g SET owner_tenant_id = coalesce(
    (SELECT s.tenant_id FROM context_tenant_scopes s WHERE s.scope = g.scope), ctx_root_tenant());
ALTER TABLE context_scope_grants ALTER COLUMN owner_tenant_id SET NOT NULL;
