"""Embedding generations and the embed jobs that fill them.

A generation is one embedding space (provider, model, dimensions, options). Exactly one is active
and serves queries; a rebuild fills a second one in the background and switches when it is
complete. Writes never wait: ``store`` queues an ``embed`` job in its transaction and a worker (or
the next query of the same caller) embeds in batches.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

import numpy as np
from psycopg.types.json import Jsonb

from ctx.core import jobs
from ctx.core.embed import Embedder, create_embedder
from ctx.core.errors import CtxError, EmbeddingError

if TYPE_CHECKING:
    import psycopg

    from ctx.core.app import App

log = logging.getLogger("ctx.indexing")
MAX_TEXT_CHARS = 4000
INLINE_LIMIT = 256  # blocks a query embeds inline before it answers  # models truncate at 256-512 tokens; sending more only costs time


def block_text(title: str, content: str) -> str:
    return (title.strip() + "\n\n" + content.strip())[:MAX_TEXT_CHARS]


def vector_literal(vec: np.ndarray) -> str:
    return "[" + ",".join(f"{float(x):.6g}" for x in vec) + "]"


def configured_options(app: App) -> tuple[str, dict[str, Any]]:
    """The embedder the settings ask for: provider name and its non-secret options."""
    provider = str(app.settings["embed.provider"])
    options: dict[str, Any] = {"batch_size": int(app.settings["embed.batch_size"])}
    for key in ("base_url", "model", "query_prefix", "document_prefix"):
        value = app.settings[f"embed.{key}"]
        if value:
            options[key] = value
    dims = int(app.settings["embed.dimensions"])
    if dims:
        options["dimensions"] = dims
    return provider, options


class EmbedderCache:
    """One embedder per generation, built lazily and shared across threads."""

    def __init__(self, app: App) -> None:
        self.app = app
        self._lock = threading.Lock()
        self._by_generation: dict[int, Embedder] = {}

    def for_generation(self, gen: dict[str, Any]) -> Embedder:
        with self._lock:
            emb = self._by_generation.get(gen["id"])
            if emb is None:
                options = dict(gen["options"] or {})
                secret = self.app.settings["embed.api_key"]
                if secret:
                    options["api_key"] = secret
                emb = create_embedder(self.app.pm, gen["provider"], options)
                self._by_generation[gen["id"]] = emb
            return emb

    def build(self, provider: str, options: dict[str, Any]) -> Embedder:
        opts = dict(options)
        secret = self.app.settings["embed.api_key"]
        if secret:
            opts["api_key"] = secret
        return create_embedder(self.app.pm, provider, opts)


def generations(conn: psycopg.Connection[Any]) -> list[dict[str, Any]]:
    return conn.execute(
        "SELECT id, provider, model, dimensions, status, options, created_at, activated_at "
        "FROM context_embedding_generations ORDER BY id"
    ).fetchall()


def active_generation(conn: psycopg.Connection[Any]) -> dict[str, Any] | None:
    return conn.execute(
        "SELECT id, provider, model, dimensions, status, options FROM "
        "context_embedding_generations WHERE status = 'active'"
    ).fetchone()


def building_generation(conn: psycopg.Connection[Any]) -> dict[str, Any] | None:
    return conn.execute(
        "SELECT id, provider, model, dimensions, status, options FROM "
        "context_embedding_generations WHERE status = 'building' ORDER BY id DESC LIMIT 1"
    ).fetchone()


def create_generation(
    app: App, provider: str, options: dict[str, Any], *, active: bool
) -> dict[str, Any]:
    """Record a new generation (probing the embedder for its model and dimensions)."""
    emb = app.embedders.build(provider, options)
    with app.connection() as conn:
        row = conn.execute(
            "INSERT INTO context_embedding_generations (provider, model, dimensions, status, "
            "options, activated_at) VALUES (%s, %s, %s, %s, %s, "
            "CASE WHEN %s THEN now() END) RETURNING id, provider, model, dimensions, status, "
            "options",
            (
                provider,
                emb.model,
                emb.dimensions,
                "active" if active else "building",
                Jsonb(options),
                active,
            ),
        ).fetchone()
        assert row is not None
        conn.execute("SELECT ctx_embedding_index(%s)", (row["id"],))
    return dict(row)


def ensure_active_generation(app: App) -> dict[str, Any] | None:
    """Make sure a generation exists; the first start creates one from the settings.

    Returns None (and logs) when the configured embedder cannot be built: ctx still serves the
    text channels.
    """
    with app.connection() as conn:
        gen = active_generation(conn)
    if gen is not None:
        return gen
    provider, options = configured_options(app)
    try:
        return create_generation(app, provider, options, active=True)
    except CtxError as exc:
        log.warning("no embedding generation: %s", exc.message)
        return None


def _targets(conn: psycopg.Connection[Any]) -> list[dict[str, Any]]:
    gens = [g for g in (active_generation(conn), building_generation(conn)) if g is not None]
    return gens


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
    for gen in _targets(conn):
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
            msg = exc.message if isinstance(exc, CtxError) else repr(exc)
            log.warning("embedding into building generation %s failed: %s", gen["id"], msg)
            conn.execute(
                "DELETE FROM context_block_embeddings WHERE generation = %s AND block_id = ANY(%s)",
                (gen["id"], [r["id"] for r in rows]),
            )
            continue
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO context_block_embeddings (block_id, generation, content_hash, "
                "embedding) VALUES (%s, %s, %s, %s::halfvec) ON CONFLICT (block_id, generation) "
                "DO UPDATE SET embedding = EXCLUDED.embedding, "
                "content_hash = EXCLUDED.content_hash, created_at = now()",
                [
                    (r["id"], gen["id"], r["content_hash"], vector_literal(v))
                    for r, v in zip(rows, vecs, strict=True)
                ],
            )
        written += len(rows)
    return written


def run_embed_jobs(app: App, *, scopes: list[str] | None = None, batch: int = 64) -> int:
    """Claim queued embed jobs (optionally only for blocks in ``scopes``) and do them.

    Returns the number of jobs completed. A failing embedder puts the jobs back with backoff;
    the blocks stay stored and findable through the text channels.
    """
    done = 0
    max_attempts = int(app.settings["jobs.max_attempts"])
    if scopes is not None:
        # Blocks a worker is embedding right now: embed them here too (the upsert is idempotent)
        # rather than answer without them.
        with app.connection() as conn:
            held = conn.execute(
                "SELECT j.payload->>'block_id' AS id FROM context_jobs j "
                "JOIN context_blocks b ON b.id = (j.payload->>'block_id')::uuid "
                "WHERE j.kind = 'embed' AND j.status = 'running' AND b.scope = ANY(%s) LIMIT 256",
                (scopes,),
            ).fetchall()
            if held:
                embed_blocks(app, conn, [r["id"] for r in held])
    while True:
        with app.connection() as conn:
            if scopes is None:
                claimed = jobs.claim(conn, "embed", batch)
            else:
                claimed = jobs.claim_for_scopes(conn, "embed", scopes, batch)
        if not claimed:
            return done
        ids = [str(j["payload"]["block_id"]) for j in claimed]
        try:
            with app.connection() as conn:
                embed_blocks(app, conn, ids)
                jobs.finish(conn, [j["id"] for j in claimed])
        except Exception as exc:
            message = exc.message if isinstance(exc, CtxError) else repr(exc)
            with app.connection() as conn:
                for j in claimed:
                    jobs.fail(conn, j["id"], message, max_attempts)
            raise
        done += len(claimed)
        # The inline (query) path stops after a few batches: after a bulk import the worker
        # catches up and the text channels find the rest meanwhile.
        if len(claimed) < batch or (scopes is not None and done >= INLINE_LIMIT):
            return done


REBUILD_BATCHES_PER_STEP = 4


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
        jobs.enqueue(conn, "rebuild", {"generation": gen["id"]}, dedupe_key=str(gen["id"]))
    return gen


def rebuild_step(app: App, batch: int = 64) -> int:
    """Fill the building generation a few batches at a time; switch when it is complete.

    Returns 1 when it did work (so the worker comes back soon), 0 when there was nothing to do.
    """
    with app.connection() as conn:
        claimed = jobs.claim(conn, "rebuild", 1)
    if not claimed:
        return 0
    job = claimed[0]
    gen_id = int(job["payload"]["generation"])
    try:
        with app.connection() as conn:
            gen = conn.execute(
                "SELECT id, provider, model, dimensions, status, options "
                "FROM context_embedding_generations WHERE id = %s",
                (gen_id,),
            ).fetchone()
        if gen is None or gen["status"] != "building":
            with app.connection() as conn:
                jobs.finish(conn, [job["id"]])
            return 1
        embedder = app.embedders.for_generation(gen)
        for _ in range(REBUILD_BATCHES_PER_STEP):
            with app.connection() as conn:
                rows = conn.execute(
                    "SELECT b.id, b.title, b.content, b.content_hash FROM context_blocks b "
                    "JOIN context_block_types t ON t.name = b.block_type WHERE t.embed "
                    "AND NOT EXISTS (SELECT 1 FROM context_block_embeddings e "
                    "WHERE e.block_id = b.id AND e.generation = %s) LIMIT %s",
                    (gen_id, batch),
                ).fetchall()
                if not rows:
                    _switch(conn, gen_id)
                    jobs.finish(conn, [job["id"]])
                    log.info("embedding generation %s is now active", gen_id)
                    return 1
                vecs = embedder.embed_documents(
                    [block_text(r["title"], r["content"]) for r in rows]
                )
                with conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO context_block_embeddings (block_id, generation, content_hash, "
                        "embedding) VALUES (%s, %s, %s, %s::halfvec) ON CONFLICT DO NOTHING",
                        [
                            (r["id"], gen_id, r["content_hash"], vector_literal(v))
                            for r, v in zip(rows, vecs, strict=True)
                        ],
                    )
        with app.connection() as conn:  # more to do: hand the job back for the next step
            conn.execute(
                "UPDATE context_jobs SET status = 'queued', locked_at = NULL, attempts = 0 "
                "WHERE id = %s",
                (job["id"],),
            )
        return 1
    except Exception as exc:
        message = exc.message if isinstance(exc, CtxError) else repr(exc)
        with app.connection() as conn:
            jobs.fail(conn, job["id"], message, int(app.settings["jobs.max_attempts"]))
        raise


def _switch(conn: psycopg.Connection[Any], gen_id: int) -> None:
    """Make ``gen_id`` active in one transaction; the previous generation and its rows go."""
    old = active_generation(conn)
    if old is not None:
        conn.execute(
            "UPDATE context_embedding_generations SET status = 'retired' WHERE id = %s",
            (old["id"],),
        )
    conn.execute(
        "UPDATE context_embedding_generations SET status = 'active', activated_at = now() "
        "WHERE id = %s",
        (gen_id,),
    )
    if old is not None:
        conn.execute(f"DROP INDEX IF EXISTS context_block_embeddings_hnsw_{int(old['id'])}")
        conn.execute("DELETE FROM context_embedding_generations WHERE id = %s", (old["id"],))


def status(app: App) -> dict[str, Any]:
    with app.connection() as conn:
        total = conn.execute(
            "SELECT count(*) AS n FROM context_blocks b JOIN context_block_types t "
            "ON t.name = b.block_type WHERE t.embed"
        ).fetchone()
        gens = generations(conn)
        counts = {
            r["generation"]: r["n"]
            for r in conn.execute(
                "SELECT generation, count(*) AS n FROM context_block_embeddings GROUP BY generation"
            ).fetchall()
        }
        pending = conn.execute(
            "SELECT status, count(*) AS n FROM context_jobs WHERE kind = 'embed' GROUP BY status"
        ).fetchall()
    assert total is not None
    return {
        "embeddable_blocks": total["n"],
        "generations": [{**g, "embedded": counts.get(g["id"], 0)} for g in gens],
        "embed_jobs": {r["status"]: r["n"] for r in pending},
    }
