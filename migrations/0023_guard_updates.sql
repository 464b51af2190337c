-- The Guard records a changed fact as an update and a translation as a translation (issue 36):
-- two more decisions (and block statuses), the links it writes for them (a `supersedes` link
-- newer -> older, a `translation` link, both with origin `guard`), the undo of such a link
-- (resolution `unlinked`), and the decision's details (the change, before and after) kept with
-- the match so the review lists can show them.

ALTER TABLE context_blocks DROP CONSTRAINT context_blocks_guard_status_check;
ALTER TABLE context_blocks ADD CONSTRAINT context_blocks_guard_status_check
    CHECK (guard_status IN ('pending', 'clean', 'needs_review', 'near_duplicate', 'update',
                            'translation', 'reviewed', 'merged', 'unchecked'));

ALTER TABLE context_guard_matches DROP CONSTRAINT context_guard_matches_decision_check;
ALTER TABLE context_guard_matches ADD CONSTRAINT context_guard_matches_decision_check
    CHECK (decision IN ('near_duplicate', 'needs_review', 'update', 'translation', 'clean'));
ALTER TABLE context_guard_matches DROP CONSTRAINT context_guard_matches_resolution_check;
ALTER TABLE context_guard_matches ADD CONSTRAINT context_guard_matches_resolution_check
    CHECK (resolution IN ('keep_both', 'archived', 'merged', 'unlinked'));
ALTER TABLE context_guard_matches ADD COLUMN details jsonb NOT NULL DEFAULT '{}';

ALTER TABLE context_links DROP CONSTRAINT context_links_link_type_check;
ALTER TABLE context_links ADD CONSTRAINT context_links_link_type_check
    CHECK (link_type IN ('supersedes', 'causal', 'factual', 'topical', 'recurrent',
                         'translation'));
ALTER TABLE context_links DROP CONSTRAINT context_links_origin_check;
ALTER TABLE context_links ADD CONSTRAINT context_links_origin_check
    CHECK (origin IN ('dream', 'user', 'guard'));
