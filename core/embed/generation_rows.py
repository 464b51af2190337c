"""Embedding generations: one embedding space (provider, model, dimensions, options) each.

Exactly one generation is active and serves queries; a rebuild fills a second one in the
background and switches when it is complete (``ctx.core.embed.rebuild``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from psycopg.types.json import Jsonb

from ctx.core.embed.settings import configured_options
from ctx.core.errors import CtxError
from ctx.core.runtime import counts as job_counts
from ctx.core.runtime import pending_for_scopes

if TYPE_CHECKING:
    import psycopg

    from ctx.core.app import App

log = logging.getLogger("ctx.embed")
GENERATION_COLUMNS = "id, provider, model, dimensions, status, options"


def generations(conn: psycopg.Connection[Any]) -> list[dict[str, Any]]:
    return conn.execute(
        f"SELECT {GENERATION_COLUMNS}, created_at, activated_at "
        "FROM context_embedding_generations ORDER BY id"
    ).fetchall()


def active_generation(conn: psycopg.Connection[Any]) -> dict[str, Any] | None:
    return conn.execute(
        f"SELECT {GENERATION_COLUMNS} FROM context_embedding_generations WHERE status = 'active'"
    ).fetchone()


def building_generation(conn: psycopg.Connection[Any]) -> dict[str, Any] | None:
    return conn.execute(
        f"SELECT {GENERATION_COLUMNS} FROM context_embedding_generations "
        "WHERE status = 'building' ORDER BY id DESC LIMIT 1"
    ).fetchone()


def generation(conn: psycopg.Connection[Any], gen_id: int) -> dict[str, Any] | None:
    return conn.execute(
        f"SELECT {GENERATION_COLUMNS} FROM context_embedding_generations WHERE id = %s",
        (gen_id,),
    ).fetchone()


def target_generations(conn: psycopg.Connection[Any]) -> list[dict[str, Any]]:
    """Where new vectors go: the active generation, and a building one during a rebuild."""
    return [g for g in (active_generation(conn), building_generation(conn)) if g is not None]


def create_generation(
    app: App, provider: str, options: dict[str, Any], *, active: bool
) -> dict[str, Any]:
    """Record a new generation (probing the embedder for its model and dimensions)."""
    emb = app.embedders.build(provider, options)
    with app.connection() as conn:
        row = conn.execute(
            "INSERT INTO context_embedding_generations (provider, model, dimensions, status, "
            "options, activated_at) VALUES (%s, %s, %s, %s, %s, "
            f"CASE WHEN %s THEN now() END) RETURNING {GENERATION_COLUMNS}",
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
        conn.execute("SELECT ctx_embedding_index(p_generation => %s)", (row["id"],))
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


def switch_generation(conn: psycopg.Connection[Any], gen_id: int) -> None:
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


def _recent_rates(conn: psycopg.Connection[Any]) -> dict[int, float]:
    """Per generation, vectors written in the last minute over the time they took (any
    process): the rate every estimate of time left is made with."""
    return {
        r["generation"]: float(r["n"]) / max(float(r["span"]), 1.0)
        for r in conn.execute(
            "SELECT generation, count(*) AS n, "
            "extract(epoch FROM now() - min(created_at)) AS span "
            "FROM context_block_embeddings WHERE created_at > now() - interval '60 seconds' "
            "GROUP BY generation"
        ).fetchall()
    }


def _eta(left: int, rate: float | None) -> int | None:
    """Seconds until ``left`` are done at ``rate`` (0 when none is left, None without a rate)."""
    if not left:
        return 0
    return round(left / rate) if rate else None


def status(app: App) -> dict[str, Any]:
    """Generations with how many blocks each holds, and the embed jobs still pending. Every
    count is read from an index (the blocks' type, the vectors' generation and creation time,
    the queue's partial indexes), so it answers quickly on a large, busy store."""
    with app.connection() as conn:
        total = conn.execute(
            "SELECT count(*) AS n FROM context_blocks WHERE block_type = ANY("
            "ARRAY(SELECT name FROM context_block_types WHERE embed))"
        ).fetchone()
        gens = generations(conn)
        counts = {
            r["generation"]: r["n"]
            for r in conn.execute(
                "SELECT generation, count(*) AS n FROM context_block_embeddings GROUP BY generation"
            ).fetchall()
        }
        jobs = job_counts(conn).get("embed", {})
        recent = _recent_rates(conn)
    assert total is not None
    out = []
    for g in gens:
        embedded = counts.get(g["id"], 0)
        rate = recent.get(g["id"])
        # what is left: a building generation's missing blocks, the active one's embed jobs
        left = (
            max(0, total["n"] - embedded)
            if g["status"] == "building"
            else jobs.get("queued", 0) + jobs.get("running", 0)
        )
        out.append(
            {
                **g,
                "embedded": embedded,
                "per_s": round(rate, 1) if rate else None,
                "left": left,
                "eta_s": _eta(left, rate),
            }
        )
    return {"embeddable_blocks": total["n"], "generations": out, "embed_jobs": jobs}


def embedding_overview(app: App) -> dict[str, Any] | None:
    """The active generation with its backlog, recent throughput and ETA (and a building one's),
    or None when there is none yet."""
    with app.connection() as conn:
        gen = active_generation(conn)
    if gen is None:
        return None
    keys = ("id", "provider", "model", "dimensions", "embedded", "left", "per_s", "eta_s")
    gens = {g["status"]: {k: g[k] for k in keys} for g in status(app)["generations"]}
    out = gens.get("active") or {k: gen[k] for k in keys[:4]}
    if "building" in gens:
        out["building"] = gens["building"]
    return out


def backlog_for_scopes(app: App, scopes: list[str]) -> dict[str, Any]:
    """The blocks of ``scopes`` waiting for the active generation (``waiting``), the rate the
    workers embed at (``per_s``) and when the last of them should be done (``eta_s``): the
    queue is worked in order, so every embed job up to that block's counts, other scopes'
    included. What ``ctx ingest`` reports after sending."""
    with app.connection() as conn:
        waiting = pending_for_scopes(conn, scopes, "embed")
        through = conn.execute(
            "SELECT count(*) AS n FROM context_jobs WHERE kind = 'embed' "
            "AND status IN ('queued', 'running') AND id <= ("
            "  SELECT max(j.id) FROM context_jobs j "
            "    JOIN context_blocks b ON b.id = (j.payload->>'block_id')::uuid "
            "   WHERE j.kind = 'embed' AND j.status IN ('queued', 'running') "
            "     AND b.scope = ANY(%s))",
            (scopes,),
        ).fetchone()
        gen = active_generation(conn)
        rate = _recent_rates(conn).get(gen["id"]) if gen is not None else None
    assert through is not None
    return {
        "waiting": waiting,
        "per_s": round(rate, 1) if rate else None,
        "eta_s": _eta(int(through["n"]), rate),
    }
