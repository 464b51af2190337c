-- Model backends (the pool each LLM role draws its chain from) and the log of every model call.
-- A change to a backend or a secret fires NOTIFY ctx_settings, so every ctxd rebuilds its pool.

CREATE TABLE context_backends (
    name         text        PRIMARY KEY CHECK (name ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'),
    kind         text        NOT NULL,
    base_url     text        NOT NULL DEFAULT '',
    roles        text[]      NOT NULL DEFAULT '{}',
    model_map    jsonb       NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(model_map) = 'object'),
    priority     integer     NOT NULL DEFAULT 100,
    trust        text        NOT NULL DEFAULT 'public'
                             CHECK (trust IN ('full-trust', 'no-credentials', 'non-personal', 'public')),
    secret       text        REFERENCES context_secrets (name) ON UPDATE CASCADE ON DELETE RESTRICT,
    enabled      boolean     NOT NULL DEFAULT true,
    description  text        NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    updated_by   text        NOT NULL DEFAULT 'cli'
);

CREATE TRIGGER context_backends_notify AFTER INSERT OR UPDATE OR DELETE ON context_backends
    FOR EACH STATEMENT EXECUTE FUNCTION ctx_notify_settings();
CREATE TRIGGER context_secrets_notify AFTER INSERT OR UPDATE OR DELETE ON context_secrets
    FOR EACH STATEMENT EXECUTE FUNCTION ctx_notify_settings();

CREATE TABLE context_llm_log (
    id                 bigserial   PRIMARY KEY,
    at                 timestamptz NOT NULL DEFAULT now(),
    role               text        NOT NULL,
    backend            text        NOT NULL,
    model              text        NOT NULL DEFAULT '',
    operation          text        NOT NULL,   -- chat, stream, embed, rerank
    outcome            text        NOT NULL,   -- ok, error, timeout, invalid
    error              text,
    prompt_tokens      integer,
    completion_tokens  integer,
    latency_ms         real        NOT NULL,
    withheld           integer     NOT NULL DEFAULT 0,  -- pieces the trust gate kept back
    request            jsonb,      -- only with llm.log_content
    response           text        -- only with llm.log_content
);
CREATE INDEX context_llm_log_at ON context_llm_log (at DESC);
