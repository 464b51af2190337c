"""Embed jobs: ``store`` queues one per changed block; a worker (or the next query of the same
caller, inline) embeds them in batches into every target generation.

Writes never wait for a model. A failing embedder puts the jobs back with backoff; the blocks stay
stored and findable through the text channels.
"""

from __future__ import annotations

import logging
import time
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from ctx.core.embed.context import lock_sequences, refresh_blocks
from ctx.core.embed.generation_rows import target_generations
from ctx.core.embed.wire import binary_vectors, halfvec
from ctx.core.errors import EmbeddingError, error_text
from ctx.core.runtime import (
    Job,
    JobHandler,
    claim_for_scopes,
    finish,
    pending_for_scopes,
    retried,
    run_batch,
    running_for_scopes,
)

if TYPE_CHECKING:
    import numpy as np
    import psycopg

    from ctx.core.app import App

log = logging.getLogger("ctx.embed")
KIND = "embed"
MAX_TEXT_CHARS = 4000  # models truncate at 256-512 tokens; sending more only costs time
BATCH = 64


def block_text(title: str, content: str) -> str:
    return (title.strip() + "\n\n" + content.strip())[:MAX_TEXT_CHARS]


def embed_blocks(app: App, conn: psycopg.Connection[Any], block_ids: list[str]) -> int:
    """Embed the given blocks into the active (and a building) generation inside the caller's
    transaction; return rows written. The model runs while ``conn`` is held: for the caller
    that must write in the same transaction (the governor's indexer); everyone else calls
    ``embed_block_ids``. Blocks deleted or changed by others while the model ran are left
    out."""
    rows = _embeddable(conn, block_ids)
    if not rows:
        return 0
    gens = target_generations(conn)
    return write_vectors(app, conn, rows, _vectors(app, gens, rows))


def embed_block_ids(
    app: App, block_ids: list[str], model_turn: AbstractContextManager[Any] | None = None
) -> int:
    """Embed the given blocks with no connection held while the model runs: read the texts,
    give the connection back, embed (inside ``model_turn`` when given: the worker's turn at the
    model), then write the vectors in one short transaction (blocks deleted or changed meanwhile
    are left out: a changed block has a newer job queued)."""
    with app.connection() as conn:
        rows = _embeddable(conn, block_ids)
        gens = target_generations(conn) if rows else []
    if not rows:
        return 0
    with model_turn or nullcontext():
        vectors = _vectors(app, gens, rows)

    def write() -> int:
        with app.connection() as conn:
            return write_vectors(app, conn, rows, vectors)

    return retried(write)


def _embeddable(conn: psycopg.Connection[Any], block_ids: list[str]) -> list[dict[str, Any]]:
    """The blocks among ``block_ids`` whose type is embedded."""
    if not block_ids:
        return []
    return conn.execute(
        "SELECT b.id, b.title, b.content, b.content_hash FROM context_blocks b "
        "JOIN context_block_types t ON t.name = b.block_type "
        "WHERE b.id = ANY(%s) AND t.embed",
        (block_ids,),
    ).fetchall()


def _vectors(
    app: App, gens: list[dict[str, Any]], rows: list[dict[str, Any]]
) -> list[tuple[dict[str, Any], np.ndarray | None]]:
    """Each target generation's vectors of ``rows`` (None: a building generation's embedder
    failed). Runs the models; touches no connection."""
    texts = [block_text(r["title"], r["content"]) for r in rows]
    out: list[tuple[dict[str, Any], np.ndarray | None]] = []
    for gen in gens:
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
            log.warning(
                "embedding into building generation %s failed: %s", gen["id"], error_text(exc)
            )
            out.append((gen, None))
            continue
        out.append((gen, vecs))
    return out


