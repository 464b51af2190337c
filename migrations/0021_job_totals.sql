-- Done jobs are deleted (the queue stays small), so what ran was nowhere: the dashboard said
-- "No jobs yet" after thousands had run. ctx.core.runtime.jobs.finish counts them here per kind,
-- in the transaction that deletes them.
CREATE TABLE IF NOT EXISTS context_job_totals (
    kind          text        PRIMARY KEY,
    done          bigint      NOT NULL DEFAULT 0 CHECK (done >= 0),
    last_done_at  timestamptz NOT NULL DEFAULT now()
);
