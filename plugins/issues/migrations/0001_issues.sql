-- The issue tracker (ctx.plugins.issues): numbers per repository scope and an append-only history.

-- The next issue number of each scope; a row is taken FOR UPDATE (by the upsert) while an issue
-- is created, so two creations in one scope never share a number.
CREATE TABLE issue_numbers (
    scope       text    PRIMARY KEY,
    next_number integer NOT NULL CHECK (next_number > 0)
);

-- What happened to each issue, in order. No foreign key to context_blocks: deleting a block must
-- not delete (or be refused by) its history.
CREATE TABLE issue_history (
    id        bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    issue_id  uuid        NOT NULL,
    scope     text        NOT NULL,
    number    integer     NOT NULL CHECK (number > 0),
    at        timestamptz NOT NULL DEFAULT now(),
    actor     text        NOT NULL,
    kind      text        NOT NULL CHECK (kind IN ('created', 'edited', 'commented', 'closed',
                                                   'reopened', 'labelled', 'assigned')),
    old_value jsonb,
    new_value jsonb
);

CREATE INDEX issue_history_issue ON issue_history (issue_id, id);

CREATE FUNCTION issue_history_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'issue_history is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER issue_history_append_only
    BEFORE UPDATE OR DELETE ON issue_history
    FOR EACH ROW EXECUTE FUNCTION issue_history_append_only();

CREATE TRIGGER issue_history_no_truncate
    BEFORE TRUNCATE ON issue_history
    FOR EACH STATEMENT EXECUTE FUNCTION issue_history_append_only();
