"""The query path: pending embeddings, query embedding, ``ctx_rrf``, confidence, sources.

Every step that calls a model is fail-open: when the embedder fails, the text channels still
answer and the response carries a warning.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from ctx.core.auth import Principal
from ctx.core.errors import CtxError, Forbidden
from ctx.core.indexing import active_generation, run_embed_jobs, vector_literal
from ctx.core.language import detect_german
from ctx.core.schemas import QueryRequest
from ctx.core.temporal import TemporalResult
from ctx.core.timeline import apply_gravity, date_query, run_temporal_jobs_for_scopes

if TYPE_CHECKING:
    from ctx.core.app import App

log = logging.getLogger("ctx.retrieval")
CHANNELS = ("dense", "fts_en", "fts_de", "trigram")


SEED_K = 60  # the confidence thresholds are stated for RRF with k = 60


def threshold_scale(k: int) -> float:
    """Factor that carries the thresholds to another k: the best possible score is Σw / (k + 1)."""
    return (SEED_K + 1) / (k + 1)


def classify(best: float, confident: float, floor: float) -> str:
    if best >= confident:
        return "confident"
    if best >= floor:
        return "low_confidence"
    return "no_relevant_blocks_found"


def read_scopes(who: Principal, wanted: list[str] | None) -> list[str]:
    if wanted is None:
        return list(who.read_scopes)
    bad = [s for s in wanted if not who.can_read(s)]
    if bad:
        raise Forbidden(f"this key cannot read scope(s) {', '.join(bad)}")
    return list(wanted)


def weights(app: App) -> list[float]:
    s = app.settings
    return [
        float(s["query.weight_dense"]),
        float(s["query.weight_fts_en"]),
        float(s["query.weight_fts_de"]),
        float(s["query.weight_trigram"]),
    ]


def candidates(
    app: App,
    req: QueryRequest,
    scopes: list[str],
    warnings: list[str],
    *,
    channel_weights: list[float] | None = None,
    date_query: str | None = None,
) -> list[dict[str, Any]]:
    """Run the fusion: up to ``query.candidates`` scored rows with per-channel ranks.

    ``channel_weights`` overrides [dense, fts_en, fts_de, trigram, dates] (a 4-list keeps the
    date weight from the settings); ``date_query`` feeds the date channel.
    """
    s = app.settings
    w = list(channel_weights or weights(app))
    if len(w) == 4:
        w.append(float(s["query.weight_dates"]))
    embedding: str | None = None
    gen: dict[str, Any] | None = None
    with app.connection() as conn:
        gen = active_generation(conn)
    if gen is None:
        warnings.append("no embedding generation: dense channel skipped")
    elif w[0] > 0:
        try:
            run_embed_jobs(app, scopes=scopes)
        except Exception as exc:
            msg = exc.message if isinstance(exc, CtxError) else str(exc)
            warnings.append(f"embedding pending blocks failed ({msg}); they are found by text")
        try:
            vec = app.embedders.for_generation(gen).embed_query(req.query)
            embedding = vector_literal(vec)
        except Exception as exc:
            msg = exc.message if isinstance(exc, CtxError) else str(exc)
            log.warning("query embedding failed: %s", msg)
            warnings.append(f"query embedding failed ({msg}); dense channel skipped")
    limits = [
        int(s["query.limit_dense"]),
        int(s["query.limit_fts"]),
        int(s["query.limit_fts"]),
        int(s["query.limit_trigram"]),
    ]
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT * FROM ctx_rrf(%s::text, %s::text, %s::int, %s::int, %s::text[], %s::text, "
            "%s::text[], %s::uuid[], %s::text[], %s::real[], %s::int, %s::int[], %s::real, "
            "%s::int, %s::text, %s::real, %s::real)",
            (
                req.query,
                embedding,
                gen["id"] if gen else None,
                gen["dimensions"] if gen else None,
                scopes,
                req.category,
                req.tags,
                req.exclude_ids,
                req.exclude_types,
                w,
                int(s["query.rrf_k"]),
                limits,
                float(s["query.trigram_threshold"]),
                int(s["query.candidates"]),
                date_query,
                float(s["query.fts_common_cutoff"]),
                float(s["query.fts_cutoff_min_blocks"]),
            ),
        ).fetchall()
    return list(rows)


def _sources(app: App, rows: list[dict[str, Any]], query: str) -> list[dict[str, Any]]:
    if not rows:
        return []
    ids = [r["block_id"] for r in rows]
    with app.connection() as conn:
        found = conn.execute(
            """
            SELECT b.id, b.title, b.category, b.scope, b.block_type, b.tags, b.occurred_at,
                   b.updated_at,
                   ts_headline('english', left(b.content, 20000),
                       replace(plainto_tsquery('english', %s)::text, '&', '|')::tsquery,
                       'MaxWords=40, MinWords=15, MaxFragments=1, StartSel=**, StopSel=**')
                       AS snippet
              FROM context_blocks b WHERE b.id = ANY(%s)
            """,
            (query, ids),
        ).fetchall()
    by_id = {r["id"]: r for r in found}
    out = []
    for r in rows:
        b = by_id.get(r["block_id"])
        if b is None:  # deleted between the two statements
            continue
        out.append({**b, "id": str(b["id"]), "score": float(r["score"])})
    return out


def explain_row(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "dense": {"rank": r["dense_rank"], "similarity": r["dense_sim"]},
        "fts_en": {"rank": r["en_rank"], "score": r["en_score"]},
        "fts_de": {"rank": r["de_rank"], "score": r["de_score"]},
        "trigram": {"rank": r["trgm_rank"], "similarity": r["trgm_sim"]},
        "dates": {"rank": r.get("date_rank")},
        "gravity": r.get("gravity", 1.0),
    }


def parse_time(app: App, req: QueryRequest, scopes: list[str]) -> TemporalResult:
    """Resolve the query's temporal expression; extract the caller's pending blocks first."""
    result = app.temporal_parser.parse(req.query, now=req.now)
    if result.matched:
        run_temporal_jobs_for_scopes(app, scopes)
    return result


def query(app: App, who: Principal, req: QueryRequest) -> dict[str, Any]:
    started = time.perf_counter()
    scopes = read_scopes(who, req.scopes)
    warnings: list[str] = []
    temporal = parse_time(app, req, scopes)
    rows = candidates(app, req, scopes, warnings, date_query=date_query(temporal))
    if temporal.matched and app.settings["query.temporal_gravity"]:
        rows = apply_gravity(app, rows, temporal)
    limit = req.limit or int(app.settings["query.default_limit"])
    best = float(rows[0]["score"]) if rows else 0.0
    scale = threshold_scale(int(app.settings["query.rrf_k"]))
    floor = float(app.settings["query.score_threshold"]) * scale
    confidence = classify(best, float(app.settings["query.confident_threshold"]) * scale, floor)
    kept = [r for r in rows if float(r["score"]) >= floor]
    if confidence == "low_confidence":
        kept = kept[:2]
    elif confidence == "no_relevant_blocks_found":
        kept = []
    kept = kept[:limit]
    sources = _sources(app, kept, req.query)
    if req.explain:
        by_id = {str(r["block_id"]): r for r in kept}
        for s in sources:
            s["channels"] = explain_row(by_id[s["id"]])
    return {
        "query": req.query,
        "confidence": confidence,
        "sources": sources,
        "language": detect_german(req.query).as_dict(),
        "temporal": {**temporal.to_json(), "fallback": temporal.fallback},
        "warnings": warnings,
        "candidates": len(rows),
        "took_ms": round((time.perf_counter() - started) * 1000, 1),
    }
