-- Web workbench sessions: signing in with an API key opens a session; the browser holds only a
-- random token (signed, in an HttpOnly cookie), the table holds its SHA-256. Revoking the key or
-- signing out ends the session at once; expired rows are removed by the next sign-in.

CREATE TABLE context_web_sessions (
    token_hash  text        PRIMARY KEY CHECK (length(token_hash) = 64),
    key_id      uuid        NOT NULL REFERENCES context_api_keys (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    seen_at     timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    user_agent  text        NOT NULL DEFAULT '' CHECK (length(user_agent) <= 300)
);

CREATE INDEX context_web_sessions_key ON context_web_sessions (key_id);
CREATE INDEX context_web_sessions_expiry ON context_web_sessions (expires_at);

-- The workbench lists blocks newest first with a keyset cursor (updated_at, id): this index backs
-- that order within a scope exactly, so a page costs the same on page 1 and page 500.
CREATE INDEX context_blocks_scope_updated_id ON context_blocks (scope, updated_at DESC, id DESC);
