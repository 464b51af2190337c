"""The governor's prepare() latency (``bench/governor.py --latency``): threads built in bulk,
then prepare timed against the desk's own fusion on the same data (issue 38's baseline)."""

from __future__ import annotations

import argparse
import time
import uuid
from typing import Any

import numpy as np
from _common import (
    FixedQueryEmbedder,
    bench_app,
    bench_environ,
    principal,
    progress,
    timing_ms,
    use_embedder,
)
from locomo_data import load
from synthetic import Corpus

from ctx.core import App
from ctx.core.embed import active_generation, vector_literal
from ctx.core.governor import PrepareRequest
from ctx.core.retrieval.fusion import channel_weights, fuse

TARGET_P95_MS = 25.0
TARGET_RATIO = 2.5  # prepare p95 against the dense-only fusion's p95 on the same data


class Texts:
    """Event and focus texts: LoCoMo's turns (each with two pseudo-words of the latency corpus
    appended, so repeats differ) and LoCoMo's questions, drawn at random."""

    def __init__(self, data: Any, seed: int = 7) -> None:
        convs = load(data)
        self.turns = [t.text for c in convs for t in c.turns]
        self.questions = [q.text for c in convs for q in c.questions]
        self.corpus = Corpus(seed=seed)
        self.rng = self.corpus.rng

    def event(self) -> str:
        turn = self.turns[int(self.rng.integers(len(self.turns)))]
        return turn + " " + " ".join(self.corpus.content_words(2))

    def question(self) -> str:
        return self.questions[int(self.rng.integers(len(self.questions)))]


def bulk_thread(
    app: App, scope: str, session: str, n: int, texts: Texts, gen: dict[str, Any]
) -> None:
    """A thread of ``n`` indexed and embedded events (records and random vectors), in bulk."""
    with app.connection() as conn:
        row = conn.execute(
            "INSERT INTO context_threads (scope, session_id, category, last_seq) "
            "VALUES (%s, %s, %s, %s) RETURNING id, category",
            (scope, session, f"thread/{session}", n),
        ).fetchone()
        assert row is not None
        tid, category = row["id"], row["category"]
        with (
            conn.cursor() as cur,
            cur.copy(
                "COPY context_thread_events (thread_id, seq, role, name, content, occurred_at, "
                "record_id, indexed_at, embedded_at) FROM STDIN"
            ) as copy,
        ):
            for seq in range(1, n + 1):
                copy.write_row(
                    (
                        tid,
                        seq,
                        "user" if seq % 2 else "assistant",
                        "Ann" if seq % 2 else "Bob",
                        texts.event(),
                        "2024-01-01T00:00:00Z",
                        str(uuid.uuid4()),
                        "now",
                        "now",
                    )
                )
        conn.execute(
            """
            INSERT INTO context_blocks (id, scope, category, title, content, block_type, metadata,
                                        content_hash, occurred_at)
            SELECT e.record_id, %s, %s, coalesce(e.name, e.role) || ' (#' || e.seq || ')',
                   e.content, 'event', jsonb_build_object('seq', e.seq, 'role', e.role,
                   'name', e.name, 'thread', %s::text), md5(e.content),
                   e.occurred_at + make_interval(mins => e.seq::int)
              FROM context_thread_events e WHERE e.thread_id = %s
            """,
            (scope, category, session, tid),
        )
        conn.execute(
            "INSERT INTO context_block_embeddings (block_id, generation, content_hash, embedding, "
            "context) SELECT b.id, %(g)s, b.content_hash, v.v, v.v FROM context_blocks b "
            "CROSS JOIN LATERAL (SELECT l2_normalize(ARRAY(SELECT random_normal() FROM "
            "generate_series(1, %(d)s) WHERE b.id IS NOT NULL)::vector)::halfvec AS v) v "
            "WHERE b.category = %(c)s AND b.scope = %(s)s",
            {"g": gen["id"], "d": gen["dimensions"], "c": category, "s": scope},
        )


def prepare_once(app: App, scope: str, session: str, text: str) -> float:
    """One ``prepare`` with the desk on (budget 4,000); its wall time in seconds."""
    t0 = time.perf_counter()
    app.governor.prepare(
        principal(scope),
        PrepareRequest.model_validate(
            {"thread": {"session_id": session}, "budget": 4000, "event": {"content": text}}
        ),
    )
    return time.perf_counter() - t0


def desk_fusion(
    app: App, scope: str, category: str, text: str, vector: str, gen: dict[str, Any], dense: bool
) -> float:
    """The fusion call the desk makes for ``text`` in its thread (scope, private category), with
    every channel or the dense channel alone; its wall time in seconds."""
    weights = channel_weights(app)
    if dense:
        weights = {name: (value if name == "dense" else 0.0) for name, value in weights.items()}
    t0 = time.perf_counter()
    fuse(
        app,
        query=text,
        embedding=vector,
        generation=gen,
        scopes=[scope],
        weights=weights,
        private_category=category,
    )
    return time.perf_counter() - t0


