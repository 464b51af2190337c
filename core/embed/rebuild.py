"""Blue-green rebuilds: fill a new generation in the background, switch when it is complete."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ctx.core.embed.generation_rows import (
    building_generation,
    create_generation,
    generation,
    switch_generation,
)
from ctx.core.embed.jobs import block_text, write_vectors
from ctx.core.embed.settings import configured_options
from ctx.core.errors import CtxError
from ctx.core.runtime import Job, JobHandler, JobOutcome, enqueue, run_kind

if TYPE_CHECKING:
    from ctx.core.app import App

log = logging.getLogger("ctx.embed")
KIND = "rebuild"
BATCH = 64
BATCHES_PER_STEP = 4


def start_rebuild(
    app: App, provider: str | None = None, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Create a 'building' generation for the configured (or given) embedder and queue its fill."""
    with app.connection() as conn:
        running = building_generation(conn)
    if running is not None:
        raise CtxError(
            f"a rebuild is already running (generation {running['id']}); see `ctx embed status`"
        )
    if provider is None:
        provider, configured = configured_options(app)
        options = configured if options is None else options
    gen = create_generation(app, provider, options or {}, active=False)
    with app.connection() as conn:
        enqueue(conn, KIND, {"generation": gen["id"]}, dedupe_key=str(gen["id"]))
    return gen


def fill_step(app: App, job: Job) -> bool:
    """Embed a few batches of missing blocks into the job's generation; switch when none is left.

    Returns True when more remains (the job goes back to the queue for the next step).
    """
    gen_id = int(job.payload["generation"])
    with app.connection() as conn:
        gen = generation(conn, gen_id)
    if gen is None or gen["status"] != "building":
        return False
    embedder = app.embedders.for_generation(gen)
    for _ in range(BATCHES_PER_STEP):
        with app.connection() as conn:
            rows = conn.execute(
                "SELECT b.id, b.title, b.content, b.content_hash FROM context_blocks b "
                "JOIN context_block_types t ON t.name = b.block_type WHERE t.embed "
                "AND NOT EXISTS (SELECT 1 FROM context_block_embeddings e "
                "WHERE e.block_id = b.id AND e.generation = %s) LIMIT %s",
                (gen_id, BATCH),
            ).fetchall()
            if not rows:
                switch_generation(conn, gen_id)
                log.info("embedding generation %s is now active", gen_id)
                return False
            vecs = embedder.embed_documents([block_text(r["title"], r["content"]) for r in rows])
            write_vectors(app, conn, rows, [(gen, vecs)])
    return True


def handle_rebuild_jobs(app: App, jobs: list[Job]) -> JobOutcome:
    return JobOutcome(requeue=tuple(job.id for job in jobs if fill_step(app, job)))


REBUILD_JOBS = JobHandler(
    KIND, handle_rebuild_jobs, batch_size=1, description="fill a building embedding generation"
)


def rebuild_step(app: App) -> int:
    """One step of the rebuild in the foreground (``ctx embed rebuild`` helps the workers)."""
    return run_kind(app, REBUILD_JOBS)
