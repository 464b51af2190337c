"""The printed report of ``locomo.py``: the modes' table, the tune/confirm split with the targets,
the confidence classes, the temporal stage, ``retrieval.query``'s view and the variants."""

from __future__ import annotations

import json
from typing import Any

from _common import table
from locomo_data import CATEGORIES

#: issue 37: LoCoMo dev through the product path
TARGETS = {"r@1": 0.50, "r@10": 0.85, "mrr": 0.60}
#: the name of the baseline run that is the state before issue 11
BEFORE = "before: own embeddings, fusion order"


def print_report(r: dict[str, Any]) -> None:
    ix = r["index"]
    print(
        f"LoCoMo retrieval: {r['data']} ({r['conversations']} conversations, {ix['blocks']} turns, "
        f"{r['questions']} questions of categories 1-4 scored, "
        f"{r['questions_without_valid_evidence']} skipped for lack of a valid evidence id); "
        f"embedder {r['embedder']['provider']} "
        f"({r['embedder']['model']}); titles {r['title']}; {r['settings_env']}"
    )
    print(
        f"indexing: {ix['blocks_per_s']} blocks/s overall (store {ix['store_blocks_per_s']}/s, "
        f"embed {ix['embed_blocks_per_s']}/s, {ix['total_s']} s); query embedding "
        f"{r['query_embedding_ms']['mean']} ms mean, {r['query_embedding_ms']['p95']} ms p95\n"
    )
    rows = []
    for mode, res in r["modes"].items():
        for key, fig in [("all", res["overall"]), *res["by_category"].items()]:
            label = key if key == "all" else f"{key} {CATEGORIES[int(key)]}"
            rows.append(
                [mode, label, fig["n"], fig["r@1"], fig["r@5"], fig["r@10"], fig["mrr"]]
                + ([res["query_ms"]["mean"], res["query_ms"]["p95"]] if key == "all" else ["", ""])
            )
    print(table(["mode", "category", "n", "R@1", "R@5", "R@10", "MRR", "ms mean", "ms p95"], rows))
    if _hybrid(r):
        print_targets(r)
    if "confidence" in r:
        print_confidence(r["confidence"])
    if "temporal" in r:
        t = r["temporal"]
        print(
            f"\ntemporal stage (hybrid; {t['questions_with_a_resolved_time']} questions resolved "
            "to a time; now = the conversation's last session):"
        )
        trows = []
        for key in ["all", *sorted(t["without"]["by_category"])]:
            label = key if key == "all" else f"{key} {CATEGORIES[int(key)]}"

            def fig(run: dict[str, Any], key: str = key) -> dict[str, Any]:
                return dict(run["overall"] if key == "all" else run["by_category"][key])

            base, dates, grav = (
                fig(t["without"]),
                fig(t["date_channel"]),
                fig(t["date_channel_and_gravity"]),
            )
            trows.append(
                [
                    label,
                    base["r@10"],
                    dates["r@10"],
                    grav["r@10"],
                    round(grav["r@10"] - base["r@10"], 3),
                    base["mrr"],
                    grav["mrr"],
                ]
            )
        print(
            table(
                [
                    "category",
                    "R@10 without",
                    "R@10 + dates",
                    "R@10 + dates + gravity",
                    "delta R@10",
                    "MRR without",
                    "MRR with",
                ],
                trows,
            )
        )
    if "api" in r:
        print(f"\nretrieval.query (hybrid, after thresholds): {json.dumps(r['api'])}")
    if "variants" in r:
        vrows = [
            [
                name,
                v["overall"]["r@1"],
                v["overall"]["r@5"],
                v["overall"]["r@10"],
                v["overall"]["mrr"],
            ]
            for name, v in r["variants"].items()
        ]
        print("\nvariants (benchmark-local):")
        print(table(["variant", "R@1", "R@5", "R@10", "MRR"], vrows))


# hybrid R@10 per category before issue 11 (docs/benchmarks.md); with --baseline the same run's
# "before" figures are the floor instead
CATEGORY_FLOOR = {"1": 0.739, "2": 0.859, "3": 0.545, "4": 0.756}


def _hybrid(r: dict[str, Any]) -> dict[str, Any] | None:
    """The hybrid mode's figures: through the product path when both paths ran."""
    modes = r["modes"]
    return modes.get("hybrid") or modes.get("hybrid (product)") or modes.get("hybrid (stages)")


def print_targets(r: dict[str, Any]) -> None:
    h = _hybrid(r)
    assert h is not None
    rows = []
    runs = [("hybrid", h), *r.get("baselines", {}).items()]
    for name, run in runs:
        for part in ("tune", "confirm"):
            if part not in run:
                continue
            o = run[part]["overall"]
            rows.append(
                [
                    name,
                    f"{part} ({', '.join(run[part]['conversations'])})",
                    o["n"],
                    o["r@1"],
                    o["r@10"],
                    o["mrr"],
                ]
            )
        o = run["overall"]
        rows.append([name, "all", o["n"], o["r@1"], o["r@10"], o["mrr"]])
    print("\nhybrid on the tuning and the confirming conversations:")
    print(table(["run", "conversations", "n", "R@1", "R@10", "MRR"], rows))
    o = h["overall"]
    verdict = []
    for key, target in TARGETS.items():
        verdict.append(
            f"{key.upper()} {o[key]} (target >= {target}: {'met' if o[key] >= target else 'missed'})"
        )
    before = r.get("baselines", {}).get(BEFORE)
    floors = (
        {c: fig["r@10"] for c, fig in before["by_category"].items()} if before else CATEGORY_FLOOR
    )
    lower = [
        f"{CATEGORIES[int(c)]} {h['by_category'][c]['r@10']} < {floor}"
        for c, floor in floors.items()
        if c in h["by_category"] and h["by_category"][c]["r@10"] < floor
    ]
    verdict.append(
        "no category lower than before: "
        + ("met" if not lower else "missed (" + "; ".join(lower) + ")")
    )
    print("targets: " + "; ".join(verdict))


def print_confidence(c: dict[str, Any]) -> None:
    rows = []
    for part, res in c.items():
        for kind, fig in res.items():
            ev, seed = fig["evidence"], fig["seed_score"]
            rows.append(
                [
                    part,
                    kind,
                    fig["n"],
                    ev.get("confident", 0),
                    ev.get("low_confidence", 0),
                    ev.get("no_relevant_blocks_found", 0),
                    seed.get("confident", 0),
                    fig["similarity_p10_50_90"],
                    fig["coverage_p10_50_90"],
                ]
            )
    print("\nconfidence (each question in its own conversation's scope, and in the next one's):")
    print(
        table(
            [
                "part",
                "questions",
                "n",
                "confident",
                "low",
                "nothing found",
                "seed: confident",
                "similarity p10/50/90",
                "coverage p10/50/90",
            ],
            rows,
        )
    )
    a, u = c["all"]["answerable"]["evidence"], c["all"]["unanswerable"]["evidence"]
    ok_a = a.get("confident", 0) >= 0.90
    ok_u = u.get("confident", 0) <= 0.20
    most = u.get("no_relevant_blocks_found", 0) > u.get("low_confidence", 0)
    print(
        f"targets: answerable confident {a.get('confident', 0)} (>= 0.90: {'met' if ok_a else 'missed'}); "
        f"unanswerable confident {u.get('confident', 0)} (<= 0.20: {'met' if ok_u else 'missed'}); "
        f"most of the rest nothing found: {'met' if most else 'missed'}"
    )
