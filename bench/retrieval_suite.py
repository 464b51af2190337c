"""The retrieval suite: every set of ``suite_sets`` through the path users get, each channel alone
and the hybrid, under the current defaults and under candidate settings, with cross-validation
across the sets (issue 37).

    .venv/bin/python bench/retrieval_suite.py                      # every set, the defaults
    .venv/bin/python bench/retrieval_suite.py --candidates all --cv
    .venv/bin/python bench/retrieval_suite.py --sets technotes,pydocs --set query.rrf_k=30

Everything is stored as a user stores it (``store_block``; documentation through the ingest
plugin's ``ingest_document``), in a private embedded PostgreSQL; then the jobs a worker runs
(embedding, scope terms, content times) and ``ANALYZE``. Every question is asked through
``retrieval.run_pipeline`` with every stage, as ``/api/query`` runs it (limit 10, the set's "now"
where it has one), and scored on the sources returned: the hybrid with the settings of the run,
each channel alone (dense, full text, trigram) with only its weight. A candidate is a set of
``query.*`` settings applied per request (``ctx eval``'s overrides: validated by the settings'
declarations, nothing written); the channels alone are measured once, under the defaults.

Figures per set (and per half, and per group where a set has groups): R@1, R@3, R@10, MRR. The
checks, per set: the hybrid at least the best single channel at R@1 and at R@10; cross-language
hit@3 at least 0.90 of its same-language control; LoCoMo R@1 >= 0.50 and R@10 >= 0.85.

``--cv``: for each set, the candidate that scores best on the *other* sets (mean over them of the
hybrid's (R@1 + R@10) / 2) is applied to it, and its figures are reported next to the defaults'
(leave one set out); and per set, the candidate best on the tuning half, confirmed on the other.
Query vectors are computed once per text and reused. ``--json`` prints one JSON object last.
"""

from __future__ import annotations

import argparse
import base64
import json
import time
from collections import defaultdict
from typing import Any

from _common import (
    SINGLE_CHANNELS,
    FixedQueryEmbedder,
    bench_app,
    bench_environ,
    ctx_env_summary,
    principal,
    progress,
    settle,
    table,
    use_embedder,
)
from suite_candidates import CANDIDATES
from suite_sets import SETS, Ask, RetrievalSet, check, describe

from ctx.core import App, QueryRequest, StoreRequest, retrieval, store_block
from ctx.core.embed import active_generation
from ctx.core.retrieval.overrides import checked_overrides, with_settings
from ctx.core.runtime import drain
from ctx.plugins.ingest.doc_service import ingest_document
from ctx.plugins.ingest.schemas import DocumentRequest

LIMIT = 10
KS = (1, 3, 10)
MODES: dict[str, dict[str, float] | None] = {"hybrid": None, **SINGLE_CHANNELS}
RATIO_TARGET = 0.90
LOCOMO_TARGETS = {"r@1": 0.50, "r@10": 0.85}

# -- storing -----------------------------------------------------------------------------------


def index(app: App, sets: list[RetrievalSet]) -> tuple[dict[str, str], dict[str, float]]:
    """Store every set's items; return (block id -> item key, seconds)."""
    by_id: dict[str, str] = {}
    started = time.perf_counter()
    for s in sets:
        for item in s.items:
            who = principal(item.scope)
            if item.document:
                res = ingest_document(
                    app,
                    who,
                    DocumentRequest(
                        filename=f"{item.key}.txt",
                        content_base64=base64.b64encode(item.content.encode()).decode(),
                        mime="text/plain",
                        category=item.category,
                    ),
                )
                by_id.update({b["id"]: item.key for b in res["blocks"]})
                continue
            res = store_block(
                app,
                who,
                StoreRequest(
                    title=item.title,
                    content=item.content,
                    category=item.category,
                    tags=item.tags,
                    occurred_at=item.occurred_at,
                ),
            )
            by_id[str(res["id"])] = item.key
    stored = time.perf_counter()
    progress(f"stored {len(by_id)} blocks in {stored - started:.0f} s; embedding ...")
    drain(app, "embed")
    embedded = time.perf_counter()
    settle(app)
    return by_id, {
        "blocks": len(by_id),
        "store_s": round(stored - started, 1),
        "embed_s": round(embedded - stored, 1),
        "jobs_s": round(time.perf_counter() - embedded, 1),
    }


