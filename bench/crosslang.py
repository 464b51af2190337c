"""German/English cross-language retrieval check for embedders, plus embedding throughput.

Thirty short English knowledge statements about a software project are the documents; each has an
English paraphrase query and a German query. For every embedder named on the command line this
reports Recall@1, Recall@5 and MRR for EN->EN and DE->EN, and texts per second when embedding
~500 texts of one to three sentences in batches of 64 (best of ``--repeat`` runs).

    .venv/bin/python bench/crosslang.py --embedders minilm,e5
    .venv/bin/python bench/crosslang.py --embedders openai \
        --option base_url=http://127.0.0.1:8080 --option model=qwen3-embedding --option dimensions=1024

With ``--json`` the last line printed is one JSON object with every number.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np

from ctx.core.embed import Embedder, create_embedder, embedder_factories
from ctx.core.runtime import PluginHost

# (English document, English paraphrase query, German query)
CASES: list[tuple[str, str, str]] = [
    (
        "The nightly database backup runs at 02:00 and keeps fourteen daily snapshots.",
        "When does the database get backed up and how many copies are retained?",
        "Wann läuft die Datenbanksicherung und wie viele Stände werden aufbewahrt?",
    ),
    (
        "Embeddings are computed asynchronously by a background worker after a block is saved.",
        "Vectors for new blocks are generated later by a worker, not during the write.",
        "Die Vektoren neuer Blöcke werden nachträglich von einem Hintergrundprozess erzeugt.",
    ),
    (
        "Retrieval fuses dense, full-text and trigram rankings with reciprocal rank fusion.",
        "How are the different search result lists combined into one ranking?",
        "Wie werden die Ergebnislisten der verschiedenen Suchverfahren zusammengeführt?",
    ),
    (
        "API keys are stored only as SHA-256 hashes; the plaintext key is never saved.",
        "Are access tokens kept in clear text in the database?",
        "Werden API-Schlüssel im Klartext in der Datenbank gespeichert?",
    ),
    (
        "The web interface offers a dark mode that follows the operating system setting.",
        "Can the UI switch to a dark colour scheme automatically?",
        "Unterstützt die Oberfläche ein dunkles Farbschema?",
    ),
    (
        "We replaced Ollama with the llama.cpp server for all local inference in April.",
        "Which inference backend took over from Ollama?",
        "Welcher Server hat Ollama für die lokale Inferenz abgelöst?",
    ),
    (
        "Deleting a block is a soft delete; rows are purged after thirty days.",
        "What happens to an entry when it is removed, and when is it really gone?",
        "Was passiert beim Löschen eines Eintrags und wann ist er endgültig weg?",
    ),
    (
        "The rate limiter allows sixty requests per minute for each API key.",
        "How many calls per minute may a single key make?",
        "Wie viele Anfragen pro Minute darf ein Schlüssel stellen?",
    ),
    (
        "Scopes isolate private, work and shared memories from each other.",
        "How are personal notes kept apart from team knowledge?",
        "Wie werden private Notizen von gemeinsamem Wissen getrennt?",
    ),
    (
        "The reranker is disabled by default because it did not improve recall.",
        "Why is the cross-encoder switched off in production?",
        "Warum ist der Reranker standardmäßig ausgeschaltet?",
    ),
    (
        "Database migrations are plain SQL files applied in file-name order at start-up.",
        "How does the schema get upgraded when the service starts?",
        "Wie wird das Datenbankschema beim Start aktualisiert?",
    ),
    (
        "The HNSW index uses m of 16 and ef_construction of 64 on half-precision vectors.",
        "What parameters does the approximate nearest neighbour index use?",
        "Mit welchen Parametern ist der Vektorindex aufgebaut?",
    ),
    (
        "Temporal expressions like 'last Tuesday' are resolved by a deterministic parser.",
        "How are relative dates in queries turned into concrete days?",
        "Wie werden relative Zeitangaben wie 'letzte Woche' aufgelöst?",
    ),
    (
        "The chat endpoint streams tokens to the browser with server-sent events.",
        "How does the assistant's answer reach the web page while it is generated?",
        "Wie kommt die Antwort des Chats schrittweise im Browser an?",
    ),
    (
        "Plugins are discovered through the 'ctx' entry-point group at start-up.",
        "How does the application find third-party extensions?",
        "Wie findet die Anwendung Erweiterungen von Drittanbietern?",
    ),
    (
        "The guard checks every new block for contradictions with existing knowledge.",
        "Is there a component that detects conflicting facts when something is saved?",
        "Gibt es eine Prüfung auf widersprüchliche Fakten beim Speichern?",
    ),
    (
        "Query latency stays below 50 milliseconds at the 95th percentile for 10,000 blocks.",
        "How fast are searches on a corpus of ten thousand entries?",
        "Wie schnell ist eine Suche bei zehntausend Einträgen?",
    ),
    (
        "Releases are tagged with annotated git tags whose message becomes the changelog.",
        "Where do the release notes for a version come from?",
        "Woher stammen die Versionshinweise eines Releases?",
    ),
    (
        "The embedding model truncates 4096-dimensional vectors to 1024 dimensions.",
        "How many dimensions do the stored vectors have after shortening?",
        "Auf wie viele Dimensionen werden die Vektoren gekürzt?",
    ),
    (
        "Sensitive blocks are never sent to external language model providers.",
        "Can confidential entries leak to a cloud LLM?",
        "Können vertrauliche Einträge an externe Sprachmodelle gelangen?",
    ),
    (
        "Logs are written as JSON lines and rotated daily with seven files kept.",
        "In which format are log messages stored and how long are they kept?",
        "In welchem Format wird protokolliert und wie lange bleiben die Logs erhalten?",
    ),
    (
        "The OAuth flow requires PKCE with the S256 challenge method.",
        "Which proof key method does the authorization flow demand?",
        "Welches PKCE-Verfahren verlangt die Anmeldung über OAuth?",
    ),
    (
        "German and English full-text indexes exist side by side for every block.",
        "Is keyword search supported in more than one language?",
        "Gibt es die Volltextsuche auch für deutsche Texte?",
    ),
    (
        "A digest summarising the week's new knowledge is generated every Monday morning.",
        "Is there a weekly summary of what was learned?",
        "Gibt es eine wöchentliche Zusammenfassung neuer Erkenntnisse?",
    ),
    (
        "The embedded PostgreSQL starts in under a second and needs no separate install.",
        "Do I have to set up a database server before running the tool?",
        "Muss ich vorher einen Datenbankserver installieren?",
    ),
    (
        "Memory usage of the server process stays under 300 megabytes in normal operation.",
        "How much RAM does the service typically need?",
        "Wie viel Arbeitsspeicher braucht der Dienst im Normalbetrieb?",
    ),
    (
        "The graph view clusters linked blocks with the Louvain algorithm.",
        "How are related entries grouped in the visual map?",
        "Wie werden zusammenhängende Einträge in der Graphansicht gruppiert?",
    ),
    (
        "Tests start a real PostgreSQL and real HTTP servers on the loopback interface.",
        "Do the tests use mocks or actual services?",
        "Verwenden die Tests echte Dienste oder Attrappen?",
    ),
    (
        "Configuration values can be overridden with environment variables prefixed CTX_.",
        "How do I change a setting without editing the config file?",
        "Wie kann ich Einstellungen über Umgebungsvariablen überschreiben?",
    ),
    (
        "The command line prints JSON when called with the --json flag, for use in scripts.",
        "Can the CLI produce machine-readable output?",
        "Kann die Kommandozeile maschinenlesbare Ausgaben liefern?",
    ),
]


def retrieval_scores(embedder: Embedder, queries: list[str], docs: np.ndarray) -> dict[str, float]:
    """Recall@1, Recall@5 and MRR where query i's only relevant document is document i."""
    ranks = []
    for i, query in enumerate(queries):
        scores = docs @ embedder.embed_query(query)
        ranks.append(int((scores > scores[i]).sum()) + 1)
    ranked = np.array(ranks)
    return {
        "recall@1": float((ranked <= 1).mean()),
        "recall@5": float((ranked <= 5).mean()),
        "mrr": float((1.0 / ranked).mean()),
    }


