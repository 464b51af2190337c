-- Guard (near-duplicates on write), Dream (typed links between blocks), the graph overview's
-- pre-aggregates. Guard decisions and Dream links never cross a scope the writer cannot read:
-- a cross-scope Guard match is kept for admins only, Dream links stay inside one scope.

-- Guard ------------------------------------------------------------------------------------------

-- guard_status: pending (not checked yet), clean, needs_review (visible, flagged), near_duplicate
-- (archived as a copy), reviewed (a person kept it), merged (its content went into another block),
-- unchecked (its type does not embed, so there is nothing to compare).
ALTER TABLE context_blocks ADD COLUMN guard_checked_at timestamptz;
UPDATE context_blocks SET guard_status = 'pending'
 WHERE guard_status NOT IN ('pending', 'clean', 'needs_review', 'near_duplicate', 'reviewed',
                            'merged', 'unchecked');
ALTER TABLE context_blocks ADD CONSTRAINT context_blocks_guard_status_check
    CHECK (guard_status IN ('pending', 'clean', 'needs_review', 'near_duplicate', 'reviewed',
                            'merged', 'unchecked'));
CREATE INDEX context_blocks_guard_pending ON context_blocks (created_at)
    WHERE guard_status = 'pending' AND NOT is_archived;

-- The nearest neighbour each check found. One row per checked block (the latest check); a
-- cross-scope neighbour (a scope the writer cannot read) has its own columns, shown to admins only.
CREATE TABLE context_guard_matches (
    block_id          uuid        PRIMARY KEY REFERENCES context_blocks (id) ON DELETE CASCADE,
    match_id          uuid        REFERENCES context_blocks (id) ON DELETE SET NULL,
    similarity        real,
    decision          text        NOT NULL
                      CHECK (decision IN ('near_duplicate', 'needs_review', 'clean')),
    reason            text        NOT NULL DEFAULT '',
    generation        integer     REFERENCES context_embedding_generations (id) ON DELETE SET NULL,
    duplicate_at      real,
    review_at         real,
    cross_match_id    uuid        REFERENCES context_blocks (id) ON DELETE SET NULL,
    cross_similarity  real,
    checked_at        timestamptz NOT NULL DEFAULT now(),
    resolution        text        CHECK (resolution IN ('keep_both', 'archived', 'merged')),
    resolved_at       timestamptz,
    resolved_by       uuid
);
CREATE INDEX context_guard_matches_open ON context_guard_matches (checked_at DESC)
    WHERE resolution IS NULL AND decision <> 'clean';
CREATE INDEX context_guard_matches_match ON context_guard_matches (match_id);

-- Thresholds per block type (NULL: every type) and embedding generation; they win over the
-- embedder's calibrated defaults, which win over the type's own columns.
CREATE TABLE context_guard_thresholds (
    id          serial      PRIMARY KEY,
    block_type  varchar(50) REFERENCES context_block_types (name)
                ON DELETE CASCADE ON UPDATE CASCADE,
    generation  integer     NOT NULL REFERENCES context_embedding_generations (id) ON DELETE CASCADE,
    duplicate   real        NOT NULL CHECK (duplicate BETWEEN 0 AND 1),
    review      real        NOT NULL CHECK (review BETWEEN 0 AND 1),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CHECK (review <= duplicate)
);
CREATE UNIQUE INDEX context_guard_thresholds_key
    ON context_guard_thresholds (coalesce(block_type, ''), generation);
CREATE TRIGGER context_guard_thresholds_notify AFTER INSERT OR UPDATE OR DELETE
    ON context_guard_thresholds FOR EACH ROW EXECUTE FUNCTION ctx_notify_settings();

-- Links (Dream's and people's) ------------------------------------------------------------------

