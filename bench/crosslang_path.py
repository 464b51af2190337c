"""Across languages through the product path: German questions over English notes and English
questions over German notes, without a translation backend (issue 36).

    .venv/bin/python bench/crosslang_path.py --half tune
    .venv/bin/python bench/crosslang_path.py --half all --json

Stores the notes of ``bench/data/crosslang_notes.json`` in a private embedded PostgreSQL as a user
would store them (``store_block``: title, content, category, tags): the English versions in one
scope, the German ones in another. After the embedding, scope-term and temporal jobs have run,
every question of the chosen half is asked four times, each in the scope of one language:

- ``de->en``: the German question over the English notes (cross), ``en->en`` its control;
- ``en->de``: the English question over the German notes (cross), ``de->de`` its control.

The hybrid is ``retrieval.query``, the function ``/api/query`` calls (every stage, limit 10); each
channel alone runs through the same stages with only that channel weighted (``SINGLE_CHANNELS`` of
``_common``, as ``locomo.py --mode all``, and the full-text pair split into its two channels). A
question is a hit at k when its note is among the first k sources returned, so what the
confidence class cuts (a low-confidence answer keeps two sources) counts as missed. The target:
for each direction, the hybrid's cross-language hit@3 at least 0.90 of its control's.

Both halves search the same store (all notes); a half chooses the questions. Query vectors are
computed once and reused by every run. The embedder is the app's default (``e5``) unless
``--embedder`` names another; the caller's ``CTX_*`` settings apply and are listed. With
``--json`` the last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from _common import (
    FTS_SPLIT,
    REPO_ROOT,
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

from ctx.core import App, QueryRequest, StoreRequest, retrieval, store_block
from ctx.core.embed import active_generation
from ctx.core.runtime import drain

DATA = REPO_ROOT / "bench" / "data" / "crosslang_notes.json"
LANGS = ("en", "de")
SCOPES = {"en": "crosslang-en", "de": "crosslang-de"}
LIMIT = 10
KS = (1, 3, 10)
TARGET = 0.90  # cross-language hit@3 / same-language hit@3, hybrid
MODES: dict[str, dict[str, float] | None] = {"hybrid": None, **SINGLE_CHANNELS, **FTS_SPLIT}
# (cross run, control run) per direction; a run is "<question language>-><notes language>"
DIRECTIONS = {
    "German questions over English notes": ("de->en", "en->en"),
    "English questions over German notes": ("en->de", "de->de"),
}
HALVES = ("tune", "holdout")
LOW_CLASSES = ("low_confidence", "no_relevant_blocks_found")

# -- data ---------------------------------------------------------------------------------------


def load(path: Path) -> list[dict[str, Any]]:
    """The notes, checked: both languages complete, halves named, titles unique per language."""
    notes: list[dict[str, Any]] = json.loads(path.read_text())["notes"]
    problems: list[str] = []
    for note in notes:
        nid = note.get("id", "?")
        if note.get("half") not in HALVES:
            problems.append(f"{nid}: half must be one of {HALVES}")
        for lang in LANGS:
            version = note.get(lang, {})
            for field in ("title", "content", "category"):
                if not version.get(field):
                    problems.append(f"{nid}: {lang}.{field} missing")
        if not note.get("questions") or any(
            not q.get(lang) for q in note["questions"] for lang in LANGS
        ):
            problems.append(f"{nid}: every question needs its English and German wording")
    for key in ["id"] + [f"{lang}.title" for lang in LANGS]:
        seen = Counter(_field(n, key) for n in notes)
        problems += [f"{key} {value!r} used twice" for value, c in seen.items() if c > 1]
    if problems:
        raise SystemExit(f"{path}: " + "; ".join(problems))
    return notes


def _field(note: dict[str, Any], key: str) -> Any:
    lang, _, name = key.rpartition(".")
    return note[lang][name] if lang else note[name]


def questions_of(notes: list[dict[str, Any]], halves: tuple[str, ...]) -> list[dict[str, Any]]:
    """One row per question of the chosen halves: its note, half, wording in each language."""
    return [
        {"note": n["id"], "half": n["half"], "via": q.get("via"), **{g: q[g] for g in LANGS}}
        for n in notes
        if n["half"] in halves
        for q in n["questions"]
    ]


# -- the store and the questions ----------------------------------------------------------------


def index(app: App, notes: list[dict[str, Any]]) -> tuple[dict[str, str], dict[str, float]]:
    """Store each note in its language's scope and run the jobs a worker would; return
    (block id -> note id, seconds)."""
    by_id: dict[str, str] = {}
    started = time.perf_counter()
    for lang in LANGS:
        who = principal(SCOPES[lang])
        for note in notes:
            v = note[lang]
            res = store_block(
                app,
                who,
                StoreRequest(
                    title=v["title"],
                    content=v["content"],
                    category=v["category"],
                    tags=note["tags"],
                ),
            )
            if res["action"] != "created":
                raise SystemExit(f"{note['id']} ({lang}) was not stored as a new block: {res}")
            by_id[res["id"]] = note["id"]
    stored = time.perf_counter()
    drain(app, "embed")
    embedded = time.perf_counter()
    settle(app)
    return by_id, {
        "blocks": len(by_id),
        "store_s": round(stored - started, 2),
        "embed_s": round(embedded - stored, 2),
        "jobs_s": round(time.perf_counter() - embedded, 2),
    }


def ask(
    app: App, text: str, notes_lang: str, weights: dict[str, float] | None
) -> tuple[list[dict[str, Any]], str, list[str]]:
    """For ``text`` in the scope of ``notes_lang``: the sources and confidence class (the hybrid
    through ``retrieval.query`` itself, a single channel through the same stages reweighted),
    and the block ids in the order the thresholds stage receives them (for the diagnosis: what
    the confidence class cut, and ranks below the limit)."""
    who = principal(SCOPES[notes_lang])
    request = QueryRequest(query=text, limit=LIMIT)
    _, ranking = retrieval.run_pipeline(app, who, request, weights=weights, stop_after="gravity")
    order = [c.block_id for c in ranking]
    if weights is None:
        res = retrieval.query(app, who, request)
        return res["sources"], res["confidence"], order
    run, _ = retrieval.run_pipeline(app, who, request, weights=weights)
    return run.sources, run.confidence, order


def run_all(
    app: App, questions: list[dict[str, Any]], by_id: dict[str, str]
) -> list[dict[str, Any]]:
    """Every question in every run and mode; one row per (question, run)."""
    rows = []
    runs = [run for pair in DIRECTIONS.values() for run in pair]
    for i, q in enumerate(questions, 1):
        for run in runs:
            q_lang, notes_lang = run.split("->")
            row: dict[str, Any] = {**q, "run": run, "text": q[q_lang], "modes": {}}
            for mode, weights in MODES.items():
                sources, confidence, order = ask(app, q[q_lang], notes_lang, weights)
                ranked = [by_id.get(s["id"], "?") for s in sources]
                ranking = [by_id.get(b, "?") for b in order]
                row["modes"][mode] = {
                    "rank": ranked.index(q["note"]) + 1 if q["note"] in ranked else None,
                    "ranking": ranking.index(q["note"]) + 1 if q["note"] in ranking else None,
                    "top1": sources[0]["title"] if sources else None,
                    "confidence": confidence,
                    "returned": len(sources),
                }
            rows.append(row)
        if i % 10 == 0:
            progress(f"  {i}/{len(questions)} questions")
    return rows


# -- figures ------------------------------------------------------------------------------------


def figures(ranks: list[int | None]) -> dict[str, Any]:
    n = len(ranks)
    out: dict[str, Any] = {"n": n}
    for k in KS:
        out[f"hits@{k}"] = sum(1 for r in ranks if r is not None and r <= k)
        out[f"hit@{k}"] = round(out[f"hits@{k}"] / n, 3)
    out["mrr"] = round(sum(1.0 / r for r in ranks if r is not None) / n, 3)
    return out


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per run and mode: hit@k and MRR; the hybrid's confidence classes, confident misses and the
    questions named by a tag word; per direction and mode the ratio cross/control hit@3."""
    runs: dict[str, Any] = {}
    for run in sorted({r["run"] for r in rows}):
        mine = [r for r in rows if r["run"] == run]
        res: dict[str, Any] = {m: figures([r["modes"][m]["rank"] for r in mine]) for m in MODES}
        res["ranking"] = {m: figures([r["modes"][m]["ranking"] for r in mine]) for m in MODES}
        hybrid = [r["modes"]["hybrid"] for r in mine]
        res["hybrid_confidence"] = dict(sorted(Counter(h["confidence"] for h in hybrid).items()))
        res["hybrid_confident_but_wrong_top1"] = sum(
            1 for h in hybrid if h["confidence"] == "confident" and h["rank"] != 1
        )
        res["cut_by_confidence"] = {
            m: sum(1 for r in mine if r["modes"][m]["confidence"] in LOW_CLASSES) for m in MODES
        }
        tagged = [r["modes"]["hybrid"]["rank"] for r in mine if r["via"] == "tags"]
        res["hybrid_tag_word_questions"] = figures(tagged) if tagged else None
        runs[run] = res
    ratios: dict[str, Any] = {}
    ranking_ratios: dict[str, Any] = {}
    for name, (cross, control) in DIRECTIONS.items():
        c, k = runs[cross], runs[control]
        ratios[name] = {m: _ratio(c[m], k[m]) for m in MODES}
        ranking_ratios[name] = {m: _ratio(c["ranking"][m], k["ranking"][m]) for m in MODES}
    met = {name: r["hybrid"] is not None and r["hybrid"] >= TARGET for name, r in ratios.items()}
    return {
        "runs": runs,
        "ratio_hit@3": ratios,
        "target_met": met,
        "ranking_ratio_hit@3": ranking_ratios,
    }


