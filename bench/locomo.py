"""LoCoMo retrieval benchmark: Recall@1/5/10 and MRR of ctx's query path on conversation turns.

Each conversation becomes one scope, each turn one block (content ``"Speaker: text"``, the session
date as ``occurred_at``, the ``dia_id`` in metadata). Every question of categories 1-4 is asked in
its conversation's scope through the query stages up to ``rescore`` (the ranking ``/api/query``
trims; the temporal stage is measured separately with ``--temporal``) with the channel weights of
the chosen mode; a question counts as found at k when any of its evidence turns is among the
first k candidates. The first three conversations tuned the defaults, the other two confirm them;
both are reported, with the targets.

``--baseline`` adds, on the same index, hybrid without the context vectors, the neighbours stage
and the rescore stage (the state before them) and with each of them. ``--confidence`` asks every question also in the
next conversation's scope, where it has no answer, and reports the confidence classes.

    .venv/bin/python bench/locomo.py --mode all --embedder e5
    .venv/bin/python bench/locomo.py --data other.json --mode fts --json

Block titles (``--title``): ``speaker-date`` (default) is ``"Caroline, 8 May 2023 (D1:3)"``: who and
when, as a person scanning a source list wants it; the date in the title is indexed (FTS weight A,
embedded text) like the reference's "session date prepended" variant, and the dia_id keeps the
natural key (scope, category, title) unique. ``speaker`` drops the date, ``dia`` keeps only the id.

``--variants`` adds benchmark-local experiments on the same index (other weights, other ts_rank_cd
normalisations in a copy of ``ctx_rrf``, min-max score fusion of the channel scores); they reuse
the query vectors of the main modes. With ``--json`` the last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from _common import (
    REPO_ROOT,
    SINGLE_CHANNELS,
    FixedQueryEmbedder,
    bench_app,
    bench_environ,
    ctx_env_summary,
    principal,
    progress,
    settle,
    timing_ms,
    use_embedder,
)
from locomo_data import (
    TITLE_STYLES,
    Conversation,
    content_for,
    first_hit,
    load,
    summarise,
    title_for,
)
from locomo_graph import graph_view
from locomo_report import print_report
from locomo_variants import run_variants

from ctx.core import App, QueryRequest, StoreRequest, blocks, retrieval
from ctx.core.embed import active_generation, vector_literal
from ctx.core.embed.context import blend_of, refresh_sequence
from ctx.core.retrieval.confidence import classify, threshold_scale
from ctx.core.runtime import drain

DEFAULT_DATA = REPO_ROOT.parent / "shared" / "eval" / "locomo-dev.json"
FIXED_MODES: dict[str, dict[str, float] | None] = {
    "hybrid": None,  # the settings' weights
    **SINGLE_CHANNELS,
}

# -- indexing ----------------------------------------------------------------------------------


def index(
    app: App, convs: list[Conversation], title_style: str, captions: bool
) -> tuple[dict[str, str], dict]:
    """Store every turn and embed it; return (block id -> dia_id, timings)."""
    by_id: dict[str, str] = {}
    started = time.perf_counter()
    for conv in convs:
        who = principal(conv.scope)
        for turn in conv.turns:
            res = blocks.store_block(
                app,
                who,
                StoreRequest(
                    title=title_for(turn, title_style),
                    content=content_for(turn, captions),
                    category="conversation",
                    occurred_at=turn.when,
                    metadata={"dia_id": turn.dia_id, "session": turn.session},
                ),
            )
            by_id[res["id"]] = turn.dia_id
    stored = time.perf_counter()
    progress(f"stored {len(by_id)} blocks in {stored - started:.1f}s; embedding ...")
    drain(app, "embed")
    embedded = time.perf_counter()
    settle(app)
    n = len(by_id)
    timings = {
        "blocks": n,
        "store_s": round(stored - started, 2),
        "embed_s": round(embedded - stored, 2),
        "total_s": round(embedded - started, 2),
        "store_blocks_per_s": round(n / max(stored - started, 1e-9), 1),
        "embed_blocks_per_s": round(n / max(embedded - stored, 1e-9), 1),
        "blocks_per_s": round(n / max(embedded - started, 1e-9), 1),
    }
    return by_id, timings


# -- the main modes: the query stages up to the fusion, as /api/query ranks -----------------


PATHS = ("product", "stages")
LIMIT = 10  # what a caller of /api/query asks for; R@k is scored on the sources returned


def ask_all(
    app: App,
    convs: list[Conversation],
    by_id: dict[str, str],
    weights: dict[str, float] | None,
    skip: frozenset[str] = frozenset({"temporal"}),
    path: str = "stages",
) -> tuple[list[tuple[int, int | None]], list[float], list[float]]:
    """Every question in its conversation's scope. ``path`` ``product``: the whole query path of
    ``/api/query`` (every stage, ``limit`` 10, "now" the clock's, as a user asks), scored on the
    sources it returns; ``stages``: the stages up to ``rescore`` without ``skip`` (the ranking
    before thresholds and limit, the earlier instrument)."""
    hits: list[tuple[int, int | None]] = []
    times: list[float] = []
    best_scores: list[float] = []
    for conv in convs:
        who = principal(conv.scope)
        for q in conv.questions:
            t0 = time.perf_counter()
            if path == "product":
                request = QueryRequest(query=q.text, scopes=[conv.scope], limit=LIMIT)
                run, _ = retrieval.run_pipeline(app, who, request, weights=weights)
                ids = [s["id"] for s in run.sources]
                scores = [float(s.get("score") or 0.0) for s in run.sources]
            else:
                run, rows = retrieval.run_pipeline(
                    app,
                    who,
                    QueryRequest(query=q.text, scopes=[conv.scope]),
                    weights=weights,
                    skip=skip,
                    stop_after="rescore",
                )
                if run.warnings:
                    raise RuntimeError(f"query {q.text!r}: {run.warnings}")
                ids = [r.block_id for r in rows]
                scores = [r.score for r in rows]
            times.append(time.perf_counter() - t0)
            ranked = [by_id.get(i, "") for i in ids]
            hits.append((q.category, first_hit(ranked, q.evidence)))
            best_scores.append(scores[0] if scores else 0.0)
    return hits, times, best_scores


def ask_all_temporal(
    app: App, convs: list[Conversation], by_id: dict[str, str], *, gravity: bool
) -> tuple[list[tuple[int, int | None]], int]:
    """Hybrid ranking with the temporal stage of /api/query: the question's resolved dates feed
    the date channel and, with ``gravity``, linear and cyclic gravity re-rank the candidates.

    "Now" is the date of the conversation's last session: LoCoMo questions are asked after it.
    Returns the hits and how many questions resolved to a date.
    """
    hits: list[tuple[int, int | None]] = []
    matched = 0
    for conv in convs:
        who = principal(conv.scope)
        dates = [t.when for t in conv.turns if t.when is not None]
        now = max(dates).date() if dates else None
        for q in conv.questions:
            run, rows = retrieval.run_pipeline(
                app,
                who,
                QueryRequest(query=q.text, scopes=[conv.scope], now=now),
                skip=set() if gravity else {"gravity"},
                stop_after="gravity",
            )
            matched += int(run.temporal.matched)
            ranked = [by_id.get(r.block_id, "") for r in rows]
            hits.append((q.category, first_hit(ranked, q.evidence)))
    return hits, matched


def api_view(app: App, convs: list[Conversation], by_id: dict[str, str]) -> dict[str, Any]:
    """What ``retrieval.query`` (the whole query path of /api/query) returns: thresholds,
    confidence, limit."""
    labels: Counter[str] = Counter()
    found = {5: 0, 10: 0}
    returned: list[int] = []
    n = 0
    for conv in convs:
        who = principal(conv.scope)
        for q in conv.questions:
            n += 1
            for limit in (5, 10):
                res = retrieval.query(app, who, QueryRequest(query=q.text, limit=limit))
                ranked = [by_id.get(s["id"], "") for s in res["sources"]]
                if first_hit(ranked, q.evidence) is not None:
                    found[limit] += 1
                if limit == 10:
                    labels[res["confidence"]] += 1
                    returned.append(len(res["sources"]))
    return {
        "recall@5_limit5": round(found[5] / n, 3),
        "recall@10_limit10": round(found[10] / n, 3),
        "confidence": {k: round(v / n, 3) for k, v in sorted(labels.items())},
        "mean_sources_limit10": round(float(np.mean(returned)), 2),
    }


# (name, context vectors blended, stages skipped): the hybrid mode without this changes
BASELINES = (
    (
        "before: own embeddings, fusion order",
        False,
        frozenset({"temporal", "neighbours", "rescore"}),
    ),
    ("+ context vectors", True, frozenset({"temporal", "neighbours", "rescore"})),
    ("+ context vectors + neighbours", True, frozenset({"temporal", "rescore"})),
    ("+ context vectors + rescore", True, frozenset({"temporal", "neighbours"})),
    ("own embeddings + neighbours + rescore", False, frozenset({"temporal"})),
)
TUNE_CONVERSATIONS = 3  # the first three conversations tune, the rest confirm


def split(hits: list[tuple[int, int | None]], convs: list[Conversation]) -> dict[str, Any]:
    """The figures of the tuning conversations and of the confirming ones (a part without
    questions, as in a smoke run on fewer conversations, is left out)."""
    n_tune = sum(len(c.questions) for c in convs[:TUNE_CONVERSATIONS])
    names = [c.sample_id for c in convs]
    parts = {
        "tune": (names[:TUNE_CONVERSATIONS], hits[:n_tune]),
        "confirm": (names[TUNE_CONVERSATIONS:], hits[n_tune:]),
    }
    return {
        part: {"conversations": ids, **summarise(part_hits)}
        for part, (ids, part_hits) in parts.items()
        if part_hits
    }


def set_context_vectors(app: App, convs: list[Conversation], *, blended: bool) -> None:
    """Each block's own embedding as its context vector (the seed's dense channel), or the
    blend of ``embed.context_*`` (the default)."""
    with app.connection() as conn:
        gen = active_generation(conn)
        assert gen is not None
        scopes = [c.scope for c in convs]
        if not blended:
            conn.execute(
                "UPDATE context_block_embeddings e SET context = embedding FROM context_blocks b "
                "WHERE b.id = e.block_id AND e.generation = %s AND b.scope = ANY(%s)",
                (gen["id"], scopes),
            )
            return
        for scope in scopes:
            refresh_sequence(conn, blend_of(app), int(gen["id"]), scope, "conversation")


def confidence_view(app: App, convs: list[Conversation], by_id: dict[str, str]) -> dict[str, Any]:
    """Each question asked in its own conversation's scope (answerable) and in the next
    conversation's (unanswerable: other people, other events): the share of each class, with
    the evidence class (the default) and the seed's fused-score thresholds on the same runs."""
    scale = threshold_scale(int(app.settings["query.rrf_k"]))
    seed_confident = float(app.settings["query.confident_threshold"]) * scale
    seed_floor = float(app.settings["query.score_threshold"]) * scale
    out: dict[str, Any] = {}
    for label, conv_set in (
        ("tune", convs[:TUNE_CONVERSATIONS]),
        ("confirm", convs[TUNE_CONVERSATIONS:]),
        ("all", convs),
    ):
        if not any(c.questions for c in conv_set):
            continue
        res: dict[str, Any] = {}
        for kind in ("answerable", "unanswerable"):
            classes: Counter[str] = Counter()
            seed: Counter[str] = Counter()
            sims: list[float] = []
            covs: list[float] = []
            for conv in conv_set:
                i = convs.index(conv)
                scope = conv.scope if kind == "answerable" else convs[(i + 1) % len(convs)].scope
                who = principal(scope)
                for q in conv.questions:
                    run, _ = retrieval.run_pipeline(
                        app,
                        who,
                        QueryRequest(query=q.text, scopes=[scope]),
                        skip={"temporal"},
                        stop_after="thresholds",
                    )
                    classes[run.confidence] += 1
                    notes = next(t["notes"] for t in run.trace if t["name"] == "thresholds")
                    seed[classify(float(notes["best"]), seed_confident, seed_floor)] += 1
                    if notes.get("similarity") is not None:
                        sims.append(float(notes["similarity"]))
                    covs.append(float(notes.get("coverage") or 0.0))
            n = sum(classes.values())
            res[kind] = {
                "n": n,
                "evidence": {k: round(v / n, 3) for k, v in sorted(classes.items())},
                "seed_score": {k: round(v / n, 3) for k, v in sorted(seed.items())},
                "similarity_p10_50_90": [
                    round(float(np.percentile(sims, p)), 4) for p in (10, 50, 90)
                ]
                if sims
                else None,
                "coverage_p10_50_90": [
                    round(float(np.percentile(covs, p)), 3) for p in (10, 50, 90)
                ],
            }
        out[label] = res
    return out