-- source -> target. supersedes: the source (newer) replaces a fact of the target (older).
-- status: active, confirmed (a person agreed), rejected (a person deleted it; kept so Dream does
-- not make it again; never read as a link).
CREATE TABLE context_links (
    id                bigserial   PRIMARY KEY,
    source_id         uuid        NOT NULL REFERENCES context_blocks (id) ON DELETE CASCADE,
    target_id         uuid        NOT NULL REFERENCES context_blocks (id) ON DELETE CASCADE,
    link_type         text        NOT NULL
                      CHECK (link_type IN ('supersedes', 'causal', 'factual', 'topical',
                                           'recurrent')),
    confidence        real        NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    origin            text        NOT NULL DEFAULT 'dream' CHECK (origin IN ('dream', 'user')),
    pipeline_version  integer,
    status            text        NOT NULL DEFAULT 'active'
                      CHECK (status IN ('active', 'confirmed', 'rejected')),
    note              text        NOT NULL DEFAULT '',
    created_at        timestamptz NOT NULL DEFAULT now(),
    reviewed_at       timestamptz,
    reviewed_by       uuid,
    CHECK (source_id <> target_id),
    UNIQUE (source_id, target_id, link_type)
);
CREATE INDEX context_links_target ON context_links (target_id) WHERE status <> 'rejected';
CREATE INDEX context_links_source ON context_links (source_id) WHERE status <> 'rejected';
CREATE INDEX context_links_created ON context_links (created_at DESC);

-- Dream's state per block: keywords (reused while the content is unchanged), when it is due
-- again, which lease is working on it. A row for every block; the picker reads the type's
-- dream_linkable flag.
CREATE TABLE context_dream_state (
    block_id       uuid        PRIMARY KEY REFERENCES context_blocks (id) ON DELETE CASCADE,
    keywords       text[],
    keywords_hash  text,
    checked_at     timestamptz,
    due_at         timestamptz NOT NULL DEFAULT now(),
    claimed_by     integer,
    claimed_at     timestamptz,
    cycles         integer     NOT NULL DEFAULT 0,
    links_made     integer     NOT NULL DEFAULT 0,
    errors         integer     NOT NULL DEFAULT 0,
    last_outcome   text,
    last_error     text
);
CREATE INDEX context_dream_state_due ON context_dream_state (checked_at NULLS FIRST, due_at);

INSERT INTO context_dream_state (block_id) SELECT id FROM context_blocks;

-- A new block is due at once; changed content makes it due again (keywords are re-extracted
-- because their hash no longer matches).
CREATE FUNCTION ctx_dream_state_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO context_dream_state (block_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
    ELSIF NEW.content_hash IS DISTINCT FROM OLD.content_hash THEN
        UPDATE context_dream_state SET due_at = now(), errors = 0 WHERE block_id = NEW.id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER context_blocks_dream_state AFTER INSERT OR UPDATE OF content_hash
    ON context_blocks FOR EACH ROW EXECUTE FUNCTION ctx_dream_state_touch();

-- Graph overview: clusters per scope, refreshed by a job --------------------------------------

CREATE TABLE context_graph_clusters (
    scope         varchar(50) NOT NULL,
    cluster       integer     NOT NULL,
    size          integer     NOT NULL,
    links         integer     NOT NULL,
    weight        real        NOT NULL,
    refreshed_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, cluster)
);
CREATE TABLE context_graph_members (
    block_id  uuid        PRIMARY KEY REFERENCES context_blocks (id) ON DELETE CASCADE,
    scope     varchar(50) NOT NULL,
    cluster   integer     NOT NULL,
    degree    real        NOT NULL
);
CREATE INDEX context_graph_members_cluster ON context_graph_members (scope, cluster, degree DESC);
CREATE TABLE context_graph_cluster_edges (
    scope      varchar(50) NOT NULL,
    cluster_a  integer     NOT NULL,
    cluster_b  integer     NOT NULL,
    links      integer     NOT NULL,
    weight     real        NOT NULL,
    PRIMARY KEY (scope, cluster_a, cluster_b),
    CHECK (cluster_a < cluster_b)
);

-- Every existing block of a dedup type with an embedding is checked once.
INSERT INTO context_jobs (kind, payload, dedupe_key)
SELECT 'guard', jsonb_build_object('block_id', b.id), b.id::text
  FROM context_blocks b
  JOIN context_block_types t ON t.name = b.block_type
 WHERE t.guard_dedup AND t.embed AND NOT b.is_archived
ON CONFLICT DO NOTHING;