# -- asking ------------------------------------------------------------------------------------


def rank_of(
    app: App, ask: Ask, by_id: dict[str, str], weights: dict[str, float] | None
) -> int | None:
    """The rank of the first answer among the sources the whole query path returns."""
    request = QueryRequest(query=ask.text, scopes=[ask.scope], limit=LIMIT, now=ask.now)
    run, _ = retrieval.run_pipeline(app, principal(ask.scope), request, weights=weights)
    for i, source in enumerate(run.sources, start=1):
        if by_id.get(source["id"]) in ask.answers:
            return i
    return None


def ask_set(
    app: App, s: RetrievalSet, by_id: dict[str, str], weights: dict[str, float] | None
) -> list[int | None]:
    return [rank_of(app, a, by_id, weights) for a in s.asks]


# -- figures -----------------------------------------------------------------------------------


def figures(ranks: list[int | None]) -> dict[str, float | int]:
    n = len(ranks)
    out: dict[str, float | int] = {"n": n}
    for k in KS:
        out[f"r@{k}"] = round(sum(1 for r in ranks if r is not None and r <= k) / n, 3) if n else 0
    out["mrr"] = round(sum(1.0 / r for r in ranks if r is not None) / n, 3) if n else 0
    return out


def parts(s: RetrievalSet, ranks: list[int | None]) -> dict[str, Any]:
    """Figures overall, per half and per group."""
    out: dict[str, Any] = {"all": figures(ranks)}
    by: dict[str, list[int | None]] = defaultdict(list)
    for a, r in zip(s.asks, ranks, strict=True):
        by[a.half].append(r)
        if a.group != "all":
            by[a.group].append(r)
    out.update({k: figures(v) for k, v in sorted(by.items())})
    return out


def below_best(s: RetrievalSet, ranks: dict[str, list[int | None]]) -> list[dict[str, Any]]:
    """The questions the hybrid ranks lower than some channel alone (not returned: below all)."""
    out = []
    for i, a in enumerate(s.asks):
        h = ranks["hybrid"][i]
        best = min((r for m, rs in ranks.items() if m != "hybrid" and (r := rs[i])), default=None)
        if best is not None and (h is None or h > best):
            out.append(
                {
                    "text": a.text,
                    "group": a.group,
                    "style": a.style,
                    **{m: rs[i] for m, rs in ranks.items()},
                }
            )
    return out


def objective(fig: dict[str, Any]) -> float:
    return (float(fig["r@1"]) + float(fig["r@10"])) / 2


