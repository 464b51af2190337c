"""Guard calibration: the decision on labelled pairs of notes, per class, for an embedder.

Each hand-written note (bench/data/guard_pairs_tune.json and guard_pairs_holdout.json) yields
pairs of seven classes: an exact copy (another title), light edits (a typo, line breaks, punctuation,
Markdown, casing, a dropped word; made here), a paraphrase, a translation EN<->DE, the same topic
with changed facts, a sibling (same area, another subject) and an unrelated note. Copies and light
edits should be archived (near_duplicate), paraphrases and translations flagged (needs_review),
changed-facts notes flagged (never archived: that would lose the change, the worst mistake),
siblings and unrelated notes left clean.

The decision is ctx's own (``ctx.core.guard.decide``) on the raw embeddings of title + content,
as the Guard stores them. ``--calibrate`` picks thresholds on the tuning half (see
``calibrate``) and reports both halves for the chosen and the seed's thresholds. ``--e2e`` runs the real Guard
(store, embed job, guard job) on the pairs, each pair in its own scope, and compares.

    .venv/bin/python bench/guard_pairs.py --embedder e5 --calibrate
    .venv/bin/python bench/guard_pairs.py --embedder e5 --set holdout --duplicate 0.99 --review 0.95

``--copies`` runs the second labelled set (bench/data/guard_copies.json): copies whose only
difference is formatting (case, whitespace, punctuation, quotes, Markdown, bullet order, line
breaks, spelling variants, typos), often under another title and category, and notes with one
changed fact (a date, amount, name, version, port, owner, deadline, a flipped decision). Each
note's pairs go to one half (even notes tune, odd notes held out). Copies should be archived;
a changed fact must never be.

    .venv/bin/python bench/guard_pairs.py --embedder e5 --copies

``--updates`` (issue 36) puts both sets together, in two halves: half A is guard_pairs_tune.json
and the even notes of guard_copies.json, half B guard_pairs_holdout.json (the second author) and
the odd notes. Copies (exact, light edits, formatting-only re-saves) should be archived; changed
facts (one value replaced, a flipped decision, a follow-up sentence added: guard_copies.json;
several values revised: the ``changed`` notes) recorded as updates; translations linked as
translations; paraphrases are left for review (the same note reworded: a person decides), and
siblings and unrelated notes must be neither archived nor linked. The rules' figures
(ctx.core.guard.update) were tuned on half A; half B confirms them.

    .venv/bin/python bench/guard_pairs.py --embedder e5 --updates
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ctx.core.embed import block_text
from ctx.core.guard import (
    CLEAN,
    NEAR_DUPLICATE,
    NEEDS_REVIEW,
    TRANSLATION,
    UPDATE,
    Neighbour,
    Thresholds,
    decide,
    word_changes,
)

CLASSES = ("exact", "light", "paraphrase", "translation", "changed", "sibling", "unrelated")
EXPECTED = {
    "exact": NEAR_DUPLICATE,
    "light": NEAR_DUPLICATE,
    "paraphrase": NEEDS_REVIEW,
    "translation": NEEDS_REVIEW,
    "changed": NEEDS_REVIEW,  # flag ("an edited version of X?"), never archive
    "sibling": CLEAN,
    "unrelated": CLEAN,
}
SEED = (0.98, 0.92)
FLAG_PRECISION = 0.9


@dataclass(frozen=True)
class Pair:
    cls: str
    lang: str
    a_title: str
    a_content: str
    b_title: str
    b_content: str


# -- light edits: small changes a person makes without changing what the note says ---------------


def _typo(text: str, i: int) -> str:
    words = [w for w in re.findall(r"\b[a-zäöüß]{6,}\b", text)]
    if not words:
        return text + " "
    w = words[i % len(words)]
    k = len(w) // 2
    return text.replace(w, w[: k - 1] + w[k] + w[k - 1] + w[k + 1 :], 1)


def _breaks(text: str, i: int) -> str:
    return re.sub(r"([.!?]) +", r"\1\n", text).strip() + "\n"


def _punctuation(text: str, i: int) -> str:
    out = text.replace(", ", " ", 1) if ", " in text else text.rstrip(".") + "!"
    return out.replace(" - ", " – ")


def _markdown(text: str, i: int) -> str:
    sentences = re.split(r"(?<=[.!?]) +", text.strip())
    return "\n".join("- " + s for s in sentences)


def _casing(text: str, i: int) -> str:
    return text[:1].lower() + text[1:] if text[:1].isupper() else text[:1].upper() + text[1:]


def _drop_word(text: str, i: int) -> str:
    for word in (" the ", " die ", " der ", " das ", " a ", " ein "):
        if word in text:
            return text.replace(word, " ", 1)
    return text.rstrip() + " "


EDITS = (_typo, _breaks, _punctuation, _markdown, _casing, _drop_word)


def pairs_of(notes: list[dict[str, str]]) -> list[Pair]:
    out: list[Pair] = []
    n = len(notes)
    for i, note in enumerate(notes):
        t, c, lang = note["title"], note["content"], note["lang"]
        out.append(Pair("exact", lang, t, c, "Copy: " + t, c))
        for k in (i % len(EDITS), (i + 3) % len(EDITS)):
            out.append(Pair("light", lang, t, c, t, EDITS[k](c, i)))
        out.append(Pair("paraphrase", lang, t, c, t, note["paraphrase"]))
        out.append(Pair("translation", lang, t, c, t, note["translation"]))
        out.append(Pair("changed", lang, t, c, t, note["changed"]))
        out.append(Pair("sibling", lang, t, c, note["topic"], note["sibling"]))
        other = notes[(i + n // 2) % n]
        out.append(Pair("unrelated", lang, t, c, other["title"], other["content"]))
    return out


DATA = Path(__file__).resolve().parent / "data"


def load(which: str) -> list[Pair]:
    """The pairs of the tuning half, the held-out half (written by a second author without
    seeing the first) or both; the notes are JSON under bench/data/."""
    notes: list[dict[str, str]] = []
    for half in ("tune", "holdout"):
        if which in (half, "both"):
            data = json.loads((DATA / f"guard_pairs_{half}.json").read_text("utf-8"))
            notes += data["notes"]
    return pairs_of(notes)


def copy_pairs(which: str) -> list[Pair]:
    """The pairs of guard_copies.json: class ``light`` (a copy, formatting only) or ``changed``
    (one fact replaced; under a copy's title and category, as an agent would re-save it)."""
    notes = json.loads((DATA / "guard_copies.json").read_text("utf-8"))["notes"]
    out: list[Pair] = []
    for i, note in enumerate(notes):
        if which != "both" and (i % 2 == 0) != (which == "tune"):
            continue
        t, c, lang = note["title"], note["content"], note["lang"]
        for copy in note["copies"]:
            out.append(Pair("light", lang, t, c, copy["title"], copy["content"]))
        for k, fact in enumerate(note["facts"]):
            title = note["copies"][k % len(note["copies"])]["title"]
            out.append(Pair("changed", lang, t, c, title, c.replace(fact["from"], fact["to"])))
    return out


def copies_report(pairs: list[Pair], sims: np.ndarray, limits: Thresholds) -> dict[str, Any]:
    """Copies archived, changed facts archived (must be 0), what was left for review."""
    out: dict[str, Any] = {}
    missed = []
    for cls, name in (("light", "copies"), ("changed", "changed_facts")):
        got = Counter()
        for p, s in zip(pairs, sims, strict=True):
            if p.cls != cls:
                continue
            block = {"title": p.b_title, "content": p.b_content}
            match = Neighbour("a", "s", float(s), p.a_title, p.a_content)
            decision, _, _ = decide(block, match, limits)
            got[decision] += 1
            if cls == "light" and decision != NEAR_DUPLICATE:
                missed.append({"lang": p.lang, "similarity": round(float(s), 4),
                               "decision": decision, "title": p.b_title,
                               "words": word_changes(p.b_content, p.a_content, p.a_title + "\n" + p.b_title)})  # fmt: skip
        out[name] = {"n": sum(got.values()), "archived": got[NEAR_DUPLICATE],
                     "review": got[NEEDS_REVIEW], "clean": got[CLEAN]}  # fmt: skip
    out["copies_not_archived"] = missed
    return out


def copies_and_updates(which: str) -> list[Pair]:
    """guard_copies.json's notes of one half as pairs: its copies (``light``), each changed fact
    (``changed``, under a copy's title), each follow-up sentence added (``changed``) and its
    translation (``translation``)."""
    notes = json.loads((DATA / "guard_copies.json").read_text("utf-8"))["notes"]
    out: list[Pair] = []
    for i, note in enumerate(notes):
        if (i % 2 == 0) != (which == "tune"):
            continue
        t, c, lang = note["title"], note["content"], note["lang"]
        titles = [copy["title"] for copy in note["copies"]]
        for copy in note["copies"]:
            out.append(Pair("light", lang, t, c, copy["title"], copy["content"]))
        for k, fact in enumerate(note["facts"]):
            assert fact["from"] in c, (t, fact["from"])
            changed = c.replace(fact["from"], fact["to"])
            out.append(Pair("changed", lang, t, c, titles[k % len(titles)], changed))
        for k, sentence in enumerate(note.get("follow_ups", [])):
            follow_up = c.rstrip() + ("\n" if "\n" in c else " ") + sentence
            out.append(Pair("changed", lang, t, c, titles[(k + 1) % len(titles)], follow_up))
        if note.get("translation"):
            other = note["translation"]
            out.append(Pair("translation", lang, t, c, other["title"], other["content"]))
    return out


UPDATE_EXPECTED = {
    "exact": NEAR_DUPLICATE,
    "light": NEAR_DUPLICATE,
    "changed": UPDATE,
    "translation": TRANSLATION,
    "paraphrase": NEEDS_REVIEW,
    "sibling": CLEAN,
    "unrelated": CLEAN,
}
TARGETS = {"copies_archived": ">= 0.90", "wrong_archives": "0", "updates": ">= 0.80",
           "changed_left_for_review": "<= 0.20"}  # fmt: skip


def updates_report(pairs: list[Pair], sims: np.ndarray, limits: Thresholds) -> dict[str, Any]:
    """The issue's figures for one half, each beside its target, and every class's decisions."""
    by_class: dict[str, Counter[str]] = defaultdict(Counter)
    wrong: list[dict[str, Any]] = []
    for p, s in zip(pairs, sims, strict=True):
        block = {"title": p.b_title, "content": p.b_content}
        decision, _, details = decide(block, Neighbour("a", "s", float(s), p.a_title, p.a_content),
                                      limits)  # fmt: skip
        by_class[p.cls][decision] += 1
        linked = decision in (UPDATE, TRANSLATION)
        if decision != UPDATE_EXPECTED[p.cls] and (p.cls in ("changed", "translation") or linked
                                                    or decision == NEAR_DUPLICATE):  # fmt: skip
            wrong.append({"class": p.cls, "lang": p.lang, "similarity": round(float(s), 4),
                          "decision": decision, "title": p.b_title,
                          "changes": details.get("changes", [])[:4]})  # fmt: skip

    def share(cls: str, decision: str) -> str:
        n = sum(by_class[cls].values())
        return f"{by_class[cls][decision]}/{n} = {by_class[cls][decision] / n:.2f}" if n else "-"

    copies = by_class["exact"] + by_class["light"]
    n_copies = sum(copies.values())
    not_copies = [c for c in by_class if UPDATE_EXPECTED[c] != NEAR_DUPLICATE]
    figures = {
        "copies_archived": f"{copies[NEAR_DUPLICATE]}/{n_copies} = "
        f"{copies[NEAR_DUPLICATE] / n_copies:.2f}",
        "wrong_archives": sum(by_class[c][NEAR_DUPLICATE] for c in not_copies),
        "updates": share("changed", UPDATE),
        "changed_left_for_review": share("changed", NEEDS_REVIEW),
        "translations_linked": share("translation", TRANSLATION),
        "paraphrases_left_for_review": share("paraphrase", NEEDS_REVIEW),
        "wrong_links": sum(
            by_class[c][d]
            for c in by_class
            for d in (UPDATE, TRANSLATION)
            if UPDATE_EXPECTED[c] != d
        ),
    }
    return {
        "figures": figures,
        "targets": TARGETS,
        "classes": {c: dict(by_class[c]) for c in UPDATE_EXPECTED if by_class[c]},
        "misses": wrong,
    }


def similarities(embedder_name: str, pairs: list[Pair]) -> np.ndarray:
    """Cosine of each pair's raw embeddings; cached under the temp folder by content hash
    (embedding ~1,700 notes takes minutes on two cores)."""
    from ctx.plugins.embed.local_models import e5_factory, minilm_factory

    texts = [block_text(p.a_title, p.a_content) for p in pairs]
    texts += [block_text(p.b_title, p.b_content) for p in pairs]
    digest = hashlib.sha256(json.dumps([embedder_name, texts]).encode()).hexdigest()[:16]
    cache = Path(tempfile.gettempdir()) / f"ctx-guard-sims-{digest}.npy"
    if cache.exists():
        return np.asarray(np.load(cache))
    emb = (e5_factory if embedder_name == "e5" else minilm_factory)({})
    vecs = np.asarray(emb.embed_documents(texts), dtype=np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    n = len(pairs)
    sims = np.sum(vecs[:n] * vecs[n:], axis=1)
    np.save(cache, sims)
    return sims


_AT_BAND: dict[tuple[int, bool, bool], str] = {}


def decisions(pairs: list[Pair], sims: np.ndarray, limits: Thresholds, same: bool) -> list[str]:
    """ctx's decision for each pair. From the review level up, what ``decide`` says depends on
    the texts and on whether the similarity reaches the duplicate level, so it is asked once per
    pair and band and cached; below the review level a pair is clean, as in ``decide``."""
    out = []
    for p, s in zip(pairs, sims, strict=True):
        if s < limits.review:
            out.append(CLEAN)
            continue
        at_copy = bool(s >= limits.duplicate)
        key = (id(p), same, at_copy)
        if key not in _AT_BAND:
            block = {"title": p.b_title, "content": p.b_content}
            match = Neighbour("a", "s", 1.0 if at_copy else 0.5, p.a_title, p.a_content)
            _AT_BAND[key] = decide(block, match, Thresholds(0.75, 0.25, "bench"), same)[0]
        out.append(_AT_BAND[key])
    return out


def report(pairs: list[Pair], got: list[str]) -> dict[str, Any]:
    by_class: dict[str, Counter[str]] = defaultdict(Counter)
    for p, d in zip(pairs, got, strict=True):
        by_class[p.cls][d] += 1
    classes = {}
    for cls in CLASSES:
        c = by_class[cls]
        total = sum(c.values())
        classes[cls] = {
            "n": total,
            "recall": round(c[EXPECTED[cls]] / total, 3) if total else None,
            "archived": c[NEAR_DUPLICATE],
            "flagged": c[NEEDS_REVIEW],
            "clean": c[CLEAN],
        }
    f1, flag_precision = _flag_f1(pairs, got)
    caught = [d for p, d in zip(pairs, got, strict=True) if p.cls in CAUGHT]
    decided: dict[str, Any] = {
        "flagged_or_archived": {
            "precision": round(flag_precision, 3),
            "recall": round(sum(d != CLEAN for d in caught) / len(caught), 3) if caught else None,
            "f1": round(f1, 3),
            "note": "positives: exact, light, paraphrase, translation; negatives: sibling, "
            "unrelated",
        },
        "wrong_archives": sum(
            1
            for p, d in zip(pairs, got, strict=True)
            if d == NEAR_DUPLICATE and EXPECTED[p.cls] != NEAR_DUPLICATE
        ),
    }
    for dec in (NEAR_DUPLICATE, NEEDS_REVIEW, CLEAN):
        chosen = [p for p, d in zip(pairs, got, strict=True) if d == dec]
        right = sum(1 for p in chosen if EXPECTED[p.cls] == dec)
        wanted = sum(1 for p in pairs if EXPECTED[p.cls] == dec)
        hit = sum(1 for p, d in zip(pairs, got, strict=True) if d == dec == EXPECTED[p.cls])
        decided[dec] = {
            "n": len(chosen),
            "precision": round(right / len(chosen), 3) if chosen else None,
            "recall": round(hit / wanted, 3) if wanted else None,
        }
    return {"classes": classes, "decisions": decided}


CAUGHT = frozenset({"exact", "light", "paraphrase", "translation"})
MISSED_OK = frozenset({"sibling", "unrelated"})  # 'changed' may be flagged or not, never archived


def _flag_f1(pairs: list[Pair], got: list[str]) -> tuple[float, float]:
    """F1 and precision of 'flagged or archived' for the classes that should be caught; a
    changed-facts pair counts neither way (a flag on it is useful, a miss harmless)."""
    caught = CAUGHT
    tp = sum(1 for p, d in zip(pairs, got, strict=True) if d != CLEAN and p.cls in caught)
    fp = sum(1 for p, d in zip(pairs, got, strict=True) if d != CLEAN and p.cls in MISSED_OK)
    fn = sum(1 for p, d in zip(pairs, got, strict=True) if d == CLEAN and p.cls in caught)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return f1, precision


def calibrate(pairs: list[Pair], sims: np.ndarray, same: bool) -> tuple[float, float]:
    """The duplicate threshold: the lowest at which the similarity alone archives no pair of a
    class that is not a copy (changed-facts pairs aside: only the word check tells those, at any
    threshold). The review threshold: the best F1 of flagged-or-archived at a precision of at
    least FLAG_PRECISION."""
    grid = [float(round(x, 4)) for x in np.arange(0.50, 1.0001, 0.0025)]
    not_copies = {"paraphrase", "translation", "sibling", "unrelated"}
    top = max((float(s) for p, s in zip(pairs, sims, strict=True) if p.cls in not_copies),
              default=0.0)  # fmt: skip
    duplicate = min((g for g in grid if g > top), default=1.0)
    best = (-1.0, duplicate)
    for review in (g for g in grid if g <= duplicate):
        got = decisions(pairs, sims, Thresholds(duplicate, review, "bench"), same)
        f1, precision = _flag_f1(pairs, got)
        if precision >= FLAG_PRECISION and f1 > best[0]:
            best = (f1, review)
    return duplicate, best[1]


def class_ranges(pairs: list[Pair], sims: np.ndarray) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for cls in CLASSES:
        v = np.array([s for p, s in zip(pairs, sims, strict=True) if p.cls == cls])
        if len(v):
            out[cls] = [round(float(x), 4) for x in (v.min(), np.median(v), v.max())]
    return out


def e2e(embedder_name: str, pairs: list[Pair], limits: tuple[float, float]) -> dict[str, Any]:
    """The real Guard on each pair (own scope, a stores, then b, jobs drained)."""
    from _common import bench_app, bench_environ

    from ctx.core import access
    from ctx.core.blocks import StoreRequest, store_block
    from ctx.core.embed import active_generation
    from ctx.core.guard import set_thresholds
    from ctx.core.runtime import drain

    env = bench_environ({"CTX_EMBED_PROVIDER": embedder_name})
    got = []
    with bench_app(None, env) as app:
        with app.connection() as conn:
            gen = active_generation(conn)
            assert gen is not None
            set_thresholds(conn, int(gen["id"]), limits[0], limits[1])
        ids = []
        for i, p in enumerate(pairs):
            scope = f"pair-{i:04d}"
            with app.connection() as conn:
                _, token = access.create_key(conn, name=scope, home_scope=scope)
                who = access.authenticate(conn, token)
            store_block(app, who, StoreRequest(title=p.a_title, content=p.a_content, category="a"))
            b = store_block(
                app, who, StoreRequest(title=p.b_title, content=p.b_content, category="b")
            )
            ids.append(b["id"])
        drain(app, "embed")
        drain(app, "guard")
        with app.connection() as conn:
            rows = conn.execute(
                "SELECT id::text AS id, guard_status FROM context_blocks WHERE id = ANY(%s)",
                (ids,),
            ).fetchall()
        status = {r["id"]: r["guard_status"] for r in rows}
        got = [status[i] for i in ids]
    return report(pairs, got)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--embedder", default="e5", choices=("e5", "minilm"))
    ap.add_argument("--set", default="holdout", choices=("tune", "holdout", "both"))
    ap.add_argument("--duplicate", type=float)
    ap.add_argument("--review", type=float)
    ap.add_argument("--calibrate", action="store_true")
    ap.add_argument("--similarity-only", action="store_true", help="guard.same_words off")
    ap.add_argument("--e2e", action="store_true")
    ap.add_argument("--copies", action="store_true", help="the copies / changed-facts set")
    ap.add_argument("--updates", action="store_true", help="issue 36: updates, translations")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    same = not args.similarity_only
    started = time.perf_counter()
    out: dict[str, Any] = {"embedder": args.embedder, "same_words": same}
    if args.updates:
        from ctx.plugins.embed.local_models import E5Embedder, MiniLMEmbedder

        calibrated = (E5Embedder if args.embedder == "e5" else MiniLMEmbedder).guard_thresholds
        d = args.duplicate if args.duplicate is not None else calibrated[0]
        r = args.review if args.review is not None else calibrated[1]
        out["thresholds"] = {"duplicate": d, "review": r}
        for half, label in (("tune", "A"), ("holdout", "B")):
            pairs = load(half) + copies_and_updates(half)
            sims = similarities(args.embedder, pairs)
            out[f"half_{label}"] = updates_report(pairs, sims, Thresholds(d, r, "bench"))
        out["seconds"] = round(time.perf_counter() - started, 1)
        if not args.json:
            for label in ("A", "B"):
                half = out[f"half_{label}"]
                print(f"== half {label} ({'tune' if label == 'A' else 'confirm'})")
                for key, value in half["figures"].items():
                    print(f"  {key:28} {value!s:18} target {TARGETS.get(key, '-')}")
                for cls, got in half["classes"].items():
                    print(f"  {cls:12} {got}")
            return
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return
    if args.copies:
        from ctx.plugins.embed.local_models import E5Embedder, MiniLMEmbedder

        calibrated = (E5Embedder if args.embedder == "e5" else MiniLMEmbedder).guard_thresholds
        d = args.duplicate if args.duplicate is not None else calibrated[0]
        r = args.review if args.review is not None else calibrated[1]
        out["thresholds"] = {"duplicate": d, "review": r}
        for half in ("tune", "holdout"):
            pairs = copy_pairs(half)
            sims = similarities(args.embedder, pairs)
            out[f"copies_{half}"] = copies_report(pairs, sims, Thresholds(d, r, "bench"))
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return
    if args.calibrate:
        tune = load("tune")
        hold = load("holdout")
        sims_t = similarities(args.embedder, tune)
        sims_h = similarities(args.embedder, hold)
        dup, rev = calibrate(tune, sims_t, same)
        out["chosen"] = {"duplicate": dup, "review": rev}
        out["ranges_tune"] = class_ranges(tune, sims_t)
        out["ranges_holdout"] = class_ranges(hold, sims_h)
        for name, (d, r) in (("chosen", (dup, rev)), ("seed", SEED)):
            for label, ps, ss in (("tune", tune, sims_t), ("holdout", hold, sims_h)):
                got = decisions(ps, ss, Thresholds(d, r, "bench"), same)
                out[f"{name}_{label}"] = report(ps, got)
    else:
        pairs = load(args.set)
        sims = similarities(args.embedder, pairs)
        d = args.duplicate if args.duplicate is not None else SEED[0]
        r = args.review if args.review is not None else SEED[1]
        out["thresholds"] = {"duplicate": d, "review": r}
        out["ranges"] = class_ranges(pairs, sims)
        out["offline"] = report(pairs, decisions(pairs, sims, Thresholds(d, r, "bench"), same))
        if args.e2e:
            out["e2e"] = e2e(args.embedder, pairs, (d, r))
    out["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(json.dumps({k: v for k, v in out.items() if not isinstance(v, dict)}))
    for key, value in out.items():
        if isinstance(value, dict) and "classes" in value:
            print(f"\n== {key}")
            for cls, row in value["classes"].items():
                print(f"  {cls:12} {row}")
            for dec, row in value["decisions"].items():
                print(f"  -> {dec:19} {row}")
        elif isinstance(value, dict):
            print(f"\n== {key}: {value}")


if __name__ == "__main__":
    main()
