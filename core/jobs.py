"""The job queue: rows in ``context_jobs`` claimed with ``FOR UPDATE SKIP LOCKED``.

Jobs are idempotent; a failing job is retried with exponential backoff and quarantined after
``jobs.max_attempts`` attempts so one poison row never blocks the queue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.types.json import Jsonb

if TYPE_CHECKING:
    from ctx.core.types import BlockTypeSpec


STALE_AFTER = "15 minutes"  # a job running longer than this is presumed abandoned


def enqueue(
    conn: psycopg.Connection[Any],
    kind: str,
    payload: dict[str, Any],
    dedupe_key: str | None = None,
) -> None:
    """Queue a job in the caller's transaction; a queued duplicate (same dedupe key) is a no-op."""
    conn.execute(
        "INSERT INTO context_jobs (kind, payload, dedupe_key) VALUES (%s, %s, %s) "
        "ON CONFLICT (kind, dedupe_key) WHERE status = 'queued' AND dedupe_key IS NOT NULL "
        "DO NOTHING",
        (kind, Jsonb(payload), dedupe_key),
    )


def enqueue_block_jobs(
    conn: psycopg.Connection[Any],
    spec: BlockTypeSpec,
    block_id: str,
    *,
    embed: bool = True,
    temporal: bool = True,
) -> None:
    """Queue the background work a block's type asks for (``embed``/``temporal``: what changed)."""
    if embed and spec.embed:
        enqueue(conn, "embed", {"block_id": block_id}, dedupe_key=block_id)
    if temporal and spec.temporal_extract:
        enqueue(conn, "temporal", {"block_id": block_id}, dedupe_key=block_id)


def claim(conn: psycopg.Connection[Any], kind: str, limit: int) -> list[dict[str, Any]]:
    """Claim up to ``limit`` ready jobs of one kind; other workers skip the locked rows."""
    return conn.execute(
        """
        UPDATE context_jobs SET status = 'running', locked_at = now(), attempts = attempts + 1
         WHERE id IN (SELECT id FROM context_jobs
                       WHERE kind = %s AND run_after <= now()
                         AND (status = 'queued'
                              -- a worker that died mid-job leaves it 'running': take it back
                              OR (status = 'running' AND locked_at < now() - %s::interval))
                       ORDER BY run_after, id
                       LIMIT %s FOR UPDATE SKIP LOCKED)
        RETURNING id, kind, payload, attempts
        """,
        (kind, STALE_AFTER, limit),
    ).fetchall()


def claim_for_scopes(
    conn: psycopg.Connection[Any], kind: str, scopes: list[str], limit: int
) -> list[dict[str, Any]]:
    """Claim queued block jobs whose block lives in one of ``scopes`` (the query's inline path)."""
    return conn.execute(
        """
        UPDATE context_jobs SET status = 'running', locked_at = now(), attempts = attempts + 1
         WHERE id IN (SELECT j.id FROM context_jobs j
                        JOIN context_blocks b ON b.id = (j.payload->>'block_id')::uuid
                       WHERE j.kind = %s AND j.status = 'queued' AND j.run_after <= now()
                         AND b.scope = ANY(%s)
                       ORDER BY j.id
                       LIMIT %s FOR UPDATE OF j SKIP LOCKED)
        RETURNING id, kind, payload, attempts
        """,
        (kind, scopes, limit),
    ).fetchall()


def finish(conn: psycopg.Connection[Any], job_ids: list[int]) -> None:
    """Done jobs are deleted: the write log is the audit trail, the queue stays small."""
    if job_ids:
        conn.execute("DELETE FROM context_jobs WHERE id = ANY(%s)", (job_ids,))


def fail(conn: psycopg.Connection[Any], job_id: int, error: str, max_attempts: int) -> None:
    """Put a job back with backoff (2^attempts seconds), or quarantine it when out of attempts."""
    conn.execute(
        """
        UPDATE context_jobs
           SET status = CASE WHEN attempts >= %s THEN 'quarantined' ELSE 'queued' END,
               run_after = now() + make_interval(secs => power(2, least(attempts, 12))),
               locked_at = NULL, last_error = %s
         WHERE id = %s
        """,
        (max_attempts, error[:2000], job_id),
    )


def counts(conn: psycopg.Connection[Any]) -> dict[str, dict[str, int]]:
    rows = conn.execute(
        "SELECT kind, status, count(*) AS n FROM context_jobs GROUP BY kind, status"
    ).fetchall()
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        out.setdefault(r["kind"], {})[r["status"]] = r["n"]
    return out
