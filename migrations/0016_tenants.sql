-- Tenants (the seed's "Model C"): a tenant owns scopes, keys belong to a tenant with a role, and
-- grants share a scope or a single block with another tenant. The scope stays the data
-- discriminator: no data table gains a tenant column, so a store without tenants reads exactly
-- as before: every scope nobody claimed belongs to the one root tenant.

CREATE TABLE context_tenants (
    id           uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    name         varchar(50) NOT NULL UNIQUE CHECK (name ~ '^[a-z0-9][a-z0-9_.-]{0,49}$'),
    display_name text        NOT NULL DEFAULT '' CHECK (length(display_name) <= 200),
    -- the root has no parent; every other tenant has one (today always the root)
    parent_id    uuid        REFERENCES context_tenants (id) ON DELETE RESTRICT,
    is_root      boolean     NOT NULL DEFAULT false,
    created_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT context_tenants_root_has_no_parent CHECK (is_root = (parent_id IS NULL))
);
CREATE UNIQUE INDEX context_tenants_one_root ON context_tenants (is_root) WHERE is_root;
INSERT INTO context_tenants (name, display_name, is_root) VALUES ('root', 'Default tenant', true);

CREATE FUNCTION ctx_root_tenant() RETURNS uuid LANGUAGE sql STABLE AS
$$ SELECT id FROM context_tenants WHERE is_root $$;

-- Scopes claimed by a tenant. A scope not listed here belongs to the root tenant.
CREATE TABLE context_tenant_scopes (
    scope      varchar(50) PRIMARY KEY,
    tenant_id  uuid        NOT NULL REFERENCES context_tenants (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX context_tenant_scopes_tenant ON context_tenant_scopes (tenant_id);

-- A whole scope shared for reading with another tenant.
CREATE TABLE context_scope_grants (
    scope      varchar(50) NOT NULL,
    tenant_id  uuid        NOT NULL REFERENCES context_tenants (id) ON DELETE CASCADE,
    granted_by uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, tenant_id)
);
CREATE INDEX context_scope_grants_tenant ON context_scope_grants (tenant_id);

-- A single block shared for reading with another tenant.
CREATE TABLE context_block_grants (
    block_id   uuid        NOT NULL REFERENCES context_blocks (id) ON DELETE CASCADE,
    tenant_id  uuid        NOT NULL REFERENCES context_tenants (id) ON DELETE CASCADE,
    granted_by uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (block_id, tenant_id)
);
CREATE INDEX context_block_grants_tenant ON context_block_grants (tenant_id, block_id);

-- Every key belongs to a tenant (existing keys to the root) with a role inside it. The role is
-- authority over that tenant only; the operator tier (is_admin) counts only for root keys.
ALTER TABLE context_api_keys
    ADD COLUMN tenant_id uuid REFERENCES context_tenants (id) ON DELETE CASCADE,
    ADD COLUMN tenant_role text NOT NULL DEFAULT 'member'
        CHECK (tenant_role IN ('owner', 'admin', 'member'));
UPDATE context_api_keys SET tenant_id = ctx_root_tenant(),
       tenant_role = CASE WHEN is_admin THEN 'owner' ELSE 'member' END;
ALTER TABLE context_api_keys
    ALTER COLUMN tenant_id SET DEFAULT ctx_root_tenant(),
    ALTER COLUMN tenant_id SET NOT NULL;
CREATE INDEX context_api_keys_tenant ON context_api_keys (tenant_id);
