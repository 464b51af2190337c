"""How fast ``ctx ingest FILE...`` brings documents into ctx (issue 17).

    .venv/bin/python bench/documents.py --docs 100

Writes ``--docs`` documents of each format (Markdown with headings, HTML with navigation noise,
plain text, and PDFs of five pages made with fpdf2) of about 6,000 characters each into a
temporary folder, starts a private embedded PostgreSQL and ctxd's HTTP app on loopback, and runs
the real command per format three ways: ``--dry-run`` (the same parsing and chunking on the
client, nothing sent: the baseline), the first ingest, and a re-run with the same bytes (answered
``unchanged``). Embedding and other background jobs are queued by the writes but not run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from _common import REPO_ROOT, bench_app, bench_environ, progress, run_ingest, table

sys.path.insert(0, str(REPO_ROOT / "tests" / "support"))
from live import live_server
from vault_kit import pdf_bytes

from ctx.core import access

WORDS = [
    "backup",
    "restore",
    "replica",
    "index",
    "vacuum",
    "latency",
    "budget",
    "migration",
    "release",
    "schema",
    "queue",
    "worker",
    "cluster",
    "failover",
    "snapshot",
    "retention",
    "archive",
    "checksum",
    "metric",
    "alert",
    "dashboard",
    "rollout",
]


def paragraph(seed: int, words: int = 60) -> str:
    return " ".join(WORDS[(seed * 7 + i * 3) % len(WORDS)] for i in range(words)).capitalize() + "."


def sections(seed: int, count: int = 6) -> list[tuple[str, str]]:
    return [(f"Section {s + 1} of doc {seed}", "\n\n".join(paragraph(seed + s + p)
                                                          for p in range(3))) for s in range(count)]  # fmt: skip


def write_docs(root: Path, kind: str, count: int) -> list[Path]:
    folder = root / kind
    folder.mkdir(parents=True)
    paths = []
    for i in range(count):
        parts = sections(i)
        if kind == "md":
            text = f"# Document {i}\n\n" + "\n\n".join(f"## {h}\n\n{b}" for h, b in parts)
            data: bytes = text.encode()
        elif kind == "html":
            body = "".join(f"<h2>{h}</h2><p>{b}</p>" for h, b in parts)
            data = (f"<html><head><title>Document {i}</title><script>var x=1;</script></head>"
                    f"<body><nav>Home | About</nav><h1>Document {i}</h1>{body}"
                    "<footer>(c) bench</footer></body></html>").encode()  # fmt: skip
        elif kind == "txt":
            data = "\n\n".join(b for _, b in parts).encode("cp1252")
        else:
            data = pdf_bytes([b for _, b in parts[:5]], title=f"Document {i}")
        path = folder / f"doc-{i}.{kind}"
        path.write_bytes(data)
        paths.append(path)
    return paths


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--docs", type=int, default=100, help="documents per format")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows: list[list[Any]] = []
    figures: dict[str, Any] = {"docs": args.docs}
    with (
        tempfile.TemporaryDirectory(prefix="ctx-docs-") as tmp,
        bench_app(None, bench_environ()) as app,
    ):
        with app.connection() as conn:
            _, key = access.create_key(conn, name="bench", home_scope="docs")
        with live_server(app) as url:
            os.environ["CTX_URL"], os.environ["CTX_API_KEY"] = url, key
            for kind in ("md", "html", "txt", "pdf"):
                paths = write_docs(Path(tmp), kind, args.docs)
                size = sum(p.stat().st_size for p in paths) / 1e6
                for label, extra in (("parse only (dry run)", ["--dry-run"]),
                                     ("first ingest", []), ("same bytes again", [])):  # fmt: skip
                    progress(f"{kind}: {label} ...")
                    seconds, s = run_ingest(app, [*map(str, paths), *extra])
                    files = s["files"]
                    chunks = sum(len(f.get("blocks") or f.get("chunks") or []) for f in files)
                    statuses = sorted({f["status"] for f in files})
                    rows.append([kind, label, len(files), chunks, ",".join(statuses),
                                 round(seconds, 2), round(len(files) / seconds, 1),
                                 round(size / seconds, 2)])  # fmt: skip
                    figures[f"{kind} {label}"] = {"seconds": round(seconds, 2), "chunks": chunks,
                                                  "docs_per_s": round(len(files) / seconds, 1)}  # fmt: skip
    print(table(["format", "run", "docs", "chunks", "status", "seconds", "docs/s", "MB/s"], rows))
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
