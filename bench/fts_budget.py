"""What bounding the full-text channels costs in recall, on LoCoMo questions inside large scopes.

LoCoMo's conversations hold 300-700 turns each, fewer than ``query.fts_budget``, so the LoCoMo
benchmark never exercises the bound. Here every conversation's scope also gets ``--distractors``
notes made of 2-6 turns of the *other* conversations (real English on the same everyday topics,
never the answer), written with COPY. Every question of categories 1-4 is then asked in its
conversation's scope through ``ctx_rrf`` with the full-text channels only (English and German,
the default weights; no model, no embeddings), once per budget, side by side:

* Recall@1/5/10 and MRR of the evidence turns (first three conversations tune, the others
  confirm, as in ``locomo.py``);
* latency p50/p95 of the call;
* how much of the unbounded top 10 the bounded top 10 keeps.

    .venv/bin/python bench/fts_budget.py --distractors 20000 --budgets 0,500,1000,2000

With ``--json`` the last line printed is one JSON object with every number.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
import uuid
from pathlib import Path
from typing import Any

from _common import (
    REPO_ROOT,
    bench_app,
    bench_environ,
    copy_blocks,
    progress,
    table,
    timing_ms,
    weights_of,
)
from locomo_data import first_hit, load, summarise, title_for

from ctx.core.retrieval import term_stats
from ctx.core.retrieval.fusion import rrf_arguments, rrf_sql

DEFAULT_DATA = REPO_ROOT.parent / "shared" / "eval" / "locomo-dev.json"
TUNE_CONVERSATIONS = 3


def build(app: Any, convs: list[Any], distractors: int, seed: int) -> dict[str, str]:
    """COPY every turn and the distractor notes; return block id -> dia_id of the turns."""
    rng = random.Random(seed)
    by_id: dict[str, str] = {}
    with app.db.connect_raw(autocommit=True) as conn:
        with copy_blocks(conn) as copy:
            for conv in convs:
                others = [f"{t.speaker}: {t.text}" for c in convs if c is not conv for t in c.turns]
                for turn in conv.turns:
                    bid = str(uuid.uuid4())
                    by_id[bid] = turn.dia_id
                    content = f"{turn.speaker}: {turn.text}"
                    digest = hashlib.sha256(content.encode()).hexdigest()
                    copy.write_row(
                        (
                            bid,
                            conv.scope,
                            "conversation",
                            title_for(turn, "speaker-date"),
                            content,
                            "knowledge",
                            digest,
                        )
                    )
                for i in range(distractors):
                    content = "\n".join(rng.sample(others, rng.randint(2, 6)))
                    digest = hashlib.sha256(content.encode()).hexdigest()
                    copy.write_row(
                        (
                            str(uuid.uuid4()),
                            conv.scope,
                            "notes",
                            f"Note {i}",
                            content,
                            "knowledge",
                            digest,
                        )
                    )
                progress(f"{conv.scope}: {len(conv.turns)} turns + {distractors} notes")
        conn.execute("ANALYZE context_blocks")
        for conv in convs:
            term_stats.refresh_scope(conn, conv.scope)  # what the scope_terms job does
    return by_id


def built(app: Any, convs: list[Any]) -> dict[str, str]:
    """The turns already stored by an earlier run (their titles end in the dia_id)."""
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT id, title FROM context_blocks WHERE category = 'conversation' "
            "AND scope = ANY(%s)",
            ([c.scope for c in convs],),
        ).fetchall()
        for conv in convs:  # the counts as this version of ctx keeps them
            term_stats.refresh_scope(conn, conv.scope)
    return {str(r["id"]): r["title"].rsplit("(", 1)[-1].rstrip(")") for r in rows}


def ask(app: Any, convs: list[Any], by_id: dict[str, str], budgets: list[int]) -> dict[str, Any]:
    weights = weights_of(
        0.0,
        float(app.settings["query.weight_fts_en"]),
        float(app.settings["query.weight_fts_de"]),
        0.0,
    )
    hits: dict[int, list[tuple[int, int | None]]] = {b: [] for b in budgets}
    times: dict[int, list[float]] = {b: [] for b in budgets}
    kept: dict[int, list[float]] = {b: [] for b in budgets}
    with app.connection() as conn:
        for conv in convs:
            for q in conv.questions:
                reference: list[str] | None = None
                for b in budgets:
                    args = rrf_arguments(app, query=q.text, scopes=[conv.scope], weights=weights)
                    args["fts_budget"] = b
                    t0 = time.perf_counter()
                    rows = conn.execute(rrf_sql(), args).fetchall()
                    times[b].append(time.perf_counter() - t0)
                    ids = [str(r["block_id"]) for r in rows]
                    hits[b].append(
                        (q.category, first_hit([by_id.get(i, "") for i in ids], q.evidence))
                    )
                    if reference is None:
                        reference = ids[:10]
                    if reference:
                        kept[b].append(len(set(reference) & set(ids[:10])) / len(reference))
    n_tune = sum(len(c.questions) for c in convs[:TUNE_CONVERSATIONS])
    out: dict[str, Any] = {}
    for b in budgets:
        out[str(b)] = {
            "all": summarise(hits[b])["overall"],
            "tune": summarise(hits[b][:n_tune])["overall"],
            "confirm": summarise(hits[b][n_tune:])["overall"] if hits[b][n_tune:] else None,
            "latency_ms": timing_ms(times[b]),
            "top10_kept": round(sum(kept[b]) / max(1, len(kept[b])), 3),
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--distractors", type=int, default=20000, help="notes added to each scope")
    ap.add_argument("--budgets", default="0,500,1000,2000", help="comma-separated; 0: unbounded")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--database-url", default=None, help="default: a temporary embedded cluster")
    ap.add_argument("--home", default=None, help="keep the embedded cluster in this folder")
    ap.add_argument(
        "--reuse", action="store_true", help="ask the corpus already in the database (--home)"
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    convs = load(args.data)
    report: dict[str, Any] = {"distractors_per_scope": args.distractors, "budgets": budgets}
    with bench_app(args.database_url, bench_environ(), home=args.home) as app:
        t0 = time.perf_counter()
        by_id = built(app, convs) if args.reuse else {}
        if not by_id:
            by_id = build(app, convs, args.distractors, args.seed)
        report["build_s"] = round(time.perf_counter() - t0, 1)
        report["questions"] = sum(len(c.questions) for c in convs)
        report["results"] = ask(app, convs, by_id, budgets)
    rows = []
    for b in budgets:
        r = report["results"][str(b)]
        conf = r["confirm"] or {}
        rows.append(
            [
                "unbounded" if b == 0 else str(b),
                r["all"]["r@1"],
                r["all"]["r@10"],
                r["all"]["mrr"],
                r["tune"]["r@10"],
                conf.get("r@10", "-"),
                r["latency_ms"]["p50"],
                r["latency_ms"]["p95"],
                r["top10_kept"],
            ]
        )
    print(
        f"full-text channels on LoCoMo, {report['questions']} questions, "
        f"{args.distractors} distractor notes per conversation scope (build {report['build_s']} s)"
    )
    print(
        table(
            [
                "budget",
                "R@1",
                "R@10",
                "MRR",
                "R@10 tune",
                "R@10 confirm",
                "p50 ms",
                "p95 ms",
                "top-10 kept",
            ],
            rows,
        )
    )
    if args.json:
        print(json.dumps(report, separators=(",", ":")))


if __name__ == "__main__":
    main()
