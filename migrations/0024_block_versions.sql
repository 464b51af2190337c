-- Every block keeps its versions (issue 36): a write that changes what a block says (its content,
-- title, category, tags, type or own date) first copies the state it replaces here, in the same
-- transaction. The block row stays the current version; its number is one more than the last kept
-- here, and it began when the last one kept here ended (else when the block was created).
-- valid_from/valid_to: when the version was the block's current one (valid_to: when a write
-- replaced it). api_key_id: the key whose write made that state (none for an imported version).
-- A block's delete is the user's: its versions go with it.
CREATE TABLE context_block_versions (
    block_id      uuid         NOT NULL REFERENCES context_blocks (id) ON DELETE CASCADE,
    version       integer      NOT NULL CHECK (version >= 1),
    category      varchar(100) NOT NULL,
    title         text         NOT NULL,
    content       text         NOT NULL,
    block_type    varchar(50)  NOT NULL,
    tags          text[]       NOT NULL DEFAULT '{}',
    metadata      jsonb        NOT NULL DEFAULT '{}'::jsonb,
    sensitivity   text         NOT NULL
                  CHECK (sensitivity IN ('public', 'internal', 'personal', 'credentials')),
    occurred_at   timestamptz,
    content_hash  text         NOT NULL,
    valid_from    timestamptz  NOT NULL,
    valid_to      timestamptz  NOT NULL,
    api_key_id    uuid,
    PRIMARY KEY (block_id, version),
    CHECK (valid_from <= valid_to)
);
