-- Sealed secrets: AES-256-GCM ciphertexts; the key lives outside the database ($CTX_HOME/secret.key
-- or CTX_SEAL_KEY), so a dump of this table reveals nothing. key_id says which key sealed a row.

CREATE TABLE context_secrets (
    name        text        PRIMARY KEY CHECK (name ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'),
    nonce       bytea       NOT NULL CHECK (length(nonce) = 12),
    sealed      bytea       NOT NULL,
    key_id      text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    updated_by  text        NOT NULL DEFAULT 'cli'
);
