"""Guard jobs: the write hook queues one per changed block of a dedup type (in the store
transaction; the job row's NOTIFY wakes the workers), and a sweep every minute (and after a lost
listener reconnects) queues what no job asks for: blocks written before the Guard, or whose job
was lost.

A batch locks its blocks with ``FOR UPDATE SKIP LOCKED`` (a block being written right now waits
for the next round) and checks each in its own savepoint, so one failure cannot poison the batch.
A block whose embedding is not there yet is put back for a few seconds while its embed job runs.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ctx.core.blocks import fetch_block
from ctx.core.embed import active_generation
from ctx.core.errors import error_text
from ctx.core.guard.check import NEAR_DUPLICATE, Decision, check_block
from ctx.core.runtime import Job, JobHandler, JobOutcome

if TYPE_CHECKING:
    import psycopg

    from ctx.core.app import App

log = logging.getLogger("ctx.guard")
KIND = "guard"
WAIT_FOR_EMBEDDING_S = 10.0
RETRY_FAILED_AFTER = "1 hour"  # a block whose check failed is swept again after this
SWEEP_LIMIT = 1000


def _embedding_pending(conn: psycopg.Connection[Any], block_id: str) -> bool:
    return (
        conn.execute(
            "SELECT 1 FROM context_jobs WHERE kind = 'embed' AND dedupe_key = %s "
            "AND status IN ('queued', 'running') LIMIT 1",
            (block_id,),
        ).fetchone()
        is not None
    )


def run_checks(app: App, block_ids: list[str]) -> tuple[list[Decision], list[str]]:
    """Check the given blocks; return the decisions and the ids to try again shortly (locked by
    a write in progress, or their embedding still coming)."""
    decisions: list[Decision] = []
    later: list[str] = []
    with app.connection() as conn:
        gen = active_generation(conn)
        if gen is None:
            return [], []
        conn.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)")
        conn.execute("SELECT set_config('hnsw.ef_search', '64', true)")
        rows = conn.execute(
            """
            SELECT b.id::text AS id, b.scope, b.category, b.title, b.content, b.block_type,
                   b.is_archived, b.guard_status, b.created_at, b.occurred_at,
                   (SELECT e.content_hash = b.content_hash FROM context_block_embeddings e
                     WHERE e.block_id = b.id AND e.generation = %s) AS embedded
              FROM context_blocks b WHERE b.id = ANY(%s::uuid[])
               FOR UPDATE OF b SKIP LOCKED
            """,
            (gen["id"], block_ids),
        ).fetchall()
        locked = {r["id"] for r in rows}
        later += [b for b in block_ids if b not in locked and _exists(conn, b)]
        for block in rows:
            spec = app.block_type(block["block_type"])
            if spec is None or not spec.guard_dedup or block["is_archived"]:
                continue
            if block["guard_status"] != "pending":
                continue  # decided already (a job delivered twice), or reviewed by a person
            if not spec.embed:
                conn.execute(
                    "UPDATE context_blocks SET guard_status = 'unchecked', "
                    "guard_checked_at = now() WHERE id = %s",
                    (block["id"],),
                )
                continue
            if not block["embedded"]:
                if _embedding_pending(conn, block["id"]):
                    later.append(block["id"])
                continue  # no embedding coming: the sweep finds it once there is one
            try:
                with conn.transaction():  # a savepoint per block
                    decisions.append(check_block(app, conn, block, gen))
            except Exception as exc:
                log.warning("guard check of %s failed: %s", block["id"], error_text(exc))
                with conn.transaction():
                    conn.execute(
                        "UPDATE context_blocks SET guard_checked_at = now() WHERE id = %s",
                        (block["id"],),
                    )
                    conn.execute(
                        "INSERT INTO context_write_log (action, block_id, scope, detail) "
                        "VALUES ('guard.error', %s, %s, jsonb_build_object('error', %s::text))",
                        (block["id"], block["scope"], error_text(exc)[:500]),
                    )
    for d in decisions:
        if d.decision == NEAR_DUPLICATE:
            _announce_archived(app, d.block_id)
    return decisions, later


def _exists(conn: psycopg.Connection[Any], block_id: str) -> bool:
    row = conn.execute("SELECT 1 FROM context_blocks WHERE id = %s", (block_id,)).fetchone()
    return row is not None


def _announce_archived(app: App, block_id: str) -> None:
    """Tell the other capabilities (term counts, live views) after the commit; a failure here is
    logged, never allowed to fail the batch whose decisions already stand."""
    try:
        with app.connection() as conn:
            block = fetch_block(conn, block_id)
        app.host.notify("on_block_written", app=app, block=block, action="archived")
    except Exception as exc:
        log.warning("announcing the archived copy %s failed: %s", block_id, error_text(exc))


def handle_guard_jobs(app: App, jobs: list[Job]) -> JobOutcome | None:
    if not app.settings["guard.enabled"]:
        return None  # the Guard is off: the jobs are done with nothing checked
    by_block: dict[str, list[int]] = {}
    for job in jobs:
        by_block.setdefault(str(job.payload.get("block_id", "")), []).append(job.id)
    by_block.pop("", None)
    _, later = run_checks(app, list(by_block))
    back = tuple(j for b in later for j in by_block.get(b, []))
    return JobOutcome(requeue=back, delay_s=WAIT_FOR_EMBEDDING_S) if back else None


_SWEEP = f"""
INSERT INTO context_jobs (kind, payload, dedupe_key)
SELECT '{KIND}', jsonb_build_object('block_id', b.id), b.id::text
  FROM context_blocks b
  JOIN context_block_types t ON t.name = b.block_type AND t.guard_dedup AND t.embed
  JOIN context_embedding_generations g ON g.status = 'active'
  JOIN context_block_embeddings e ON e.block_id = b.id AND e.generation = g.id
       AND e.content_hash = b.content_hash
 WHERE b.guard_status = 'pending' AND NOT b.is_archived
   AND (b.guard_checked_at IS NULL OR b.guard_checked_at < now() - interval '{RETRY_FAILED_AFTER}')
   AND NOT EXISTS (SELECT 1 FROM context_jobs j WHERE j.kind = '{KIND}'
                      AND j.dedupe_key = b.id::text AND j.status IN ('queued', 'running'))
 ORDER BY b.created_at
 LIMIT {SWEEP_LIMIT}
ON CONFLICT DO NOTHING
"""


def sweep(app: App) -> int:
    """Queue a check for every unchecked, embedded block that no job asks for."""
    if not app.settings["guard.enabled"]:
        return 0
    with app.connection() as conn:
        return conn.execute(_SWEEP).rowcount


GUARD_JOBS = JobHandler(
    KIND,
    handle_guard_jobs,
    batch_size=32,
    description="check changed blocks for near-duplicates",
    sweep=sweep,
    sweep_every=60.0,
)
