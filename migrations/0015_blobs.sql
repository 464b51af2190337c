-- Blobs: files kept next to the blocks (attachments, exports, images). The row is the authority;
-- the bytes live in chunks in the same database, so a pg_dump holds everything and a blob is
-- written or replaced in one transaction.

CREATE TABLE context_blobs (
    id          uuid         PRIMARY KEY DEFAULT gen_random_uuid(),
    scope       varchar(50)  NOT NULL,
    category    varchar(100) NOT NULL,
    title       text         NOT NULL CHECK (length(btrim(title)) > 0 AND length(title) <= 500),
    filename    text,
    mime_type   text         NOT NULL,
    tags        text[]       NOT NULL DEFAULT '{}',
    metadata    jsonb        NOT NULL DEFAULT '{}'::jsonb,
    size        bigint       NOT NULL CHECK (size >= 0),
    sha256      text         NOT NULL,
    chunk_bytes integer      NOT NULL CHECK (chunk_bytes > 0),
    created_at  timestamptz  NOT NULL DEFAULT now(),
    updated_at  timestamptz  NOT NULL DEFAULT now(),
    CONSTRAINT context_blobs_natural_key UNIQUE (scope, category, title)
);

CREATE INDEX context_blobs_scope_updated ON context_blobs (scope, updated_at DESC);
CREATE INDEX context_blobs_tags ON context_blobs USING gin (tags);

CREATE TABLE context_blob_chunks (
    blob_id uuid    NOT NULL REFERENCES context_blobs (id) ON DELETE CASCADE,
    n       integer NOT NULL CHECK (n >= 0),
    data    bytea   NOT NULL,
    PRIMARY KEY (blob_id, n)
);

-- bytea chunks are compressed already where it helps; keep them out of line without a second try
ALTER TABLE context_blob_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