def checks(s: RetrievalSet, modes: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The set's targets for the hybrid of ``modes`` (figures per mode, as ``parts``)."""
    h = modes["hybrid"]["all"]
    out: dict[str, Any] = {}
    for k in ("r@1", "r@10"):
        best_name = max(SINGLE_CHANNELS, key=lambda m: modes[m]["all"][k])
        best = modes[best_name]["all"][k]
        out[f"hybrid {k} >= best channel ({best_name} {best})"] = h[k] >= best
    for name, (cross, control) in s.ratios.items():
        c, k3 = modes["hybrid"][cross]["r@3"], modes["hybrid"][control]["r@3"]
        ratio = round(c / k3, 3) if k3 else 0.0
        out[f"{name}: hit@3 {c} / {k3} = {ratio} >= {RATIO_TARGET}"] = ratio >= RATIO_TARGET
    if s.name == "locomo":
        for k, target in LOCOMO_TARGETS.items():
            out[f"LoCoMo {k} {h[k]} >= {target}"] = h[k] >= target
    return out


# -- cross-validation --------------------------------------------------------------------------


def cross_validate(results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """``results[set][candidate]``: the hybrid's parts. Leave one set out, and tune -> confirm."""
    names = list(results)
    candidates = list(next(iter(results.values())))
    loso: dict[str, Any] = {}
    for held in names:
        others = [n for n in names if n != held]
        if not others:
            break
        chosen = max(
            candidates,
            key=lambda c: sum(objective(results[n][c]["all"]) for n in others) / len(others),
        )
        loso[held] = {
            "chosen": chosen,
            "default": results[held]["default"]["all"],
            "with_chosen": results[held][chosen]["all"],
        }
    halves: dict[str, Any] = {}
    for n in names:
        if "tune" not in results[n]["default"] or "confirm" not in results[n]["default"]:
            continue
        chosen = max(candidates, key=lambda c: objective(results[n][c]["tune"]))
        halves[n] = {
            "chosen": chosen,
            "default_confirm": results[n]["default"].get("confirm"),
            "chosen_confirm": results[n][chosen].get("confirm"),
        }
    overall = {
        c: round(sum(objective(results[n][c]["all"]) for n in names) / len(names), 4)
        for c in candidates
    }
    return {"leave_one_set_out": loso, "tune_to_confirm": halves, "mean_objective": overall}


# -- report ------------------------------------------------------------------------------------


def print_set(name: str, res: dict[str, Any], show: bool) -> None:
    print(
        f"\n{name} ({res['about']['kind']}; {res['about']['items']} items, "
        f"{res['about']['questions']} questions)"
    )
    rows = []
    for mode, p in res["modes"].items():
        for part, f in p.items():
            rows.append([mode, part, f["n"], f["r@1"], f["r@3"], f["r@10"], f["mrr"]])
    for cand, p in res.get("candidates", {}).items():
        f = p["all"]
        rows.append([f"hybrid [{cand}]", "all", f["n"], f["r@1"], f["r@3"], f["r@10"], f["mrr"]])
    print(table(["mode", "part", "n", "R@1", "R@3", "R@10", "MRR"], rows))
    for label, ok in res["checks"].items():
        print(f"  {'met   ' if ok else 'MISSED'} {label}")
    if show:
        print(f"  questions the hybrid ranks below a channel alone ({len(res['below'])}):")
        for b in res["below"]:
            ranks = " ".join(f"{m} {b[m] or '-'}" for m in MODES)
            print(f"    [{b['group']} {b['style']}] {ranks}: {b['text']}")


def print_cv(cv: dict[str, Any]) -> None:
    print("\ncross-validation, leave one set out (candidate best on the other sets):")
    rows = []
    for n, r in cv["leave_one_set_out"].items():
        d, c = r["default"], r["with_chosen"]
        rows.append([n, r["chosen"], d["r@1"], c["r@1"], d["r@10"], c["r@10"], d["mrr"], c["mrr"]])
    print(
        table(
            [
                "held out",
                "chosen",
                "R@1 dflt",
                "R@1 cand",
                "R@10 dflt",
                "R@10 cand",
                "MRR dflt",
                "MRR cand",
            ],
            rows,
        )
    )
    print("\ntune half -> confirm half (candidate best on the set's tuning half):")
    rows = []
    for n, r in cv["tune_to_confirm"].items():
        d, c = r["default_confirm"], r["chosen_confirm"]
        rows.append([n, r["chosen"], d["r@1"], c["r@1"], d["r@10"], c["r@10"]])
    print(table(["set", "chosen", "R@1 dflt", "R@1 cand", "R@10 dflt", "R@10 cand"], rows))
    print("\nmean over the sets of (R@1 + R@10) / 2 per candidate:")
    for c, v in sorted(cv["mean_objective"].items(), key=lambda kv: -kv[1]):
        print(f"  {v:.4f}  {c}")


# -- main --------------------------------------------------------------------------------------


def parse_set_flags(values: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for v in values:
        key, sep, raw = v.partition("=")
        if not sep:
            raise SystemExit(f"--set {v!r}: expected query.NAME=VALUE")
        out[key.strip()] = raw.strip()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sets", default=",".join(SETS), help=f"comma-separated of {', '.join(SETS)}")
    ap.add_argument("--embedder", choices=["e5", "minilm"], default=None)
    ap.add_argument("--set", action="append", default=[], help="query.NAME=VALUE for the run")
    ap.add_argument(
        "--candidates",
        default="",
        help=f"'all' or comma-separated names of suite_candidates ({', '.join(CANDIDATES)})",
    )
    ap.add_argument("--cv", action="store_true", help="cross-validate the candidates")
    ap.add_argument("--max-questions", type=int, default=0, help="per set, 0: all (smoke runs)")
    ap.add_argument("--database-url", default=None)
    ap.add_argument("--show", action="store_true", help="list the questions below a channel")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    names = [n for n in args.sets.split(",") if n]
    unknown = [n for n in names if n not in SETS]
    if unknown:
        raise SystemExit(f"--sets: unknown {unknown}; known: {', '.join(SETS)}")
    cand_names = (
        list(CANDIDATES)
        if args.candidates == "all"
        else [c for c in args.candidates.split(",") if c]
    )
    if any(c not in CANDIDATES for c in cand_names):
        raise SystemExit(f"--candidates: known are {', '.join(CANDIDATES)}")
    sets = [SETS[n]() for n in names]
    for s in sets:
        check(s)
        if args.max_questions:
            s.asks = s.asks[: args.max_questions]
    env = bench_environ({"CTX_EMBED_PROVIDER": args.embedder} if args.embedder else {})
    report: dict[str, Any] = {"settings_env": ctx_env_summary(env), "sets": {}}
    with bench_app(args.database_url, env) as base:
        with base.connection() as conn:
            gen = active_generation(conn)
        if gen is None:
            raise SystemExit("no embedding generation (embedder unavailable?)")
        report["embedder"] = {"provider": gen["provider"], "model": gen["model"]}
        run_values = checked_overrides(base, parse_set_flags(args.set))
        report["run_settings"] = {k: str(v) for k, v in run_values.items()}
        by_id, report["index"] = index(base, sets)
        real = base.embedders.for_generation(gen)
        qvecs = {a.text: real.embed_query(a.text) for s in sets for a in s.asks}
        use_embedder(
            base,
            FixedQueryEmbedder(
                real.name,
                real.model,
                real.dimensions,
                qvecs,
                fallback=real.embed_query,
                similarity_bands=getattr(real, "similarity_bands", None),
            ),
        )
        app = with_settings(base, run_values)
        cands = {c: checked_overrides(base, {**run_values, **CANDIDATES[c]}) for c in cand_names}
        cv_input: dict[str, dict[str, Any]] = {}
        for s in sets:
            t0 = time.perf_counter()
            ranks = {m: ask_set(app, s, by_id, w) for m, w in MODES.items()}
            modes = {m: parts(s, r) for m, r in ranks.items()}
            res: dict[str, Any] = {"about": describe(s), "modes": modes}
            res["below"] = below_best(s, ranks)
            res["checks"] = checks(s, modes)
            cv_input[s.name] = {"default": modes["hybrid"]}
            if cands:
                res["candidates"] = {}
                for c, values in cands.items():
                    p = parts(s, ask_set(with_settings(base, values), s, by_id, None))
                    res["candidates"][c] = p
                    cv_input[s.name][c] = p
            res["seconds"] = round(time.perf_counter() - t0, 1)
            report["sets"][s.name] = res
            h = modes["hybrid"]["all"]
            progress(f"{s.name}: hybrid R@1 {h['r@1']} R@10 {h['r@10']} ({res['seconds']} s)")
        if args.cv and cands:
            report["cv"] = cross_validate(cv_input)
    print(
        f"retrieval suite; embedder {report['embedder']['model']}; {report['settings_env']}; "
        f"run settings {report['run_settings'] or 'defaults'}; index {report['index']}"
    )
    for name, res in report["sets"].items():
        print_set(name, res, args.show)
    if "cv" in report:
        print_cv(report["cv"])
    if args.json:
        print(json.dumps(report, separators=(",", ":"), default=str))


if __name__ == "__main__":
    main()
