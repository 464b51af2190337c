-- Who holds a running job: the lease id of the claiming process. A process holds its lease as a
-- session advisory lock (class 'ctjl'), so the lease ends the moment the process or its
-- connection dies, and any worker may take the job back at once (ctx.core.runtime.lease).
ALTER TABLE context_jobs ADD COLUMN locked_by integer;
CREATE INDEX context_jobs_running ON context_jobs (kind) WHERE status = 'running';
