"""Dense channel recall and latency when the scopes a query reads hold a small share of the store.

Builds N blocks (short text, COPY straight into ``context_blocks``) in three scopes assigned at
random, independently of the vectors: ``dense-s1`` (1% of the blocks), ``dense-s10`` (9%) and
``dense-rest`` (90%). The scope sets measured are "1%" (s1), "10%" (s1 + s10) and "100%" (all
three). Vectors are clustered, not uniform: ``--clusters`` random unit centres, each block a
centre plus gaussian noise (``--spread``: the noise's expected norm relative to the centre) in a
random ``--latent``-dimensional subspace, plus a little noise in all dimensions (``--ambient``),
L2-normalised, generated in numpy and written with a binary COPY as ``halfvec`` (pgvector's
psycopg adapter) into the active generation, whose HNSW index is then built. Query vectors are
random blocks' vectors plus a little noise (``--query-spread``).

The truth per query and scope set is the exact top ``query.limit_dense`` by cosine distance, in
numpy, over the same half-precision vectors the database holds. Each configuration calls
``ctx_rrf`` with the dense channel only (weights dense 1, the others 0) and ``result_limit`` =
``query.limit_dense``, and is scored on rows returned (the full list is ``limit_dense``),
recall@limit_dense and recall@10 against the truth, and latency. Configurations:

* a defaults: the settings as they are (``CTX_QUERY_*`` variables apply);
* b iterative off, always HNSW (``dense_exact_max`` 0): pgvector before 0.8, no exact path;
* c always HNSW (``dense_exact_max`` 0), iterative ``relaxed_order``;
* d c with ``hnsw_ef_search`` 200;
* e c with ``hnsw_max_scan_tuples`` 50000;
* f c with iterative ``strict_order``;
* g, h: b and c with the planner kept off its own exact plan (``SET LOCAL enable_sort = off``):
  for a small scope PostgreSQL reads the scope's rows through the scope index and sorts them,
  whatever ``dense_exact_max`` says, so without this the 1% rows never walk the graph;
* x ctx_rrf's exact path at every size (``dense_exact_max`` 10^9; only with ``--configs``).

Configurations b-h set ``dense_exact_max`` to 0 so that the 1% scope shows the graph walk; for
10% and 100% (over 5,000 readable blocks at 100,000) the default walks the graph anyway. "exact"
is the reference: the same filtered statement ordered by an expression no index provides, outside
ctx_rrf. Calls are interleaved per query, in a new random order per query and scope set, so no
configuration always pays for the buffers the previous call evicted.

    .venv/bin/python bench/dense_scopes.py --blocks 100000 --queries 200
    .venv/bin/python bench/dense_scopes.py --home /tmp/dense-home --blocks 100000   # keep it
    .venv/bin/python bench/dense_scopes.py --home /tmp/dense-home --reuse --json    # measure again

With ``--json`` the last line printed is one JSON object with every number.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
import uuid
from collections.abc import Callable
from typing import Any

import numpy as np
from _common import (
    bench_app,
    bench_environ,
    copy_blocks,
    ctx_env_summary,
    progress,
    table,
    timing_ms,
    weights_of,
)
from numpy.typing import NDArray
from pgvector import HalfVector
from pgvector.psycopg import register_vector

from ctx.core import App
from ctx.core.embed import active_generation, vector_literal
from ctx.core.retrieval import candidates_from_rows, rrf_arguments, rrf_sql, term_stats

SCOPES = ("dense-s1", "dense-s10", "dense-rest")
SHARES = (0.01, 0.09)  # s1, s10; the rest is dense-rest
SCOPE_SETS: dict[str, list[str]] = {
    "1%": [SCOPES[0]],
    "10%": [SCOPES[0], SCOPES[1]],
    "100%": list(SCOPES),
}
CATEGORY = "dense"
Args = dict[str, Any]
FORCE_HNSW = "SET LOCAL enable_sort = off"


def _always_hnsw(a: Args) -> None:
    a["dense_exact_max"] = 0
    a["hnsw_iterative"] = "relaxed_order"


def _set(**changes: Any) -> Callable[[Args], None]:
    def apply(a: Args) -> None:
        _always_hnsw(a)
        a.update(changes)

    return apply


# name: (label, change to the ctx_rrf arguments, SET LOCAL statements run before the call)
CONFIGS: dict[str, tuple[str, Callable[[Args], None], tuple[str, ...]]] = {
    "a": ("defaults", lambda a: None, ()),
    "b": ("iterative off, always HNSW", _set(hnsw_iterative="off"), ()),
    "c": ("always HNSW, relaxed_order", _set(), ()),
    "d": ("c + ef_search 200", _set(hnsw_ef_search=200), ()),
    "e": ("c + max_scan_tuples 50000", _set(hnsw_max_tuples=50000), ()),
    "f": ("c + strict_order", _set(hnsw_iterative="strict_order"), ()),
    # The planner reads a small scope through its scope index and sorts (exact) whatever
    # dense_exact_max says; enable_sort off makes it walk the graph, as a larger store would.
    "g": ("b, planner forced onto HNSW", _set(hnsw_iterative="off"), (FORCE_HNSW,)),
    "h": ("c, planner forced onto HNSW", _set(), (FORCE_HNSW,)),
    "x": ("always exact (dense_exact_max 10^9)", lambda a: a.update(dense_exact_max=10**9), ()),
}


# -- data --------------------------------------------------------------------------------------


def clustered_vectors(
    rng: np.random.Generator,
    n: int,
    dims: int,
    clusters: int,
    spread: float,
    latent: int,
    ambient: float,
) -> NDArray[np.float32]:
    """``n`` unit vectors around ``clusters`` random unit centres, rounded to half precision.

    The clusters live in a random ``latent``-dimensional subspace (0: all ``dims``), as a
    model's embeddings use few directions: there, similarities fall off gradually beyond a
    cluster, where in all 384 dimensions every block outside it is at cosine ~0 (the 75th
    neighbour of a 1% scope would be noise). ``spread`` is the noise's expected norm relative
    to the unit centre; ``ambient`` adds noise of that norm in all ``dims``.
    """
    space = latent or dims
    centres = rng.standard_normal((clusters, space)).astype(np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    which = rng.integers(0, clusters, size=n)
    noise = rng.standard_normal((n, space)).astype(np.float32) * (spread / np.sqrt(space))
    vecs = centres[which] + noise
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    if latent:
        basis, _ = np.linalg.qr(rng.standard_normal((dims, latent)))
        vecs = vecs @ basis.T.astype(np.float32)
        vecs += rng.standard_normal((n, dims)).astype(np.float32) * (ambient / np.sqrt(dims))
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    return vecs.astype(np.float16).astype(np.float32)  # what halfvec stores


def bulk_load(
    app: App, gen: dict[str, Any], scopes: list[str], vecs: NDArray[np.float32]
) -> tuple[list[str], dict[str, float]]:
    """COPY the blocks and their vectors, build the HNSW index, ANALYZE, count the scopes."""
    t: dict[str, float] = {}
    ids = [uuid.uuid4() for _ in range(len(scopes))]
    index_name = f"context_block_embeddings_hnsw_{int(gen['id'])}"
    with app.db.connect_raw(autocommit=True) as conn:
        register_vector(conn)
        conn.execute(f"DROP INDEX IF EXISTS {index_name}")
        t0 = time.perf_counter()
        hashes = []
        with copy_blocks(conn) as copy:
            for i, (block_id, scope) in enumerate(zip(ids, scopes, strict=True)):
                content = f"Synthetic block number {i} for the dense scope benchmark."
                digest = hashlib.sha256(content.encode()).hexdigest()
                hashes.append(digest)
                copy.write_row(
                    (block_id, scope, CATEGORY, f"Block {i}", content, "knowledge", digest)
                )
        t["copy_blocks_s"] = time.perf_counter() - t0
        progress(f"COPY {len(ids)} blocks {t['copy_blocks_s']:.1f}s; vectors (binary COPY) ...")
        t0 = time.perf_counter()
        with (
            conn.cursor() as cur,
            cur.copy(
                "COPY context_block_embeddings (block_id, generation, content_hash, embedding, "
                "context) FROM STDIN WITH (FORMAT BINARY)"
            ) as copy,
        ):
            copy.set_types(["uuid", "int4", "text", "halfvec", "halfvec"])
            g = int(gen["id"])
            for block_id, digest, v in zip(ids, hashes, vecs, strict=True):
                hv = HalfVector(v)
                copy.write_row((block_id, g, digest, hv, hv))
        t["copy_vectors_s"] = time.perf_counter() - t0
        progress(f"vectors {t['copy_vectors_s']:.1f}s; HNSW index ...")
        t0 = time.perf_counter()
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("SELECT ctx_embedding_index(p_generation => %s)", (gen["id"],))
        t["hnsw_index_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        conn.execute("ANALYZE context_blocks")
        conn.execute("ANALYZE context_block_embeddings")
        for scope in SCOPES:
            term_stats.refresh_scope(conn, scope)  # fills context_scope_stats (readable blocks)
        t["analyze_and_counts_s"] = time.perf_counter() - t0
    progress(
        f"index {t['hnsw_index_s']:.1f}s, analyze + scope counts {t['analyze_and_counts_s']:.1f}s"
    )
    return [str(i) for i in ids], {k: round(v, 2) for k, v in t.items()}


def stored_corpus(
    app: App, gen: dict[str, Any]
) -> tuple[list[str], list[str], NDArray[np.float32]]:
    """The blocks, scopes and vectors already in the database (``--reuse``)."""
    with app.db.connect_raw(autocommit=True) as conn:
        register_vector(conn)
        rows = conn.execute(
            "SELECT b.id::text AS id, b.scope, e.context FROM context_blocks b "
            "JOIN context_block_embeddings e ON e.block_id = b.id AND e.generation = %s "
            "WHERE b.scope = ANY(%s) ORDER BY b.id",
            (gen["id"], list(SCOPES)),
        ).fetchall()
    vecs = np.stack([r["context"].to_numpy() for r in rows]).astype(np.float32)
    return [r["id"] for r in rows], [r["scope"] for r in rows], vecs


# -- truth -------------------------------------------------------------------------------------


def exact_truth(
    vecs: NDArray[np.float32], members: NDArray[np.int64], queries: NDArray[np.float32], k: int
) -> list[list[int]]:
    """Per query, the indexes (into ``vecs``) of the ``k`` nearest members by cosine distance."""
    sub = vecs[members]
    sub = sub / np.linalg.norm(sub, axis=1, keepdims=True)
    sims = queries @ sub.T  # queries are unit vectors
    k = min(k, len(members))
    out = []
    for row in sims:
        top = np.argpartition(-row, k - 1)[:k]
        top = top[np.argsort(-row[top], kind="stable")]
        out.append([int(members[j]) for j in top])
    return out


# -- measurement -------------------------------------------------------------------------------


def dense_call(app: App, args: Args, session: tuple[str, ...]) -> tuple[list[str], float]:
    with app.connection() as conn:
        for statement in session:
            conn.execute(statement)
        t0 = time.perf_counter()
        rows = conn.execute(rrf_sql(), args).fetchall()
        dt = time.perf_counter() - t0
    found = sorted(candidates_from_rows(rows), key=lambda c: c.ranks["dense"] or 10**9)
    return [c.block_id for c in found], dt


def exact_call(
    app: App, gen: dict[str, Any], scopes: list[str], vec: str, limit: int
) -> tuple[list[str], float]:
    g, d = int(gen["id"]), int(gen["dimensions"])
    with app.connection() as conn:
        t0 = time.perf_counter()
        rows = conn.execute(
            "SELECT e.block_id::text AS id FROM context_block_embeddings e "
            "JOIN context_blocks b ON b.id = e.block_id "
            f"WHERE e.generation = {g} AND b.scope = ANY(%s) "
            f"ORDER BY (e.context::halfvec({d}) <=> %s::halfvec({d})) + 0, e.block_id LIMIT %s",
            (scopes, vec, limit),
        ).fetchall()
        dt = time.perf_counter() - t0
    return [r["id"] for r in rows], dt


def measure(
    app: App,
    gen: dict[str, Any],
    ids: list[str],
    scopes: list[str],
    vecs: NDArray[np.float32],
    n_queries: int,
    warmup: int,
    configs: list[str],
    query_spread: float,
    rng: np.random.Generator,
) -> dict[str, Any]:
    limit = int(app.settings["query.limit_dense"])
    dims = int(gen["dimensions"])
    picks = rng.integers(0, len(ids), size=n_queries + warmup)
    q = vecs[picks] + rng.standard_normal((len(picks), dims)).astype(np.float32) * (
        query_spread / np.sqrt(dims)
    )
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    literals = [vector_literal(v) for v in q]
    # the database compares the half-precision cast of the literal
    q16 = np.array([np.array(s[1:-1].split(","), dtype=np.float32) for s in literals])
    q16 = q16.astype(np.float16).astype(np.float32)
    q16 /= np.linalg.norm(q16, axis=1, keepdims=True)

    scope_arr = np.array(scopes)
    t0 = time.perf_counter()
    truth: dict[str, list[list[str]]] = {}
    members_n: dict[str, int] = {}
    for name, chosen in SCOPE_SETS.items():
        members = np.flatnonzero(np.isin(scope_arr, chosen)).astype(np.int64)
        members_n[name] = len(members)
        truth[name] = [[ids[j] for j in t] for t in exact_truth(vecs, members, q16, limit)]
    progress(f"exact truth (numpy) {time.perf_counter() - t0:.1f}s; queries ...")

    kinds = [*configs, "exact"]
    base = {
        name: rrf_arguments(
            app,
            query="dense scope benchmark",
            scopes=chosen,
            weights=weights_of(1.0, 0.0, 0.0, 0.0),
            embedding="[0]",
            generation=gen,
            result_limit=limit,
        )
        for name, chosen in SCOPE_SETS.items()
    }
    times: dict[tuple[str, str], list[float]] = {(s, k): [] for s in SCOPE_SETS for k in kinds}
    rows_n: dict[tuple[str, str], list[int]] = {(s, k): [] for s in SCOPE_SETS for k in kinds}
    rec_k: dict[tuple[str, str], list[float]] = {(s, k): [] for s in SCOPE_SETS for k in kinds}
    rec_10: dict[tuple[str, str], list[float]] = {(s, k): [] for s in SCOPE_SETS for k in kinds}
    started = time.perf_counter()
    for i, lit in enumerate(literals):
        for sname, chosen in SCOPE_SETS.items():
            want = truth[sname][i]
            # a new order per query and scope set: the first call after another scope set's
            # (or the exact scan's) reads pay for the buffers, so no configuration always does
            for kind in [kinds[j] for j in rng.permutation(len(kinds))]:
                if kind == "exact":
                    got, dt = exact_call(app, gen, chosen, lit, limit)
                else:
                    _, change, session = CONFIGS[kind]
                    args = dict(base[sname], embedding=lit)
                    change(args)
                    got, dt = dense_call(app, args, session)
                if i < warmup:
                    continue
                key = (sname, kind)
                times[key].append(dt)
                rows_n[key].append(len(got))
                rec_k[key].append(len(set(got) & set(want)) / len(want))
                rec_10[key].append(len(set(got[:10]) & set(want[:10])) / 10)
        done = i + 1 - warmup
        if done > 0 and (done % 25 == 0 or done == n_queries):
            progress(f"  {done}/{n_queries} queries, {time.perf_counter() - started:.0f}s")

    results = []
    for sname in SCOPE_SETS:
        for kind in kinds:
            key = (sname, kind)
            n = rows_n[key]
            results.append(
                {
                    "scopes": sname,
                    "readable": members_n[sname],
                    "config": kind,
                    "label": "scan outside ctx_rrf (reference)"
                    if kind == "exact"
                    else CONFIGS[kind][0],
                    "mean_rows": round(float(np.mean(n)), 1),
                    "min_rows": int(np.min(n)),
                    "full_share": round(float(np.mean([x >= limit for x in n])), 3),
                    "recall_k": round(float(np.mean(rec_k[key])), 4),
                    "recall_10": round(float(np.mean(rec_10[key])), 4),
                    **{f"ms_{k}": v for k, v in timing_ms(times[key]).items()},
                }
            )
    return {"limit_dense": limit, "results": results}


# -- main --------------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--blocks", type=int, default=100000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=10, help="queries run first and not counted")
    ap.add_argument("--clusters", type=int, default=1000)
    ap.add_argument("--spread", type=float, default=0.6, help="block noise norm / centre norm")
    ap.add_argument("--latent", type=int, default=32, help="dimensions of the clusters (0: all)")
    ap.add_argument("--ambient", type=float, default=0.1, help="noise norm in all dimensions")
    ap.add_argument("--query-spread", type=float, default=0.3, help="query noise norm")
    ap.add_argument(
        "--configs", default="a,b,c,d,e,f,g,h", help=f"comma-separated of {','.join(CONFIGS)}"
    )
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--database-url", default=None, help="default: a temporary embedded cluster")
    ap.add_argument("--home", default=None, help="keep the embedded cluster in this folder")
    ap.add_argument("--reuse", action="store_true", help="measure the blocks already stored")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown:
        raise SystemExit(f"unknown configurations {unknown}; known: {', '.join(CONFIGS)}")

    env = bench_environ()
    rng = np.random.default_rng(args.seed)
    report: dict[str, Any] = {"settings_env": ctx_env_summary(env), "configs": configs}
    with bench_app(args.database_url, env, home=args.home) as app:
        with app.connection() as conn:
            gen = active_generation(conn)
            taken = conn.execute(
                "SELECT count(*) AS n FROM context_blocks WHERE scope = ANY(%s)", (list(SCOPES),)
            ).fetchone()
        if gen is None:
            raise SystemExit("no embedding generation")
        stored = int(taken["n"]) if taken else 0
        if stored and not args.reuse:
            raise SystemExit(
                "the dense-* scopes already hold blocks; use a fresh database or --reuse"
            )
        report["generation"] = {k: gen[k] for k in ("id", "provider", "model", "dimensions")}
        try:
            t0 = time.perf_counter()
            if stored:
                ids, scopes, vecs = stored_corpus(app, gen)
                report["load"] = {"reused": True}
            else:
                dims = int(gen["dimensions"])
                vecs = clustered_vectors(
                    rng, args.blocks, dims, args.clusters, args.spread, args.latent, args.ambient
                )
                share = rng.random(args.blocks)
                scopes = [
                    SCOPES[0] if x < SHARES[0] else SCOPES[1] if x < sum(SHARES) else SCOPES[2]
                    for x in share
                ]
                progress(f"generated {args.blocks} vectors in {time.perf_counter() - t0:.1f}s")
                ids, report["load"] = bulk_load(app, gen, scopes, vecs)
            report["load"]["total_s"] = round(time.perf_counter() - t0, 2)
            report["blocks"] = len(ids)
            report["scope_blocks"] = {s: scopes.count(s) for s in SCOPES}
            report["data"] = {
                "clusters": args.clusters,
                "spread": args.spread,
                "latent": args.latent,
                "ambient": args.ambient,
                "query_spread": args.query_spread,
            }
            report["queries"] = args.queries
            report.update(
                measure(
                    app,
                    gen,
                    ids,
                    scopes,
                    vecs,
                    args.queries,
                    args.warmup,
                    configs,
                    args.query_spread,
                    np.random.default_rng(args.seed + 1),
                )
            )
        finally:
            if args.database_url and not args.reuse:
                with app.connection() as conn:
                    conn.execute(
                        "DELETE FROM context_blocks WHERE scope = ANY(%s)", (list(SCOPES),)
                    )
    print_report(report)
    if args.json:
        print(json.dumps(report, separators=(",", ":")))


def print_report(r: dict[str, Any]) -> None:
    print(
        f"dense_scopes: {r['blocks']} blocks {r['scope_blocks']}, generation "
        f"{r['generation']['provider']} ({r['generation']['dimensions']} dims), data {r['data']}"
        f"{' (reused: the stored corpus)' if r['load'].get('reused') else ''}, "
        f"{r['queries']} queries, limit_dense {r['limit_dense']}; {r['settings_env']}; "
        f"load {r['load']}\n"
    )
    k = r["limit_dense"]
    rows = [
        [
            x["scopes"],
            x["readable"],
            f"{x['config']} {x['label']}",
            x["mean_rows"],
            x["min_rows"],
            x["full_share"],
            x["recall_k"],
            x["recall_10"],
            x["ms_p50"],
            x["ms_p95"],
        ]
        for x in r["results"]
    ]
    headers = ["scopes", "blocks", "config", "rows", "min rows", f"full {k}", f"recall@{k}"]
    print(table([*headers, "recall@10", "p50 ms", "p95 ms"], rows))


if __name__ == "__main__":
    main()
