"""The job queue: rows in ``context_jobs`` claimed with ``FOR UPDATE SKIP LOCKED``.

Jobs are idempotent; a failing job is retried with exponential backoff and quarantined after
``jobs.max_attempts`` attempts so one poison row never blocks the queue. Which kinds exist is up to
the plugins: each registers a ``JobHandler`` (``register_job_handlers``), and every worker claims
jobs of every registered kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import psycopg
import psycopg.errors
from psycopg.types.json import Jsonb

from ctx.core.errors import error_text
from ctx.core.runtime.lease import OWNER_GONE
from ctx.core.runtime.plugin_host import PluginHost, registered_objects

if TYPE_CHECKING:
    from ctx.core.app import App

STALE_AFTER = "15 minutes"  # a running job older than this is taken back even if its owner lives
DEFAULT_MAX_ATTEMPTS = 5
# A running job may be taken back when its owner's lease is gone, or (owner or not) once it has run
# for longer than STALE_AFTER.
RECLAIMABLE = (
    f"((j.locked_by IS NOT NULL AND {OWNER_GONE}) "
    f"OR j.locked_at < now() - interval '{STALE_AFTER}')"
)
KIND_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_.-")


@dataclass(frozen=True)
class Job:
    id: int
    kind: str
    payload: dict[str, Any]
    attempts: int
    owner: int | None = None  # the lease that claimed it


@dataclass(frozen=True)
class JobOutcome:
    """What a handler hands back besides success: jobs to put back without counting an attempt
    (work done in steps, such as a rebuild; work waiting for another job), ready again after
    ``delay_s`` seconds."""

    requeue: tuple[int, ...] = ()
    delay_s: float = 0.0


JobHandle = Callable[["App", list[Job]], "JobOutcome | None"]
#: Finds work that no job asks for yet (written before the capability existed, or whose job was
#: lost) and queues it; returns how many jobs it queued.
JobSweep = Callable[["App"], int]


@dataclass(frozen=True)
class JobHandler:
    """Does the jobs of one kind. ``handle(app, jobs)`` runs a claimed batch: returning (``None``
    or a ``JobOutcome``) finishes them, raising puts them all back with backoff."""

    kind: str
    handle: JobHandle
    batch_size: int = 64
    description: str = ""
    #: run by every worker every ``sweep_every`` seconds and after a lost listener reconnects
    sweep: JobSweep | None = None
    sweep_every: float = 60.0


def enqueue(
    conn: psycopg.Connection[Any],
    kind: str,
    payload: dict[str, Any],
    dedupe_key: str | None = None,
) -> int | None:
    """Queue a job in the caller's transaction and return its id; a queued duplicate (same
    dedupe key) is a no-op (None)."""
    row = conn.execute(
        "INSERT INTO context_jobs (kind, payload, dedupe_key) VALUES (%s, %s, %s) "
        "ON CONFLICT (kind, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL "
        "DO NOTHING RETURNING id",
        (kind, Jsonb(payload), dedupe_key),
    ).fetchone()
    return None if row is None else int(row["id"] if isinstance(row, dict) else row[0])


def _jobs(rows: list[dict[str, Any]]) -> list[Job]:
    return [
        Job(r["id"], r["kind"], dict(r["payload"] or {}), r["attempts"], r.get("locked_by"))
        for r in rows
    ]


# Set on claim: a running row being taken back says so, for whoever reads the queue later.
_CLAIM_SET = """
    status = 'running', locked_at = now(), attempts = attempts + 1, locked_by = %(owner)s,
    last_error = CASE WHEN status = 'running'
                      THEN 'taken back: its worker stopped or stalled while running it'
                      ELSE last_error END
