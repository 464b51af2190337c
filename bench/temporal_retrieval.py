"""Temporal retrieval: are questions that name a time answered by the blocks of that time?

    .venv/bin/python bench/temporal_retrieval.py --show
    CTX_QUERY_WEIGHT_DATES=0.2 .venv/bin/python bench/temporal_retrieval.py --json

Stores the dated notes of ``temporal_retrieval_data.py`` (a small team's work, English and German,
several notes per topic at different dates) in one scope of a private embedded PostgreSQL, runs
the embedding and temporal jobs, then asks every question through the whole query path
(``retrieval.query``, as ``/api/query`` answers) with "today" pinned to 2026-03-18 and limit 10. A
question is a hit at k when any of its expected notes is among the first k sources.

Targets: top-1 >= 0.90 on the questions that name a time (every kind but ``control``), and no
control lost (all controls at top-1). Settings come from the caller's ``CTX_*`` variables (for
example ``CTX_QUERY_WEIGHT_DATES``, ``CTX_QUERY_GRAVITY_BOOST``), which the report lists.
With ``--json`` the last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from typing import Any

from _common import bench_app, bench_environ, ctx_env_summary, principal, progress, table
from temporal_retrieval_data import KINDS, NOTES, QUESTIONS, TODAY, check, expected

from ctx.core import App, QueryRequest, StoreRequest, retrieval, store_block
from ctx.core.embed import active_generation
from ctx.core.runtime import drain

SCOPE = "temporal-bench"
TOP1_TARGET = 0.90
TIMED = "names a time"  # every kind but control


def index(app: App) -> tuple[dict[str, str], dict[str, float]]:
    """Store the notes, run the embedding and temporal jobs; return (block id -> key, seconds)."""
    who = principal(SCOPE)
    by_id: dict[str, str] = {}
    started = time.perf_counter()
    for note in NOTES:
        res = store_block(
            app,
            who,
            StoreRequest(
                title=note["title"],
                content=note["content"],
                category="notes",
                occurred_at=note["occurred_at"],
            ),
        )
        by_id[res["id"]] = note["key"]
    stored = time.perf_counter()
    drain(app, "embed")
    embedded = time.perf_counter()
    drain(app, "temporal")
    with app.connection() as conn:
        conn.execute("ANALYZE context_blocks")
    done = time.perf_counter()
    return by_id, {
        "store_s": round(stored - started, 2),
        "embed_s": round(embedded - stored, 2),
        "temporal_s": round(done - embedded, 2),
    }


def ask(app: App, by_id: dict[str, str]) -> list[dict[str, Any]]:
    """Every question through ``retrieval.query``; one result row per question."""
    who = principal(SCOPE)
    rows = []
    for q in QUESTIONS:
        t0 = time.perf_counter()
        res = retrieval.query(app, who, QueryRequest(query=q["q"], now=TODAY, limit=10))
        ms = (time.perf_counter() - t0) * 1000
        ranked = [by_id.get(s["id"], "?") for s in res["sources"]]
        titles = [s["title"] for s in res["sources"]]
        want = expected(q)
        rank = next((i + 1 for i, k in enumerate(ranked) if k in want), None)
        t = res["temporal"]
        rows.append(
            {
                "q": q["q"],
                "kind": q["kind"],
                "expect": sorted(want),
                "rank": rank,
                "top3": ranked[:3],
                "top3_titles": titles[:3],
                "confidence": res["confidence"],
                "time_matched": bool(t.get("matched")),
                "ms": round(ms, 1),
            }
        )
    return rows


def rates(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    top1 = sum(1 for r in rows if r["rank"] == 1)
    top3 = sum(1 for r in rows if r["rank"] is not None and r["rank"] <= 3)
    return {
        "n": n,
        "top1": round(top1 / n, 3) if n else None,
        "top3": round(top3 / n, 3) if n else None,
        "top1_hits": top1,
        "top3_hits": top3,
    }


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    by_kind = {k: rates([r for r in rows if r["kind"] == k]) for k in KINDS}
    timed = rates([r for r in rows if r["kind"] != "control"])
    controls = by_kind["control"]
    return {
        "by_kind": by_kind,
        TIMED: timed,
        "control": controls,
        "targets": {
            f"{TIMED} top-1 >= {TOP1_TARGET}": bool(timed["n"] and timed["top1"] >= TOP1_TARGET),
            "no control lost": controls["top1_hits"] == controls["n"],
        },
        "confidence": dict(sorted(Counter(r["confidence"] for r in rows).items())),
        "confidence_by_group": {
            g: dict(sorted(Counter(r["confidence"] for r in rows if sel(r)).items()))
            for g, sel in (
                (TIMED, lambda r: r["kind"] != "control"),
                ("control", lambda r: r["kind"] == "control"),
            )
        },
        "time_not_resolved": [
            r["q"] for r in rows if r["kind"] != "control" and not r["time_matched"]
        ],
        "time_resolved_in_controls": [
            r["q"] for r in rows if r["kind"] == "control" and r["time_matched"]
        ],
        "misses_top1": [
            {"q": r["q"], "kind": r["kind"], "rank": r["rank"], "first": r["top3"][:1]}
            for r in rows
            if r["rank"] != 1
        ],
    }


def print_report(report: dict[str, Any], rows: list[dict[str, Any]], show: bool) -> None:
    s = report["summary"]
    emb = report["embedder"]
    ix = report["index"]
    print(
        f"Temporal retrieval: {report['notes']} notes, {report['questions']} questions, today "
        f"{report['today']}; embedder {emb['provider']} ({emb['model']}); {report['settings_env']}"
    )
    print(
        f"index: store {ix['store_s']} s, embed {ix['embed_s']} s, temporal {ix['temporal_s']} s; "
        f"queries {report['query_ms_mean']} ms mean; run {report['run_s']} s"
    )
    for half, h in report.get("halves", {}).items():
        print(
            f"{half} half: names a time top-1 {h[TIMED]['top1']} top-3 {h[TIMED]['top3']} "
            f"(n {h[TIMED]['n']}); controls {h['control']['top1_hits']}/{h['control']['n']}"
        )
    g = report["gravity"]
    print(f"weights {json.dumps(report['weights'])}; gravity {g['on']}, boost {g['boost']}\n")
    if show:
        for r in rows:
            mark = (
                "hit " if r["rank"] == 1 else ("top3" if r["rank"] and r["rank"] <= 3 else "MISS")
            )
            print(f"[{mark}] ({r['kind']}) {r['q']}  -> expect {', '.join(r['expect'])}")
            for i, (key, title) in enumerate(zip(r["top3"], r["top3_titles"], strict=True), 1):
                print(f"        {i}. {title} [{key}]")
        print()
    trows = []
    for k in KINDS:
        f = s["by_kind"][k]
        trows.append([k, f["n"], f["top1"], f["top3"], ""])
    t, c = s[TIMED], s["control"]
    trows.append([f"**{TIMED}**", t["n"], t["top1"], t["top3"], f"top-1 >= {TOP1_TARGET:.2f}"])
    trows.append(
        [
            "**control**",
            c["n"],
            f"{c['top1_hits']}/{c['n']}",
            f"{c['top3_hits']}/{c['n']}",
            f"{c['n']}/{c['n']} (no control lost)",
        ]
    )
    print(table(["kind", "n", "top-1", "top-3", "target"], trows))
    met = ", ".join(f"{name}: {'met' if ok else 'NOT met'}" for name, ok in s["targets"].items())
    print(f"\ntargets: {met}")
    print(f"confidence: {json.dumps(s['confidence_by_group'])}")
    if s["time_not_resolved"]:
        print(f"no time resolved (timed kinds): {s['time_not_resolved']}")
    if s["time_resolved_in_controls"]:
        print(f"a time resolved in controls: {s['time_resolved_in_controls']}")
    if s["misses_top1"]:
        print("\nnot at top-1:")
        for m in s["misses_top1"]:
            print(f"  ({m['kind']}) {m['q']}: rank {m['rank']}, first {m['first']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--embedder", choices=["e5", "minilm"], default="e5")
    ap.add_argument("--show", action="store_true", help="print each question's top-3 titles")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    check()
    started = time.perf_counter()
    env = bench_environ({"CTX_EMBED_PROVIDER": args.embedder})
    report: dict[str, Any] = {
        "notes": len(NOTES),
        "questions": len(QUESTIONS),
        "today": TODAY.isoformat(),
        "settings_env": ctx_env_summary(env),
        "match": "any expected note among the first k sources (retrieval.query, limit 10)",
    }
    with bench_app(None, env) as app:
        with app.connection() as conn:
            gen = active_generation(conn)
        if gen is None:
            raise SystemExit("no embedding generation (embedder unavailable?)")
        report["embedder"] = {"provider": gen["provider"], "model": gen["model"]}
        report["weights"] = retrieval.channel_weights(app)
        report["gravity"] = {
            "on": app.settings["query.temporal_gravity"],
            "boost": app.settings["query.gravity_boost"],
        }
        progress(f"storing {len(NOTES)} notes, embedding with {gen['provider']} ...")
        by_id, report["index"] = index(app)
        progress(f"asking {len(QUESTIONS)} questions ...")
        rows = ask(app, by_id)
    report["query_ms_mean"] = round(sum(r["ms"] for r in rows) / len(rows), 1)
    report["run_s"] = round(time.perf_counter() - started, 1)
    report["summary"] = summarise(rows)
    # tune on one half, confirm on the other: questions alternate between the halves
    report["halves"] = {
        half: {
            TIMED: rates([r for r in rows[start::2] if r["kind"] != "control"]),
            "control": rates([r for r in rows[start::2] if r["kind"] == "control"]),
        }
        for half, start in (("tune", 0), ("confirm", 1))
    }
    report["results"] = rows
    print_report(report, rows, args.show)
    if args.json:
        print(json.dumps(report, separators=(",", ":"), ensure_ascii=False))


if __name__ == "__main__":
    main()
