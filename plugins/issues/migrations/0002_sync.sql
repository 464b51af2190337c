-- Forge sync for the issue tracker: links, the last synced version of each record (the base of
-- the three-way merge), conflicts, and the webhook deliveries already seen.

-- A repository scope synced with one forge repository. Credentials are names of secrets in the
-- vault (context_secrets), never values.
CREATE TABLE issue_forge_links (
    id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    scope           text        NOT NULL UNIQUE,
    forge           text        NOT NULL,
    repo            text        NOT NULL,
    base_url        text,
    token_secret    text        NOT NULL,
    webhook_secret  text,
    interval_s      integer     NOT NULL DEFAULT 300 CHECK (interval_s >= 10),
    -- incremental listings: the cursor each listing resumes from and the ETag of the request
    -- that ended the last run (same URL next time, so an unchanged listing answers 304)
    issues_since    timestamptz,
    issues_etag     text,
    comments_since  timestamptz,
    comments_etag   text,
    next_pull_at    timestamptz NOT NULL DEFAULT now(),
    paused_until    timestamptz,
    last_sync_at    timestamptz,
    last_report     jsonb,
    last_error      text,
    -- one run at a time per link, across processes: a lease that a crashed run loses by age
    running_since   timestamptz,
    running_token   uuid,
    created_at      timestamptz NOT NULL DEFAULT now()
);

-- repository names are case-insensitive on forges
CREATE UNIQUE INDEX issue_forge_links_repo ON issue_forge_links (forge, lower(repo));

-- The base of each synced record: what both sides held when they last agreed.
CREATE TABLE issue_sync_state (
    block_id     uuid        PRIMARY KEY,
    link_id      bigint      NOT NULL REFERENCES issue_forge_links (id) ON DELETE CASCADE,
    kind         text        NOT NULL CHECK (kind IN ('issue', 'comment')),
    forge_id     bigint      NOT NULL,
    forge_number integer     NOT NULL,
    snapshot     jsonb       NOT NULL,
    hash         text        NOT NULL,
    synced_at    timestamptz NOT NULL DEFAULT now(),
    -- why the remote record is no longer synced: 'deleted' or 'moved:<where>'
    gone         text,
    UNIQUE (link_id, kind, forge_id)
);

CREATE INDEX issue_sync_state_number ON issue_sync_state (link_id, kind, forge_number);

-- Records being created on the remote: written (and committed) before the create is sent, gone
-- in the transaction that saves the new base. One left behind means a run stopped in between;
-- the next run adopts the remote record it finds with the same content instead of pulling it as
-- a new one, so a crash never doubles an issue or a comment.
CREATE TABLE issue_sync_pending (
    block_id     uuid        PRIMARY KEY,
    link_id      bigint      NOT NULL REFERENCES issue_forge_links (id) ON DELETE CASCADE,
    kind         text        NOT NULL CHECK (kind IN ('issue', 'comment')),
    forge_number integer,    -- a comment's issue on the remote
    snapshot     jsonb       NOT NULL,
    started_at   timestamptz NOT NULL DEFAULT now()
);

-- Both sides changed the same fields differently. The record is not synced while one is open;
-- resolving it rewrites the base so the next sync carries the chosen side over.
CREATE TABLE issue_sync_conflicts (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    link_id     bigint      NOT NULL REFERENCES issue_forge_links (id) ON DELETE CASCADE,
    block_id    uuid        NOT NULL,
    kind        text        NOT NULL CHECK (kind IN ('issue', 'comment')),
    scope       text        NOT NULL,
    number      integer     NOT NULL,
    fields      text[]      NOT NULL,
    base        jsonb,
    local       jsonb       NOT NULL,
    remote      jsonb       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    resolved_at timestamptz,
    resolution  text        CHECK (resolution IN ('local', 'remote')),
    resolved_by text
);

CREATE UNIQUE INDEX issue_sync_conflicts_open ON issue_sync_conflicts (block_id)
    WHERE resolved_at IS NULL;

-- Webhook deliveries already taken (kept 30 days): a repeat of an id or of a body is answered,
-- not acted on.
CREATE TABLE issue_webhook_deliveries (
    forge       text        NOT NULL,
    delivery_id text        NOT NULL,
    body_sha256 text        NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (forge, delivery_id)
);

CREATE UNIQUE INDEX issue_webhook_deliveries_body ON issue_webhook_deliveries (forge, body_sha256);

ALTER TABLE issue_history DROP CONSTRAINT issue_history_kind_check;
ALTER TABLE issue_history ADD CONSTRAINT issue_history_kind_check
    CHECK (kind IN ('created', 'edited', 'commented', 'closed', 'reopened', 'labelled',
                    'assigned', 'synced', 'conflict', 'resolved', 'unlinked'));
