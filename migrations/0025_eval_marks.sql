-- The gold set a user builds on their own store: for a question, which block answered it and
-- which did not. A mark lives in its block's scope (readers of that scope see it, as they see the
-- block) and goes with the block. `asked_on` is the day the question was asked: a replay resolves
-- its time words ("last week") from that day. The question is unique per scope and block through
-- its md5 (a 2,000-character question is too long for a plain btree entry).
CREATE TABLE IF NOT EXISTS context_eval_marks (
    id         bigserial   PRIMARY KEY,
    scope      text        NOT NULL,
    question   text        NOT NULL CHECK (length(question) BETWEEN 1 AND 2000),
    block_id   uuid        NOT NULL REFERENCES context_blocks (id) ON DELETE CASCADE,
    verdict    text        NOT NULL CHECK (verdict IN ('answered', 'not_answered')),
    asked_on   date        NOT NULL DEFAULT current_date,
    marked_by  uuid,
    marked_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS context_eval_marks_unique
    ON context_eval_marks (scope, md5(question), block_id);
CREATE INDEX IF NOT EXISTS context_eval_marks_block ON context_eval_marks (block_id);
