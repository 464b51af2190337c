-- OAuth 2.1 for remote MCP clients (ctx.core.access.oauth): registered clients, the pending
-- sign-in forms of /authorize and the authorization codes. Everything lives here, not in a
-- process, so any ctxd replica can finish a flow another one started.

CREATE TABLE context_oauth_clients (
    client_id      text        PRIMARY KEY CHECK (client_id ~ '^ctx_[A-Za-z0-9_-]{16,64}$'),
    name           text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    redirect_uris  text[]      NOT NULL CHECK (cardinality(redirect_uris) BETWEEN 1 AND 20),
    -- SHA-256 hex of a 256-bit random secret; NULL for a public client (PKCE only).
    secret_hash    text,
    registered_by  text        NOT NULL CHECK (registered_by IN ('cli', 'dynamic')),
    -- The peer that registered a dynamic client: the rate limit counts by it.
    remote_addr    text,
    created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX context_oauth_clients_dynamic ON context_oauth_clients (remote_addr, created_at)
    WHERE registered_by = 'dynamic';

-- One row per sign-in form shown: its single-use form token (as SHA-256) and the authorization
-- request it was shown for, so a form post cannot change what was asked.
CREATE TABLE context_oauth_requests (
    token_hash      text        PRIMARY KEY,
    client_id       text        NOT NULL
                    REFERENCES context_oauth_clients (client_id) ON DELETE CASCADE,
    redirect_uri    text        NOT NULL,
    state           text,
    code_challenge  text        NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL
);

CREATE INDEX context_oauth_requests_expires ON context_oauth_requests (expires_at);

-- Authorization codes, keyed by SHA-256 of the code. The API key the code stands for is sealed
-- with AES-GCM under a key derived (HKDF-SHA256) from the code itself: a reader of this table who
-- does not hold the code learns nothing. A code is deleted when it is redeemed (single use).
CREATE TABLE context_oauth_codes (
    code_hash       text        PRIMARY KEY,
    client_id       text        NOT NULL
                    REFERENCES context_oauth_clients (client_id) ON DELETE CASCADE,
    redirect_uri    text        NOT NULL,
    code_challenge  text        NOT NULL,
    sealed_key      bytea       NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL
);

CREATE INDEX context_oauth_codes_expires ON context_oauth_codes (expires_at);