"""


def _quarantine_dead(conn: psycopg.Connection[Any], kind: str, max_attempts: int) -> None:
    """A running job that used up its attempts and whose worker is gone is quarantined rather
    than taken back: a job that kills its process (out of memory, a crash in native code) would
    otherwise crash every worker that claims it, forever."""
    conn.execute(
        f"""
        UPDATE context_jobs SET status = 'quarantined', locked_at = NULL, locked_by = NULL,
               last_error = left('its worker stopped while running it, ' || attempts
                                 || ' attempts; last error: ' || coalesce(last_error, 'none'),
                                 2000)
         WHERE id IN (SELECT j.id FROM context_jobs j
                       WHERE j.kind = %s AND j.status = 'running' AND j.attempts >= %s
                         AND {RECLAIMABLE}
                       FOR UPDATE SKIP LOCKED)
        """,
        (kind, max_attempts),
    )


def claim(
    conn: psycopg.Connection[Any],
    kind: str,
    limit: int,
    owner: int | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
) -> list[Job]:
    """Claim up to ``limit`` ready jobs of one kind for lease ``owner``; other workers skip the
    locked rows. Running jobs whose owner is gone, or that ran for longer than ``STALE_AFTER``,
    are taken back; those out of attempts are quarantined instead."""
    _quarantine_dead(conn, kind, max_attempts)
    rows = conn.execute(
        f"""
        UPDATE context_jobs SET {_CLAIM_SET}
         WHERE id IN (SELECT j.id FROM context_jobs j
                       WHERE j.kind = %(kind)s AND j.run_after <= now()
                         AND (j.status = 'queued' OR (j.status = 'running' AND {RECLAIMABLE}))
                       ORDER BY j.run_after, j.id
                       LIMIT %(limit)s FOR UPDATE SKIP LOCKED)
        RETURNING id, kind, payload, attempts, locked_by
        """,
        {"owner": owner, "kind": kind, "limit": limit},
    ).fetchall()
    return _jobs(rows)


def claim_matching(
    conn: psycopg.Connection[Any],
    kind: str,
    limit: int,
    owner: int | None = None,
    *,
    ids: list[int] | None = None,
    payload: dict[str, Any] | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
) -> list[Job]:
    """Claim ready jobs of one kind that a caller names: by id (``ids``) and/or by what their
    payload contains (``payload``, jsonb containment); queued ones, or orphaned running ones with
    attempts left. For work someone is waiting on (the governor's strict prepare)."""
    rows = conn.execute(
        f"""
        UPDATE context_jobs SET {_CLAIM_SET}
         WHERE id IN (SELECT j.id FROM context_jobs j
                       WHERE j.kind = %(kind)s AND j.run_after <= now()
                         AND (%(ids)s::bigint[] IS NULL OR j.id = ANY(%(ids)s::bigint[]))
                         AND (%(payload)s::jsonb IS NULL OR j.payload @> %(payload)s::jsonb)
                         AND (j.status = 'queued'
                              OR (j.status = 'running' AND j.attempts < %(max)s
                                  AND {RECLAIMABLE}))
                       ORDER BY j.id
                       LIMIT %(limit)s FOR UPDATE OF j SKIP LOCKED)
        RETURNING id, kind, payload, attempts, locked_by
        """,
        {
            "owner": owner,
            "kind": kind,
            "ids": ids,
            "payload": None if payload is None else Jsonb(payload),
            "limit": limit,
            "max": max_attempts,
        },
    ).fetchall()
    return _jobs(rows)


def claim_for_scopes(
    conn: psycopg.Connection[Any],
    kind: str,
    scopes: list[str],
    limit: int,
    owner: int | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
) -> list[Job]:
    """Claim ready block jobs whose block lives in one of ``scopes`` (the query's inline path),
    orphaned running ones included unless they are out of attempts (the next worker ``claim``
    quarantines those; a query adds no statement for it)."""
    rows = conn.execute(
        f"""
        UPDATE context_jobs SET {_CLAIM_SET}
         WHERE id IN (SELECT j.id FROM context_jobs j
                        JOIN context_blocks b ON b.id = (j.payload->>'block_id')::uuid
                       WHERE j.kind = %(kind)s AND j.run_after <= now()
                         AND b.scope = ANY(%(scopes)s)
                         AND (j.status = 'queued'
                              OR (j.status = 'running' AND j.attempts < %(max)s
                                  AND {RECLAIMABLE}))
                       ORDER BY j.id
                       LIMIT %(limit)s FOR UPDATE OF j SKIP LOCKED)
        RETURNING id, kind, payload, attempts, locked_by
        """,
        {"owner": owner, "kind": kind, "scopes": scopes, "limit": limit, "max": max_attempts},
    ).fetchall()
    return _jobs(rows)


def running_for_scopes(
    conn: psycopg.Connection[Any], kind: str, scopes: list[str], limit: int
) -> list[Job]:
    """Block jobs in ``scopes`` that a live worker is running right now (not reclaimable)."""
    rows = conn.execute(
        f"""
        SELECT j.id, j.kind, j.payload, j.attempts FROM context_jobs j
          JOIN context_blocks b ON b.id = (j.payload->>'block_id')::uuid
         WHERE j.kind = %s AND j.status = 'running' AND b.scope = ANY(%s) AND NOT {RECLAIMABLE}
         ORDER BY j.id LIMIT %s
        """,
        (kind, scopes, limit),
    ).fetchall()
    return _jobs(rows)


def pending_for_scopes(
    conn: psycopg.Connection[Any], scopes: list[str], kind: str | None = None
) -> int:
    """Queued and running block jobs (of ``kind``, or every kind) whose block lives in one of
    ``scopes``: one COUNT."""
    row = conn.execute(
        "SELECT count(*) AS n FROM context_jobs j "
        "JOIN context_blocks b ON b.id = (j.payload->>'block_id')::uuid "
        "WHERE j.status IN ('queued', 'running') AND b.scope = ANY(%(scopes)s) "
        "AND (%(kind)s::text IS NULL OR j.kind = %(kind)s)",
        {"scopes": scopes, "kind": kind},
    ).fetchone()
    assert row is not None
    return int(row["n"] if isinstance(row, dict) else row[0])


def finish(conn: psycopg.Connection[Any], job_ids: list[int]) -> None:
    """Done jobs are deleted (the write log is the audit trail, the queue stays small) and
    counted per kind in ``context_job_totals``. A job another finish deleted first (a worker's
    and a query's inline path both ran it) is counted once."""
    if job_ids:
        conn.execute(
            """
            WITH gone AS (DELETE FROM context_jobs WHERE id = ANY(%s) RETURNING kind)
            INSERT INTO context_job_totals AS t (kind, done, last_done_at)
            SELECT kind, count(*), now() FROM gone GROUP BY kind ORDER BY kind
            ON CONFLICT (kind) DO UPDATE
               SET done = t.done + EXCLUDED.done, last_done_at = EXCLUDED.last_done_at
            """,
            (job_ids,),
        )


def done_totals(conn: psycopg.Connection[Any]) -> dict[str, dict[str, Any]]:
    """Per kind, the jobs done so far and when the last one was: ``{kind: {"done",
    "last_done_at"}}``."""
    rows = conn.execute(
        "SELECT kind, done, last_done_at FROM context_job_totals ORDER BY kind"
    ).fetchall()
    return {r["kind"]: {"done": int(r["done"]), "last_done_at": r["last_done_at"]} for r in rows}


# With an owner given, only that lease's claim is settled: a job another worker has taken back
# meanwhile is that worker's now.
_STILL_MINE = "(%(owner)s::integer IS NULL OR locked_by = %(owner)s::integer)"


def _drop_superseded(conn: psycopg.Connection[Any], job_ids: list[int], owner: int | None) -> None:
    """Jobs about to be queued again whose work another queued job (same kind and dedupe key)
    asks for already are deleted instead: only one may be queued, and the newer one covers it."""
    conn.execute(
        f"""
        DELETE FROM context_jobs j
         WHERE j.id = ANY(%(ids)s) AND {_STILL_MINE.replace("locked_by", "j.locked_by")}
           AND j.dedupe_key IS NOT NULL
           AND EXISTS (SELECT 1 FROM context_jobs q WHERE q.kind = j.kind
                          AND q.dedupe_key = j.dedupe_key AND q.status = 'queued' AND q.id <> j.id)
        """,
        {"ids": job_ids, "owner": owner},
    )


def requeue(
    conn: psycopg.Connection[Any],
    job_ids: list[int],
    owner: int | None = None,
    delay_s: float = 0.0,
) -> None:
    """Hand jobs back for a later step (after ``delay_s`` seconds), without counting the
    attempt."""
    _put_back(
        conn,
        job_ids,
        owner,
        "status = 'queued', locked_at = NULL, locked_by = NULL, attempts = 0, "
        "run_after = now() + make_interval(secs => %(delay)s)",
        {"delay": delay_s},
    )


def fail(
    conn: psycopg.Connection[Any],
    job_id: int,
    error: str,
    max_attempts: int,
    owner: int | None = None,
) -> None:
    """Put a job back with backoff (2^attempts seconds), or quarantine it when out of attempts;
    a job whose work another queued job asks for already is deleted instead."""
    _put_back(
        conn,
        [job_id],
        owner,
        "status = CASE WHEN attempts >= %(max)s THEN 'quarantined' ELSE 'queued' END, "
        "run_after = now() + make_interval(secs => power(2, least(attempts, 12))), "
        "locked_at = NULL, locked_by = NULL, last_error = %(error)s",
        {"max": max_attempts, "error": error[:2000]},
    )


def _put_back(
    conn: psycopg.Connection[Any],
    job_ids: list[int],
    owner: int | None,
    changes: str,
    params: dict[str, Any],
) -> None:
    """Apply ``changes`` (which may queue them again) to the jobs of ``job_ids`` still ours.

    Only one job of a kind and dedupe key may be queued. A job whose key another queued job
    holds merges into that one (it is deleted: the queued job does the same work), whether that
    job was queued before (``_drop_superseded``), by a transaction that commits while this one
    runs, or is another job of the same batch put back first.
    """
    if not job_ids:
        return
    _drop_superseded(conn, job_ids, owner)
    update = f"UPDATE context_jobs SET {changes} WHERE id = ANY(%(ids)s) AND {_STILL_MINE}"
    try:
        with conn.transaction():  # a savepoint: a violation undoes this statement only
            conn.execute(update, {**params, "ids": job_ids, "owner": owner})
        return
    except psycopg.errors.UniqueViolation:
        pass
    for job_id in sorted(job_ids):  # one at a time, so each that collides merges alone
        try:
            with conn.transaction():
                conn.execute(update, {**params, "ids": [job_id], "owner": owner})
        except psycopg.errors.UniqueViolation:
            conn.execute(
                f"DELETE FROM context_jobs WHERE id = %(id)s AND {_STILL_MINE}",
                {"id": job_id, "owner": owner},
            )


# Each status the queue uses, counted from its partial index (context_jobs_ready,
# context_jobs_running, context_jobs_quarantined): never a scan of the queue, which is largest
# when someone asks how far it got.
_COUNTS = " UNION ALL ".join(
    f"(SELECT kind, '{status}' AS status, count(*) AS n FROM context_jobs "
    f"WHERE status = '{status}' GROUP BY kind)"
    for status in ("queued", "running", "quarantined")
)


def counts(conn: psycopg.Connection[Any]) -> dict[str, dict[str, int]]:
    """Jobs by kind and status (queued, running, quarantined)."""
    out: dict[str, dict[str, int]] = {}
    for r in conn.execute(_COUNTS).fetchall():
        out.setdefault(r["kind"], {})[r["status"]] = r["n"]
    return out


def run_batch(app: App, handler: JobHandler, claimed: list[Job]) -> int:
    """Run claimed jobs through their handler and settle them; return how many were done.

    Success finishes every job the handler did not hand back. An exception puts every claimed job
    back with backoff (quarantine after ``jobs.max_attempts``) and is re-raised for the caller to
    report.
    """
    if not claimed:
        return 0
    try:
        outcome = handler.handle(app, claimed)
    except Exception as exc:
        message = error_text(exc)
        with app.connection() as conn:
            for job in claimed:
                fail(conn, job.id, message, int(app.settings["jobs.max_attempts"]), job.owner)
        raise
    back = set(outcome.requeue) if outcome else set()
    with app.connection() as conn:
        finish(conn, [j.id for j in claimed if j.id not in back])
        requeue(
            conn,
            [j.id for j in claimed if j.id in back],
            claimed[0].owner,
            outcome.delay_s if outcome else 0.0,
        )
    return len(claimed)


def run_kind(app: App, handler: JobHandler, batch: int | None = None) -> int:
    """Claim one batch of ``handler.kind`` (``batch`` or the handler's size) and run it; return
    how many jobs were done."""
    owner = app.lease.id()
    with app.connection() as conn:
        claimed = claim(
            conn,
            handler.kind,
            batch or handler.batch_size,
            owner,
            int(app.settings["jobs.max_attempts"]),
        )
    return run_batch(app, handler, claimed)


def drain(app: App, kind: str, batch: int | None = None) -> int:
    """Run jobs of one kind until none is ready (tests, benchmarks, the CLI's foreground work)."""
    handler = app.job_handlers[kind]
    size = batch or handler.batch_size
    done = 0
    while True:
        did = run_kind(app, handler, size)
        done += did
        if did < size:
            return done


def _check_handler(handler: JobHandler) -> str | None:
    if not handler.kind or not set(handler.kind) <= KIND_CHARS:
        return f"invalid job kind {handler.kind!r} (use a-z, 0-9, '.', '_', '-')"
    if not callable(handler.handle) or handler.batch_size < 1:
        return f"job kind {handler.kind!r} needs a callable handle and a batch size of at least 1"
    if handler.sweep is not None and (not callable(handler.sweep) or handler.sweep_every <= 0):
        return f"job kind {handler.kind!r}: a sweep must be callable with sweep_every > 0"
    return None


def job_handlers(host: PluginHost) -> dict[str, JobHandler]:
    """Every registered handler by kind; malformed or duplicate registrations stop start-up."""
    return registered_objects(
        host,
        "register_job_handlers",
        JobHandler,
        name=lambda h: h.kind,
        what="job kind",
        check=_check_handler,
    )
