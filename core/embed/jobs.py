"""Embed jobs: ``store`` queues one per changed block; a worker (or the next query of the same
caller, inline) embeds them in batches into every target generation.

Writes never wait for a model. A failing embedder puts the jobs back with backoff; the blocks stay
stored and findable through the text channels.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ctx.core.embed.context import refresh_blocks
from ctx.core.embed.generation_rows import target_generations
from ctx.core.embed.wire import binary_vectors, halfvec
from ctx.core.errors import EmbeddingError, error_text
from ctx.core.runtime import (
    Job,
    JobHandler,
    claim_for_scopes,
    finish,
    run_batch,
    running_for_scopes,
)

if TYPE_CHECKING:
    import psycopg

    from ctx.core.app import App

log = logging.getLogger("ctx.embed")
KIND = "embed"
MAX_TEXT_CHARS = 4000  # models truncate at 256-512 tokens; sending more only costs time
INLINE_LIMIT = 256  # blocks a query embeds inline before it answers
BATCH = 64


def block_text(title: str, content: str) -> str:
    return (title.strip() + "\n\n" + content.strip())[:MAX_TEXT_CHARS]


def embed_blocks(app: App, conn: psycopg.Connection[Any], block_ids: list[str]) -> int:
    """Embed the given blocks into the active (and a building) generation; return rows written."""
    if not block_ids:
        return 0
    rows = conn.execute(
        "SELECT b.id, b.title, b.content, b.content_hash FROM context_blocks b "
        "JOIN context_block_types t ON t.name = b.block_type "
        "WHERE b.id = ANY(%s) AND t.embed",
        (block_ids,),
    ).fetchall()
    if not rows:
        return 0
    written = 0
    texts = [block_text(r["title"], r["content"]) for r in rows]
    for gen in target_generations(conn):
        try:
            vecs = app.embedders.for_generation(gen).embed_documents(texts)
            if vecs.shape != (len(rows), gen["dimensions"]):
                raise EmbeddingError(
                    f"embedder returned shape {vecs.shape}, generation {gen['id']} expects "
                    f"{gen['dimensions']} dimensions"
                )
        except Exception as exc:
            if gen["status"] == "active":
                raise
            # A broken rebuild must not keep blocks out of the generation that serves
            # queries; drop stale rows so the rebuild's own fill embeds these blocks again.
            msg = error_text(exc)
            log.warning("embedding into building generation %s failed: %s", gen["id"], msg)
            conn.execute(
                "DELETE FROM context_block_embeddings WHERE generation = %s AND block_id = ANY(%s)",
                (gen["id"], [r["id"] for r in rows]),
            )
            continue
        with binary_vectors(conn).cursor() as cur:
            cur.executemany(
                "INSERT INTO context_block_embeddings (block_id, generation, content_hash, "
                "embedding, context) VALUES (%s, %s, %s, %s::halfvec, %s::halfvec) "
                "ON CONFLICT (block_id, generation) DO UPDATE SET embedding = EXCLUDED.embedding, "
                "context = EXCLUDED.context, content_hash = EXCLUDED.content_hash, "
                "created_at = now()",
                [
                    (r["id"], gen["id"], r["content_hash"], vec, vec)
                    for r, v in zip(rows, vecs, strict=True)
                    for vec in (halfvec(v),)
                ],
            )
        refresh_blocks(app, conn, int(gen["id"]), [str(r["id"]) for r in rows])
        written += len(rows)
    return written


def handle_embed_jobs(app: App, jobs: list[Job]) -> None:
    with app.connection() as conn:
        embed_blocks(app, conn, [str(j.payload["block_id"]) for j in jobs])


EMBED_JOBS = JobHandler(
    KIND, handle_embed_jobs, batch_size=BATCH, description="embed changed blocks"
)


def embed_pending(app: App, scopes: list[str]) -> int:
    """The query's inline path: embed the caller's pending blocks before answering.

    Stops after ``INLINE_LIMIT`` blocks: after a bulk import the worker catches up and the text
    channels find the rest meanwhile. Jobs a live worker is running right now are done here too
    and finished (the worker's own finish then changes nothing), rather than answered without;
    jobs of a dead worker are claimed like queued ones. Returns the jobs done.
    """
    owner = app.lease.id()
    done = 0
    with app.connection() as conn:
        held = running_for_scopes(conn, KIND, scopes, INLINE_LIMIT)
        if held:
            embed_blocks(app, conn, [str(j.payload["block_id"]) for j in held])
            finish(conn, [j.id for j in held])
            done += len(held)
    while done < INLINE_LIMIT:
        with app.connection() as conn:
            claimed = claim_for_scopes(
                conn, KIND, scopes, BATCH, owner, int(app.settings["jobs.max_attempts"])
            )
        done += run_batch(app, EMBED_JOBS, claimed)
        if len(claimed) < BATCH:
            break
    return done
