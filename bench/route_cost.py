"""What ``/api/query`` costs beyond its fusion (issue 34), for ``bench/latency.py``'s store.

Per query, interleaved: the query's embedding plus the ``ctx_rrf`` call alone on a held connection
(the floor), ``retrieval.query`` in process (every stage, sources only), and ``POST /api/query``
over HTTP with a key (keep-alive, ``synthesize: false``). Target: the route's p50 <= 1.5x the
floor's.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from _common import FixedQueryEmbedder, call_rrf, principal, table, timing_ms, use_embedder

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
from live import live_server

from ctx.core import App, QueryRequest, access, retrieval
from ctx.core.embed import vector_literal

SCOPE = "bench"
TARGET_ROUTE_RATIO = 1.5
KINDS = ("ctx_rrf + embedding", "retrieval.query", "/api/query")


def time_route(app: App, gen: dict[str, Any], corpus: Any, n: int) -> dict[str, Any]:
    """``/api/query`` (sources only) against its floor: the query's embedding and ``ctx_rrf``."""
    dims = int(gen["dimensions"])
    queries: list[str] = []
    vectors: dict[str, Any] = {}
    while len(queries) < n + 5:
        q = corpus.query()
        if q not in vectors:
            v = corpus.rng.standard_normal(dims).astype(np.float32)
            vectors[q] = v / np.linalg.norm(v)
            queries.append(q)
    embedder = FixedQueryEmbedder("fixed", "random", dims, vectors)
    use_embedder(app, embedder)
    who = principal(SCOPE)
    weights = retrieval.channel_weights(app)
    with app.connection() as conn:
        _, key = access.create_key(conn, name="bench-route", home_scope=SCOPE)
    kinds = KINDS
    times: dict[str, list[float]] = {k: [] for k in kinds}
    body = {"scopes": [SCOPE], "synthesize": False}
    with live_server(app) as url, httpx.Client(base_url=url, timeout=60) as client:
        headers = {"X-Context-Key": key}
        with app.connection() as conn:
            for i, q in enumerate(queries):
                t0 = time.perf_counter()
                vec = vector_literal(embedder.embed_query(q))
                call_rrf(conn, app, "ctx_rrf", q, vec, gen, [SCOPE], weights)
                t1 = time.perf_counter()
                retrieval.query(app, who, QueryRequest(query=q, scopes=[SCOPE], synthesize=False))
                t2 = time.perf_counter()
                answer = client.post("/api/query", json={"query": q, **body}, headers=headers)
                t3 = time.perf_counter()
                assert answer.status_code == 200, answer.text
                if i >= 5:  # the first queries warm caches and plans
                    for kind, dt in zip(kinds, (t1 - t0, t2 - t1, t3 - t2), strict=True):
                        times[kind].append(dt)
    out: dict[str, Any] = {k: timing_ms(v) for k, v in times.items()}
    out["ratio_p50_route_floor"] = round(
        out["/api/query"]["p50"] / out["ctx_rrf + embedding"]["p50"], 2
    )
    return out


def route_table(route: dict[str, Any]) -> str:
    rows = [[k, route[k]["n"], route[k]["p50"], route[k]["p95"], route[k]["mean"]] for k in KINDS]
    return table(["query path", "n", "p50 ms", "p95 ms", "mean ms"], rows)


def route_target(route: dict[str, Any], verdict: Callable[..., str]) -> list[str]:
    ratio = route["ratio_p50_route_floor"]
    return [
        "/api/query p50 / (ctx_rrf + embedding) p50",
        f"{ratio:.2f}x",
        f"<= {TARGET_ROUTE_RATIO}x",
        verdict(ratio <= TARGET_ROUTE_RATIO, ratio, TARGET_ROUTE_RATIO, "lower"),
    ]
