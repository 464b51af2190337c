-- The context governor: threads, their events (stored before anything may leave a prompt), pins
-- (protected items) and, per thread, the current reading desk and what filled the last envelope.

-- A 'private' type (a governed thread's events) is found only by queries that name its category:
-- a thread's records stay out of other threads' desks and out of plain knowledge queries.
ALTER TABLE context_block_types DROP CONSTRAINT IF EXISTS context_block_types_retrieval_policy_check;
ALTER TABLE context_block_types ADD CONSTRAINT context_block_types_retrieval_policy_check
    CHECK (retrieval_policy IN ('normal', 'damped', 'excluded', 'private'));

-- A thread is (collection, session_id); the collection is a ctx scope, so keys decide who may
-- govern it. `category` names the thread's records (one sequence: the context vectors and the
-- neighbours stage read it as a conversation). `last_seq` allocates sequence numbers: the
-- UPDATE that takes the next one serialises the appends of one thread.
CREATE TABLE context_threads (
    id             bigserial    PRIMARY KEY,
    scope          varchar(50)  NOT NULL,
    session_id     text         NOT NULL CHECK (length(session_id) BETWEEN 1 AND 200),
    category       varchar(100) NOT NULL,
    last_seq       bigint       NOT NULL DEFAULT 0,
    desk           jsonb        NOT NULL DEFAULT '[]'::jsonb,
    last_envelope  jsonb,
    created_at     timestamptz  NOT NULL DEFAULT now(),
    updated_at     timestamptz  NOT NULL DEFAULT now(),
    UNIQUE (scope, session_id),
    UNIQUE (scope, category)
);
CREATE INDEX context_threads_scope_updated ON context_threads (scope, updated_at DESC);

-- The authoritative, ordered facts of a thread. Each reserves the id of the record (a block of
-- a private type) that indexing derives from it; indexed_at / embedded_at mark the record written
-- (text and date channels) and its vector written (dense channel). The partial indexes make the
-- watermarks (the first sequence still waiting) an index look-up.
CREATE TABLE context_thread_events (
    thread_id    bigint      NOT NULL REFERENCES context_threads (id) ON DELETE CASCADE,
    seq          bigint      NOT NULL CHECK (seq > 0),
    role         text        NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    name         text,
    content      text        NOT NULL,
    metadata     jsonb       NOT NULL DEFAULT '{}'::jsonb,
    sensitivity  text        NOT NULL DEFAULT 'internal'
                 CHECK (sensitivity IN ('public', 'internal', 'personal', 'credentials')),
    occurred_at  timestamptz NOT NULL DEFAULT now(),
    created_at   timestamptz NOT NULL DEFAULT now(),
    record_id    uuid        NOT NULL DEFAULT gen_random_uuid() UNIQUE,
    indexed_at   timestamptz,
    embedded_at  timestamptz,
    PRIMARY KEY (thread_id, seq)
);
CREATE INDEX context_thread_events_unindexed ON context_thread_events (thread_id, seq)
    WHERE indexed_at IS NULL;
CREATE INDEX context_thread_events_unembedded ON context_thread_events (thread_id, seq)
    WHERE embedded_at IS NULL;

-- Protected items: always in the envelope until released. One of: an event of the thread, a
-- block (a record or any readable block), or text pinned to the thread.
CREATE TABLE context_thread_pins (
    id           bigserial   PRIMARY KEY,
    thread_id    bigint      NOT NULL REFERENCES context_threads (id) ON DELETE CASCADE,
    seq          bigint,
    block_id     uuid        REFERENCES context_blocks (id) ON DELETE CASCADE,
    content      text,
    label        text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    CHECK (num_nonnulls(seq, block_id, content) = 1)
);
CREATE INDEX context_thread_pins_thread ON context_thread_pins (thread_id, id);