def _ratio(cross: dict[str, Any], control: dict[str, Any]) -> float | None:
    if not control["hits@3"]:
        return None
    return round((cross["hits@3"] / cross["n"]) / (control["hits@3"] / control["n"]), 3)


def below_dense(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Questions whose note the hybrid ranks lower than the dense channel alone (not returned
    counts as below every rank)."""
    out = []
    for r in rows:
        m = r["modes"]
        hybrid, dense = m["hybrid"]["rank"], m["dense"]["rank"]
        if dense is not None and (hybrid is None or hybrid > dense):
            out.append(
                {
                    "run": r["run"],
                    "half": r["half"],
                    "question": r["text"],
                    "note": r["note"],
                    "hybrid_top1": m["hybrid"]["top1"],
                    "hybrid_confidence": m["hybrid"]["confidence"],
                    "ranks": {k: v["rank"] for k, v in m.items()},
                    "ranking": {k: v["ranking"] for k, v in m.items()},
                }
            )
    return out


# -- report -------------------------------------------------------------------------------------


def _cell(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}"


def print_half(name: str, s: dict[str, Any]) -> None:
    runs = s["runs"]
    for direction, (cross, control) in DIRECTIONS.items():
        c, k = runs[cross], runs[control]
        print(f"\n{direction}, {name} ({cross} against {control}, {c['hybrid']['n']} questions)\n")
        rows = []
        for mode in MODES:
            ratio = s["ratio_hit@3"][direction][mode]
            rows.append(
                [
                    f"**{mode}**" if mode == "hybrid" else mode,
                    *(_cell(c[mode][f]) for f in ("hit@1", "hit@3", "hit@10", "mrr")),
                    *(_cell(k[mode][f]) for f in ("hit@1", "hit@3", "hit@10", "mrr")),
                    f"{_cell(ratio)} (target {TARGET:.2f})",
                ]
            )
        heads = ["channel", "cross hit@1", "hit@3", "hit@10", "MRR"]
        heads += ["control hit@1", "hit@3", "hit@10", "MRR", "cross/control hit@3"]
        print(table(heads, rows))
        verdict = "met" if s["target_met"][direction] else "NOT met"
        print(f"target (hybrid cross/control hit@3 >= {TARGET:.2f}): {verdict}")
        print(
            "\nThe same runs' ranking before the thresholds stage (what the confidence class "
            "then cuts to two sources or none):\n"
        )
        rows = []
        for mode in MODES:
            cr, kr = c["ranking"][mode], k["ranking"][mode]
            rows.append(
                [
                    f"**{mode}**" if mode == "hybrid" else mode,
                    *(_cell(cr[f]) for f in ("hit@1", "hit@3", "hit@10", "mrr")),
                    *(_cell(kr[f]) for f in ("hit@1", "hit@3", "hit@10", "mrr")),
                    _cell(s["ranking_ratio_hit@3"][direction][mode]),
                ]
            )
        print(table(heads, rows))
        for run in (cross, control):
            r = runs[run]
            tagged = r["hybrid_tag_word_questions"]
            tag_note = (
                f"; asked by a tag word: hit@3 {tagged['hit@3']:.3f} (n {tagged['n']})"
                if tagged
                else ""
            )
            print(
                f"  {run}: hybrid confidence {json.dumps(r['hybrid_confidence'])}, confident but "
                f"wrong first {r['hybrid_confident_but_wrong_top1']}; answers cut to <= 2 "
                f"sources or none per mode {json.dumps(r['cut_by_confidence'])}{tag_note}"
            )


def _ranks(item: dict[str, Any], mode: str) -> str:
    """ "answer rank / ranking position": what the user saw, and where the ranking had it."""
    return f"{item['ranks'][mode] or '-'} / {item['ranking'][mode] or '-'}"


def print_below_dense(items: list[dict[str, Any]]) -> None:
    if not items:
        return
    print(
        f"\nHybrid below the dense channel alone ({len(items)} question runs; each rank is "
        f"'in the answer / in the ranking before the thresholds', - for not there):\n"
    )
    rows = [
        [
            it["run"],
            it["half"],
            it["question"],
            f"{it['hybrid_top1']} ({it['hybrid_confidence']})",
            it["note"],
            *(_ranks(it, m) for m in ("hybrid", "dense", "fts_en", "fts_de", "trigram")),
        ]
        for it in items
    ]
    heads = ["run", "half", "question", "hybrid first (class)", "right note", "hybrid", "dense"]
    print(table([*heads, "fts_en", "fts_de", "trigram"], rows))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--half", choices=[*HALVES, "all"], default="tune")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--embedder", choices=["e5", "minilm"], default=None, help="default: the app's")
    ap.add_argument("--limit-questions", type=int, default=0, help="0: all (smoke tests)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    started = time.perf_counter()
    notes = load(args.data)
    halves = HALVES if args.half == "all" else (args.half,)
    questions = questions_of(notes, halves)
    if args.limit_questions:
        questions = questions[: args.limit_questions]
    env = bench_environ({"CTX_EMBED_PROVIDER": args.embedder} if args.embedder else {})
    report: dict[str, Any] = {
        "data": str(
            args.data.relative_to(REPO_ROOT) if args.data.is_relative_to(REPO_ROOT) else args.data
        ),
        "notes": len(notes),
        "half": args.half,
        "questions": len(questions),
        "settings_env": ctx_env_summary(env),
        "match": f"the question's note among the first k sources (retrieval.query, limit {LIMIT})",
        "modes": {m: w or "settings" for m, w in MODES.items()},
    }
    with bench_app(None, env) as app:
        with app.connection() as conn:
            gen = active_generation(conn)
        if gen is None:
            raise SystemExit("no embedding generation (embedder unavailable?)")
        report["embedder"] = {"provider": gen["provider"], "model": gen["model"]}
        report["weights_hybrid"] = retrieval.channel_weights(app)
        progress(f"storing {len(notes)} notes in two languages, embedding with {gen['provider']}")
        by_id, report["index"] = index(app, notes)
        real = app.embedders.for_generation(gen)
        t0 = time.perf_counter()
        vectors = {q[g]: real.embed_query(q[g]) for q in questions for g in LANGS}
        report["query_embed_s"] = round(time.perf_counter() - t0, 2)
        use_embedder(
            app,
            FixedQueryEmbedder(
                real.name,
                real.model,
                real.dimensions,
                vectors,
                fallback=real.embed_query,
                similarity_bands=getattr(real, "similarity_bands", None),
            ),
        )
        progress(f"asking {len(questions)} questions x 4 runs x {len(MODES)} modes")
        t0 = time.perf_counter()
        rows = run_all(app, questions, by_id)
        report["ask_s"] = round(time.perf_counter() - t0, 1)
    parts = {h: [r for r in rows if r["half"] == h] for h in halves}
    if len(halves) > 1:
        parts["all"] = rows
    report["halves"] = {h: summarise(part) for h, part in parts.items()}
    report["below_dense"] = below_dense(rows)
    report["run_s"] = round(time.perf_counter() - started, 1)
    emb, ix = report["embedder"], report["index"]
    print(
        f"Across languages through the product path: {len(notes)} notes per language, "
        f"{len(questions)} questions ({args.half}); embedder {emb['provider']} ({emb['model']}); "
        f"{report['settings_env']}; hybrid weights {json.dumps(report['weights_hybrid'])}"
    )
    print(
        f"index: store {ix['store_s']} s, embed {ix['embed_s']} s, jobs {ix['jobs_s']} s; "
        f"questions {report['ask_s']} s; run {report['run_s']} s"
    )
    for h, s in report["halves"].items():
        print_half(f"{h} half" if h != "all" else "both halves", s)
    print_below_dense(report["below_dense"])
    if args.json:
        report["results"] = rows
        print(json.dumps(report, separators=(",", ":"), ensure_ascii=False))


if __name__ == "__main__":
    main()