def throughput_texts(count: int = 512, seed: int = 0) -> list[str]:
    """Texts of one to three sentences, drawn from the cases, like typical stored blocks."""
    pool = [sentence for case in CASES for sentence in case]
    rng = random.Random(seed)
    return [" ".join(rng.sample(pool, rng.randint(1, 3))) for _ in range(count)]


def measure(embedder: Embedder, batch_size: int, repeat: int) -> dict[str, Any]:
    docs = embedder.embed_documents([case[0] for case in CASES])
    result: dict[str, Any] = {
        "model": embedder.model,
        "dimensions": embedder.dimensions,
        "en_en": retrieval_scores(embedder, [case[1] for case in CASES], docs),
        "de_en": retrieval_scores(embedder, [case[2] for case in CASES], docs),
    }
    texts = throughput_texts()
    embedder.embed_documents(texts[:batch_size])  # warm caches outside the timing
    timings = []
    for _ in range(repeat):  # best of several: other processes on a small machine add noise
        started = time.perf_counter()
        for start in range(0, len(texts), batch_size):
            embedder.embed_documents(texts[start : start + batch_size])
        timings.append(time.perf_counter() - started)
    result["throughput_texts_per_s"] = len(texts) / min(timings)
    result["throughput_texts"] = len(texts)
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--embedders", default="minilm,e5", help="comma-separated names")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="option passed to every embedder factory (repeatable)",
    )
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3, help="throughput runs; the best counts")
    parser.add_argument("--json", action="store_true", help="print one JSON object last")
    args = parser.parse_args(argv)
    options: dict[str, Any] = dict(item.split("=", 1) for item in args.option)
    options.setdefault("batch_size", args.batch_size)

    factories = embedder_factories(PluginHost(("embed-local", "embed-openai")))
    results: dict[str, Any] = {}
    for name in [n.strip() for n in args.embedders.split(",") if n.strip()]:
        results[name] = measure(
            create_embedder(factories, name, options), args.batch_size, args.repeat
        )

    header = f"{'embedder':<10} {'direction':<9} {'R@1':>6} {'R@5':>6} {'MRR':>6} {'texts/s':>8}"
    print(f"{len(CASES)} documents; throughput on {len(throughput_texts())} texts, ", end="")
    print(f"batch {args.batch_size}")
    print(header)
    print("-" * len(header))
    for name, res in results.items():
        for direction in ("en_en", "de_en"):
            s = res[direction]
            speed = f"{res['throughput_texts_per_s']:8.1f}" if direction == "en_en" else ""
            label = direction.upper().replace("_", "->")
            print(
                f"{name:<10} {label:<9} {s['recall@1']:6.3f} {s['recall@5']:6.3f} "
                f"{s['mrr']:6.3f} {speed}"
            )
    if args.json:
        print(json.dumps({"cases": len(CASES), "batch_size": args.batch_size, "results": results}))


if __name__ == "__main__":
    main()