def write_vectors(
    app: App,
    conn: psycopg.Connection[Any],
    rows: list[dict[str, Any]],
    vectors: list[tuple[dict[str, Any], np.ndarray | None]],
) -> int:
    """Write each generation's vectors of ``rows`` (``id``, ``content_hash``) with their context
    vectors; return rows written.

    Only blocks still there with the content that was embedded are written, kept so until the
    transaction ends (``FOR KEY SHARE``): a block deleted, or changed, while the model ran is
    left out, and the rest of the batch is written. Every writer of vectors locks in one order,
    so two of them never wait for each other: the blocks by id, then the sequence locks of every
    place they are in (``lock_sequences``), then the vector rows by id.
    """
    current = {
        str(r["id"]): r
        for r in conn.execute(
            "SELECT id, content_hash, scope, category FROM context_blocks "
            "WHERE id = ANY(%s) ORDER BY id FOR KEY SHARE",
            ([r["id"] for r in rows],),
        ).fetchall()
    }
    keep = sorted(
        (i for i, r in enumerate(rows) if _unchanged(current.get(str(r["id"])), r)),
        key=lambda i: str(rows[i]["id"]),
    )
    if not keep:
        return 0
    rows = [rows[i] for i in keep]
    places = {(current[str(r["id"])]["scope"], current[str(r["id"])]["category"]) for r in rows}
    vectors = sorted(vectors, key=lambda pair: int(pair[0]["id"]))
    for gen, _ in vectors:
        lock_sequences(conn, int(gen["id"]), places)
    written = 0
    for gen, vecs in vectors:
        if vecs is None:
            # A broken rebuild must not keep blocks out of the generation that serves
            # queries; drop stale rows so the rebuild's own fill embeds these blocks again.
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
                    for r, v in zip(rows, vecs[keep], strict=True)
                    for vec in (halfvec(v),)
                ],
            )
        refresh_blocks(app, conn, int(gen["id"]), [str(r["id"]) for r in rows])
        written += len(rows)
    return written


def _unchanged(now: dict[str, Any] | None, embedded: dict[str, Any]) -> bool:
    return now is not None and now["content_hash"] == embedded["content_hash"]


def handle_embed_jobs(app: App, jobs: list[Job]) -> None:
    """A worker's batch: one at a time in the model per process (``batch_lock``)."""
    embed_block_ids(app, [str(j.payload["block_id"]) for j in jobs], app.embedders.batch_lock)


def _embed_inline(app: App, jobs: list[Job]) -> None:
    """A query's batch: it never waits for a worker's turn at the model."""
    embed_block_ids(app, [str(j.payload["block_id"]) for j in jobs])


EMBED_JOBS = JobHandler(
    KIND, handle_embed_jobs, batch_size=BATCH, description="embed changed blocks"
)
_INLINE_JOBS = JobHandler(KIND, _embed_inline, batch_size=BATCH)


def embed_pending(app: App, scopes: list[str], budget_ms: int | None = None) -> int:
    """The query's inline path: embed some of the caller's pending blocks before answering.

    Bounded in time by ``budget_ms`` (default ``query.inline_embed_ms``; 0: none): small batches
    are claimed, each sized to what fits in the time left at the speed measured so far (one block
    while none was measured, even past the budget), and no batch is started that would not fit. The rest stay queued
    for the worker; the text and date channels find them meanwhile. No connection is held while
    the model runs. Jobs a live worker is running right now are done here too (as the first
    batch) and finished, rather than answered without (the worker's own finish then changes
    nothing); jobs of a dead worker are claimed like queued ones. Returns the jobs done.
    """
    budget = int(app.settings["query.inline_embed_ms"]) if budget_ms is None else budget_ms
    if budget <= 0:
        return 0
    deadline = time.monotonic() + budget / 1000
    done = 0
    size = _fits(app, deadline, first=True)
    if size:
        with app.connection() as conn:
            held = running_for_scopes(conn, KIND, scopes, size)
        if held:
            started = time.monotonic()
            embed_block_ids(app, [str(j.payload["block_id"]) for j in held])
            with app.connection() as conn:
                finish(conn, [j.id for j in held])
            app.embedders.record_speed(time.monotonic() - started, len(held))
            done += len(held)
    owner = app.lease.id()
    while (size := _fits(app, deadline, first=done == 0)) > 0:
        with app.connection() as conn:
            claimed = claim_for_scopes(
                conn, KIND, scopes, size, owner, int(app.settings["jobs.max_attempts"])
            )
        started = time.monotonic()
        done += run_batch(app, _INLINE_JOBS, claimed)
        app.embedders.record_speed(time.monotonic() - started, len(claimed))
        if len(claimed) < size:
            break
    return done


def _fits(app: App, deadline: float, *, first: bool = False) -> int:
    """How many blocks fit in the time left (0 to ``BATCH``); while the speed is unknown, one
    block for the first batch of a call, whatever the time left (that is how it is learnt)."""
    left = deadline - time.monotonic()
    per_block = app.embedders.seconds_per_block
    if per_block is None:
        return 1 if first or left > 0 else 0
    if left <= 0:
        return 0
    return max(0, min(BATCH, int(left / max(per_block, 1e-6))))


def waiting_for_scopes(app: App, scopes: list[str]) -> int:
    """How many blocks of ``scopes`` still wait to be embedded (queued or running jobs)."""
    with app.connection() as conn:
        return pending_for_scopes(conn, scopes, KIND)