# -- main --------------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--mode", choices=[*FIXED_MODES, "all"], default="hybrid")
    ap.add_argument("--embedder", choices=["e5", "minilm"], default=None)
    ap.add_argument(
        "--store",
        choices=["user", "bench"],
        default="user",
        help="user: titles 'Caroline D1:3' and each shared image's caption appended (as a user "
        "stores a chat); bench: titles with the session date, no captions (the earlier setup)",
    )
    ap.add_argument("--title", choices=TITLE_STYLES, default=None, help="overrides --store's")
    ap.add_argument(
        "--path",
        default="product",
        help="product (every stage of /api/query, limit 10), stages (up to rescore, the earlier "
        "instrument) or both, comma-separated",
    )
    ap.add_argument("--database-url", default=None, help="default: a temporary embedded cluster")
    ap.add_argument("--variants", action="store_true", help="also run the local experiments")
    ap.add_argument("--api", action="store_true", help="also score retrieval.query's output")
    ap.add_argument(
        "--temporal",
        action="store_true",
        help="also compare hybrid without and with the temporal stage (date channel, gravity)",
    )
    ap.add_argument(
        "--confidence",
        action="store_true",
        help="also ask every question in another conversation's scope and report the classes",
    )
    ap.add_argument(
        "--baseline",
        action="store_true",
        help="also run hybrid with each block's own embedding as its context vector (the seed)",
    )
    ap.add_argument(
        "--graph",
        default="",
        help="also compare without and with graph expansion over stand-in links: K:MINSIM "
        "(e.g. 3:0.9) or 'evidence' (bench/locomo_graph.py); several comma-separated",
    )
    ap.add_argument("--limit-conversations", type=int, default=0, help="0: all (smoke tests)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    paths = [p for p in args.path.split(",") if p]
    if not paths or any(p not in PATHS for p in paths):
        raise SystemExit(f"--path: one or more of {', '.join(PATHS)}")
    title = args.title or ("user" if args.store == "user" else "speaker-date")
    captions = args.store == "user"
    convs = load(args.data)
    if args.limit_conversations:
        convs = convs[: args.limit_conversations]
    n_questions = sum(len(c.questions) for c in convs)
    no_evidence = sum(c.skipped for c in convs)
    env = bench_environ({"CTX_EMBED_PROVIDER": args.embedder} if args.embedder else {})
    modes = list(FIXED_MODES) if args.mode == "all" else [args.mode]
    report: dict[str, Any] = {
        "data": str(args.data),
        "conversations": len(convs),
        "questions": n_questions,
        "questions_without_valid_evidence": no_evidence,
        "title": title,
        "captions": captions,
        "paths": paths,
        "settings_env": ctx_env_summary(env),
        "match": "any evidence turn in the top k",
    }
    with bench_app(args.database_url, env) as app:
        with app.connection() as conn:
            gen = active_generation(conn)
        if gen is None:
            raise SystemExit("no embedding generation (embedder unavailable?)")
        if args.embedder and gen["provider"] != args.embedder:
            raise SystemExit(
                f"the database's active generation uses {gen['provider']!r}, not "
                f"{args.embedder!r}; run without --database-url"
            )
        scopes = [c.scope for c in convs]
        with app.connection() as conn:
            taken = conn.execute(
                "SELECT count(*) AS n FROM context_blocks WHERE scope = ANY(%s)", (scopes,)
            ).fetchone()
        if taken and taken["n"]:
            raise SystemExit(f"scopes {scopes} already hold blocks; use a fresh database")
        report["embedder"] = {"provider": gen["provider"], "model": gen["model"]}
        report["weights_hybrid"] = retrieval.channel_weights(app)
        try:
            by_id, report["index"] = index(app, convs, title, captions)
            # Query vectors once per question (timed), then reused by every mode.
            real = app.embedders.for_generation(gen)
            real.embed_query("warm-up")
            qvecs: dict[str, Any] = {}
            embed_times: list[float] = []
            for conv in convs:
                for q in conv.questions:
                    if q.text not in qvecs:
                        t0 = time.perf_counter()
                        qvecs[q.text] = real.embed_query(q.text)
                        embed_times.append(time.perf_counter() - t0)
            report["query_embedding_ms"] = timing_ms(embed_times)
            use_embedder(
                app,
                FixedQueryEmbedder(
                    real.name,
                    real.model,
                    real.dimensions,
                    qvecs,
                    fallback=real.embed_query,
                    similarity_bands=getattr(real, "similarity_bands", None),
                ),
            )
            if args.baseline:
                report["baselines"] = {}
                for name, blended, skip in BASELINES:
                    set_context_vectors(app, convs, blended=blended)
                    base_hits = ask_all(app, convs, by_id, None, skip=skip)[0]
                    report["baselines"][name] = {**summarise(base_hits), **split(base_hits, convs)}
                    o = report["baselines"][name]["overall"]
                    progress(f"{name}: R@10 {o['r@10']} MRR {o['mrr']}")
                set_context_vectors(app, convs, blended=True)
            report["modes"] = {}
            for path in paths:
                for mode in modes:
                    w = FIXED_MODES[mode]
                    hits, times, best = ask_all(app, convs, by_id, w, path=path)
                    res = summarise(hits)
                    res["weights"] = w or retrieval.channel_weights(app)
                    res["query_ms"] = timing_ms(times)
                    res["best_score_median"] = round(float(np.median(best)), 5)
                    res.update(split(hits, convs))
                    name = mode if len(paths) == 1 else f"{mode} ({path})"
                    report["modes"][name] = res
                    o = res["overall"]
                    progress(
                        f"{name}: R@1 {o['r@1']} R@5 {o['r@5']} R@10 {o['r@10']} MRR {o['mrr']}"
                    )
            if args.temporal:
                without = summarise(ask_all(app, convs, by_id, None)[0])
                with_dates, matched = ask_all_temporal(app, convs, by_id, gravity=False)
                with_gravity, _ = ask_all_temporal(app, convs, by_id, gravity=True)
                report["temporal"] = {
                    "questions_with_a_resolved_time": matched,
                    "without": without,
                    "date_channel": summarise(with_dates),
                    "date_channel_and_gravity": summarise(with_gravity),
                }
                progress(f"temporal: {matched} questions resolved to a time")
            if args.graph:
                report["graph"] = []
                for spec in args.graph.split(","):
                    view = graph_view(app, convs, by_id, split, spec)
                    report["graph"].append(view)
                    for name, res in view.items():
                        if isinstance(res, dict):
                            progress(
                                f"graph {spec} ({view['links']} links) {name}: {res['overall']}"
                            )
            if args.api:
                report["api"] = api_view(app, convs, by_id)
            if args.confidence:
                report["confidence"] = confidence_view(app, convs, by_id)
            if args.variants:
                lit = {t: vector_literal(v) for t, v in qvecs.items()}
                report["variants"] = run_variants(app, convs, by_id, lit)
        finally:
            if args.database_url:
                with app.connection() as conn:
                    conn.execute("DELETE FROM context_blocks WHERE scope = ANY(%s)", (scopes,))
                    conn.execute("DROP FUNCTION IF EXISTS bench_rrf_norm1")
    print_report(report)
    if args.json:
        print(json.dumps(report, separators=(",", ":")))


if __name__ == "__main__":
    main()
