-- How common each word is within one scope, for the full-text channels' common-word cutoff.
-- The cutoff used to read ANALYZE statistics over the whole table: a key could learn how common a
-- word is in scopes it cannot read, and other scopes' data changed its results. These counts are
-- per scope, so a query only ever consults the scopes its caller reads.
-- Refreshed by the 'scope_terms' job (ctx.core.retrieval.term_stats) when a scope has changed.
CREATE TABLE context_scope_stats (
    scope        text        PRIMARY KEY,
    blocks       integer     NOT NULL CHECK (blocks >= 0),
    refreshed_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE context_scope_terms (
    scope   text    NOT NULL,
    config  text    NOT NULL CHECK (config IN ('english', 'german')),
    lexeme  text    NOT NULL,
    blocks  integer NOT NULL CHECK (blocks > 0),
    PRIMARY KEY (config, lexeme, scope)
);