def build_threads(
    app: App, setups: list[tuple[str, str, list[tuple[str, int]]]], texts: Texts, gen: Any
) -> None:
    index = f"context_block_embeddings_hnsw_{int(gen['id'])}"
    with app.db.connect_raw(autocommit=True) as conn:
        conn.execute(f"DROP INDEX IF EXISTS {index}")
    for _, scope, threads in setups:
        t0 = time.perf_counter()
        for session, n in threads:
            bulk_thread(app, scope, session, n, texts, gen)
        progress(f"{scope}: {sum(n for _, n in threads)} events in {time.perf_counter() - t0:.1f}s")
    with app.db.connect_raw(autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("SELECT ctx_embedding_index(p_generation => %s)", (gen["id"],))
        conn.execute("ANALYZE")
    from ctx.core.retrieval import term_stats

    with app.db.connect_raw(autocommit=True) as conn:
        for _, scope, _ in setups:
            term_stats.refresh_scope(conn, scope)


def latency(args: argparse.Namespace) -> dict[str, Any]:
    """Per setup, interleaved query by query (so load on the machine hits every figure alike):
    prepare with the real query embedding, prepare with a stub embedder, and the desk's own
    fusion call on the same thread and text with every channel and with the dense channel
    alone (the baseline the target compares with)."""
    texts = Texts(args.data)
    out: dict[str, Any] = {}
    setups = [
        ("1,000 events", "one", [("t1k", 1000)]),
        ("100,000 events", "big", [("t100k", args.big)]),
        ("1,000 threads", "many", [(f"m{i}", 100) for i in range(args.threads)]),
    ]
    # No indexer threads: the timed prepares' own events stay unindexed (the ring holds them).
    environ = bench_environ({"CTX_GOVERNOR_INDEXERS": "0"})
    with bench_app(args.database_url, environ, home=args.home) as app:
        with app.connection() as conn:
            gen = active_generation(conn)
            built = conn.execute("SELECT count(*) AS n FROM context_threads").fetchone()
        assert gen is not None and built is not None
        if not (args.reuse and built["n"]):
            build_threads(app, setups, texts, gen)
        real = app.embedders.for_generation(gen)
        rng = np.random.default_rng(3)

        def stub_vec(_text: str) -> Any:
            v = rng.standard_normal(gen["dimensions"]).astype(np.float32)
            return v / np.linalg.norm(v)

        stub = FixedQueryEmbedder("stub", "stub", gen["dimensions"], {}, stub_vec)
        for label, scope, threads in setups:
            sessions = [s for s, _ in threads]
            with app.connection() as conn:
                categories = {
                    r["session_id"]: r["category"]
                    for r in conn.execute(
                        "SELECT session_id, category FROM context_threads WHERE scope = %s",
                        (scope,),
                    ).fetchall()
                }
            times: dict[str, list[float]] = {k: [] for k in FIGURES}
            for i in range(args.queries + args.warm):  # the first ones warm the caches up
                session = sessions[i % len(sessions)]
                text = texts.question()
                use_embedder(app, real)
                got = {"prepare": prepare_once(app, scope, session, text)}
                use_embedder(app, stub)
                got["prepare_stub"] = prepare_once(app, scope, session, texts.question())
                vector = vector_literal(stub_vec(text))
                cat = categories[session]
                got["fusion"] = desk_fusion(app, scope, cat, text, vector, gen, dense=False)
                got["dense_fusion"] = desk_fusion(app, scope, cat, text, vector, gen, dense=True)
                if i >= args.warm:
                    for k, v in got.items():
                        times[k].append(v)
            use_embedder(app, real)
            out[label] = {k: timing_ms(v) for k, v in times.items()}
            progress(f"{label}: {out[label]}")
    return out


#: what ``latency`` times, by key: what the report calls it
FIGURES = {
    "prepare": "prepare, with the query embedding",
    "prepare_stub": "prepare, stub query vector",
    "fusion": "the desk's fusion, every channel",
    "dense_fusion": "the desk's fusion, dense only",
}


def latency_report(result: dict[str, Any]) -> list[str]:
    """The table and the targets: prepare p95 <= 25 ms and <= 2.5x the dense-only fusion p95."""
    lines = [f"{'setup':16s} " + "  ".join(f"{k:>16s}" for k in FIGURES) + "   (p50/p95 ms)"]
    for label, v in result.items():
        cells = "  ".join(f"{v[k]['p50']:7.1f}/{v[k]['p95']:<8.1f}" for k in FIGURES)
        lines.append(f"{label:16s} {cells}")
    for label, v in result.items():
        dense = v["dense_fusion"]["p95"]
        for key in ("prepare", "prepare_stub"):
            p95 = v[key]["p95"]
            ok = p95 <= TARGET_P95_MS and p95 <= TARGET_RATIO * dense
            lines.append(
                f"{label}: {FIGURES[key]} p95 {p95:.1f} ms, {p95 / dense:.2f}x the dense-only "
                f"fusion ({dense:.1f} ms): {'met' if ok else 'MISSED'} "
                f"(<= {TARGET_P95_MS:.0f} ms and <= {TARGET_RATIO}x)"
            )
    return lines
