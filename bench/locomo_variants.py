"""Benchmark-local experiments on a LoCoMo index (``locomo.py --variants``); nothing here
changes ctx: other weights and k through ``ctx_rrf``, a copy of ``ctx_rrf`` with another
``ts_rank_cd`` normalisation, and min-max score fusion of the per-channel scores."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from _common import call_rrf, progress, weights_of
from locomo_data import Conversation, first_hit, summarise

from ctx.core import App, Candidate, retrieval
from ctx.core.embed import active_generation


def install_rrf_copy(app: App, name: str, normalization: int) -> None:
    """A copy of ctx_rrf under ``name`` whose FTS channels use ts_rank_cd(..., normalization)."""
    with app.connection() as conn:
        row = conn.execute(
            "SELECT pg_get_functiondef(p.oid) AS d FROM pg_proc p WHERE p.proname = 'ctx_rrf'"
        ).fetchone()
        assert row is not None
        src: str = row["d"]
        new = re.sub(r"FUNCTION (public\.)?ctx_rrf\(", f"FUNCTION {name}(", src, count=1)
        # ts_rank_cd(b.ts_en, <query>) -> ts_rank_cd(b.ts_en, <query>, normalization)
        new, n = re.subn(
            r"ts_rank_cd\((b\.ts_(?:en|de)), ([^(),]+)\)",
            rf"ts_rank_cd(\1, \2, {normalization})",
            new,
        )
        if n != 2:
            raise RuntimeError(f"ctx_rrf changed: {n} ts_rank_cd calls on ts_en/ts_de, expected 2")
        conn.execute(new)


def score_fusion(rows: list[Candidate], weights: dict[str, float]) -> list[str]:
    """Block ids by the weighted sum of per-channel min-max-normalised scores (missing: 0)."""
    fused: dict[str, float] = defaultdict(float)
    for channel in ("dense", "fts_en", "fts_de", "trigram"):
        w = weights[channel]
        scored = [(r.block_id, r.channel_scores.get(channel)) for r in rows]
        vals = [float(v) for _, v in scored if v is not None]
        if w == 0 or not vals:
            continue
        lo, hi = min(vals), max(vals)
        span = hi - lo
        for block_id, v in scored:
            if v is not None:
                fused[block_id] += w * ((float(v) - lo) / span if span else 1.0)
    return sorted(fused, key=lambda b: -fused[b])


def variants(app: App) -> list[tuple[str, str, dict[str, float], int, str]]:
    """(name, function, weights, rrf_k, kind) of the experiments run with --variants."""
    d = retrieval.channel_weights(app)
    w = weights_of(d["dense"], d["fts_en"], d["fts_de"], d["trigram"])
    k = int(app.settings["query.rrf_k"])
    no_trgm = {**w, "trigram": 0.0}
    fts_only = {**w, "dense": 0.0, "trigram": 0.0}
    out: list[tuple[str, str, dict[str, float], int, str]] = [
        (f"rrf default w, k={k}, no trigram", "ctx_rrf", no_trgm, k, "rrf"),
        (f"rrf w=.30/.45/.25/0, k={k}", "ctx_rrf", weights_of(0.30, 0.45, 0.25, 0.0), k, "rrf"),
        ("rrf default w, k=60", "ctx_rrf", w, 60, "rrf"),
        ("rrf default w, k=20", "ctx_rrf", w, 20, "rrf"),
        ("rrf default w, k=5", "ctx_rrf", w, 5, "rrf"),
        ("fts only, ts_rank_cd norm 1", "bench_rrf_norm1", fts_only, k, "rrf"),
        (f"hybrid default w, k={k}, ts_rank_cd norm 1", "bench_rrf_norm1", w, k, "rrf"),
    ]
    for sw in ((0.5, 0.5, 0.0, 0.0), (0.5, 0.3, 0.2, 0.0), (0.4, 0.3, 0.2, 0.1)):
        label = "/".join(f"{x:g}" for x in sw)
        out.append((f"min-max score sum w={label}", "ctx_rrf", weights_of(*sw), k, "sum"))
    return out


def run_variants(
    app: App,
    convs: list[Conversation],
    by_id: dict[str, str],
    vectors: dict[str, str],
) -> dict[str, dict[str, Any]]:
    with app.connection() as conn:
        gen = active_generation(conn)
    assert gen is not None
    install_rrf_copy(app, "bench_rrf_norm1", 1)
    results: dict[str, dict[str, Any]] = {}
    for name, fn, w, k, kind in variants(app):
        hits: list[tuple[int, int | None]] = []
        for conv in convs:
            for q in conv.questions:
                with app.connection() as conn:
                    rows = call_rrf(
                        conn,
                        app,
                        fn,
                        q.text,
                        vectors.get(q.text),
                        gen,
                        [conv.scope],
                        w,
                        k,
                        200 if kind == "rrf" else 1000,
                    )
                order = score_fusion(rows, w) if kind == "sum" else [r.block_id for r in rows]
                ranked = [by_id.get(block_id, "") for block_id in order]
                hits.append((q.category, first_hit(ranked, q.evidence)))
        results[name] = summarise(hits)
        o = results[name]["overall"]
        progress(f"variant {name}: R@10 {o['r@10']} MRR {o['mrr']}")
    return results
