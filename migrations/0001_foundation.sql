-- Foundation: block types (policy rows), blocks, API keys, write log, jobs, settings.

CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Block types are policy as data: the mechanism reads behaviour from the row, never from the name.
CREATE TABLE context_block_types (
    name                 varchar(50) PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_-]*$'),
    description          text        NOT NULL DEFAULT '',
    retrieval_policy     text        NOT NULL DEFAULT 'normal'
                         CHECK (retrieval_policy IN ('normal', 'damped', 'excluded')),
    retrieval_factor     real        NOT NULL DEFAULT 1.0
                         CHECK (retrieval_factor >= 0 AND retrieval_factor <= 1),
    guard_dedup          boolean     NOT NULL DEFAULT true,
    guard_duplicate      real        NOT NULL DEFAULT 0.98 CHECK (guard_duplicate BETWEEN 0 AND 1),
    guard_review         real        NOT NULL DEFAULT 0.92 CHECK (guard_review BETWEEN 0 AND 1),
    dream_linkable       boolean     NOT NULL DEFAULT true,
    embed                boolean     NOT NULL DEFAULT true,
    temporal_extract     boolean     NOT NULL DEFAULT true,
    default_sensitivity  text        NOT NULL DEFAULT 'internal'
                         CHECK (default_sensitivity IN ('public', 'internal', 'personal', 'credentials')),
    workflow             text,
    source               text        NOT NULL DEFAULT 'builtin',
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now(),
    CHECK (guard_review <= guard_duplicate)
);

CREATE TABLE context_blocks (
    id            uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    scope         varchar(50) NOT NULL,
    category      varchar(100) NOT NULL,
    title         text        NOT NULL CHECK (length(btrim(title)) > 0 AND length(title) <= 500),
    content       text        NOT NULL,
    block_type    varchar(50) NOT NULL REFERENCES context_block_types (name) ON UPDATE CASCADE,
    tags          text[]      NOT NULL DEFAULT '{}',
    metadata      jsonb       NOT NULL DEFAULT '{}'::jsonb,
    sensitivity   text        NOT NULL DEFAULT 'internal'
                  CHECK (sensitivity IN ('public', 'internal', 'personal', 'credentials')),
    is_archived   boolean     NOT NULL DEFAULT false,
    guard_status  text        NOT NULL DEFAULT 'pending',
    content_hash  text        NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    ts_en tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
        setweight(to_tsvector('english', coalesce(content, '')), 'B')) STORED,
    ts_de tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('german', coalesce(title, '')), 'A') ||
        setweight(to_tsvector('german', coalesce(content, '')), 'B')) STORED,
    CONSTRAINT context_blocks_natural_key UNIQUE (scope, category, title)
);

CREATE INDEX context_blocks_ts_en ON context_blocks USING gin (ts_en);
CREATE INDEX context_blocks_ts_de ON context_blocks USING gin (ts_de);
-- GIN answers the trigram channel's `%` filter in ~2 ms at 100k titles; GiST took ~60 ms.
CREATE INDEX context_blocks_title_trgm ON context_blocks USING gin (title gin_trgm_ops);
CREATE INDEX context_blocks_tags ON context_blocks USING gin (tags);
CREATE INDEX context_blocks_scope_updated ON context_blocks (scope, updated_at DESC);
-- Resolves short id prefixes ("3f2a9c") without a sequential scan.
CREATE INDEX context_blocks_id_prefix ON context_blocks ((id::text) text_pattern_ops);

CREATE TABLE context_api_keys (
    id              uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    name            text        NOT NULL,
    key_hash        text        NOT NULL UNIQUE,   -- SHA-256 hex of the token; the token is never stored
    key_prefix      text        NOT NULL,          -- first characters, to recognise a key in lists
    home_scope      varchar(50) NOT NULL,
    allowed_scopes  varchar(50)[] NOT NULL DEFAULT '{}',
    is_admin        boolean     NOT NULL DEFAULT false,
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_used_at    timestamptz,
    revoked_at      timestamptz
);

-- Audit trail of every write: who, what, where.
CREATE TABLE context_write_log (
    id          bigserial   PRIMARY KEY,
    at          timestamptz NOT NULL DEFAULT now(),
    api_key_id  uuid,
    action      text        NOT NULL,
    block_id    uuid,
    scope       varchar(50),
    detail      jsonb       NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX context_write_log_block ON context_write_log (block_id);
CREATE INDEX context_write_log_at ON context_write_log (at DESC);

-- Background work, claimed with FOR UPDATE SKIP LOCKED by any number of workers.
CREATE TABLE context_jobs (
    id           bigserial   PRIMARY KEY,
    kind         text        NOT NULL,
    payload      jsonb       NOT NULL DEFAULT '{}'::jsonb,
    dedupe_key   text,
    status       text        NOT NULL DEFAULT 'queued'
                 CHECK (status IN ('queued', 'running', 'done', 'failed', 'quarantined')),
    attempts     integer     NOT NULL DEFAULT 0,
    run_after    timestamptz NOT NULL DEFAULT now(),
    locked_at    timestamptz,
    last_error   text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz
);
CREATE INDEX context_jobs_ready ON context_jobs (kind, run_after) WHERE status = 'queued';
-- One queued job per (kind, dedupe_key): re-queueing the same work is a no-op.
CREATE UNIQUE INDEX context_jobs_dedupe ON context_jobs (kind, dedupe_key)
    WHERE status = 'queued' AND dedupe_key IS NOT NULL;

CREATE OR REPLACE FUNCTION ctx_notify_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('ctx_jobs', NEW.kind);
    RETURN NULL;
END $$;
CREATE TRIGGER context_jobs_notify AFTER INSERT ON context_jobs
    FOR EACH ROW EXECUTE FUNCTION ctx_notify_jobs();

-- Database layer of the settings registry (default < env < database).
CREATE TABLE context_settings (
    key         text        PRIMARY KEY,
    value       jsonb       NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE OR REPLACE FUNCTION ctx_notify_settings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('ctx_settings', TG_TABLE_NAME);
    RETURN NULL;
END $$;
CREATE TRIGGER context_settings_notify AFTER INSERT OR UPDATE OR DELETE ON context_settings
    FOR EACH ROW EXECUTE FUNCTION ctx_notify_settings();
CREATE TRIGGER context_block_types_notify AFTER INSERT OR UPDATE OR DELETE ON context_block_types
    FOR EACH ROW EXECUTE FUNCTION ctx_notify_settings();
