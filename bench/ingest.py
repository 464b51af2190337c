"""How fast ``ctx ingest`` brings an Obsidian vault into ctx (issue 17).

    .venv/bin/python bench/ingest.py --notes 2000

Builds a vault of ``--notes`` linked notes in a temporary folder (tests/support/vault_kit.py:
front matter with tags, dates and aliases, three wikilinks per note, every tenth note long enough
to be chunked), starts a private embedded PostgreSQL and ctxd's HTTP app on loopback, and runs
the real command (parse, batches over HTTP, block writes, link resolution, finish) three times:
the first ingest, a re-run with nothing changed, and a re-run after editing 1% of the notes.
Embedding and other background jobs are queued by the writes but not run.
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
from vault_kit import bulk_vault

from ctx.core import access


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--notes", type=int, default=2000)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    opts = ["--batch", str(args.batch), "--workers", str(args.workers)]
    rows: list[list[Any]] = []
    figures: dict[str, Any] = {"notes": args.notes, "batch": args.batch, "workers": args.workers}
    with (
        tempfile.TemporaryDirectory(prefix="ctx-vault-") as tmp,
        bench_app(None, bench_environ()) as app,
    ):
        vault = bulk_vault(Path(tmp) / "Bench", args.notes)
        with app.connection() as conn:
            _, key = access.create_key(conn, name="bench", home_scope="vault")
        with live_server(app) as url:
            os.environ["CTX_URL"], os.environ["CTX_API_KEY"] = url, key
            runs = [("first ingest", None), ("nothing changed", None), ("1% edited", 0.01)]
            for label, edit in runs:
                if edit:
                    for i in range(0, args.notes, int(1 / edit)):
                        file = vault / f"area-{i % 20:02d}" / f"note-{i}.md"
                        file.write_text(file.read_text() + "\nEdited.\n", encoding="utf-8")
                progress(f"{label} ...")
                seconds, s = run_ingest(app, [str(vault), *opts])
                rate = s["notes"] / seconds
                rows.append([label, s["notes"], s["sent"], s["chunks"], s["links"],
                             round(seconds, 2), round(rate, 1)])  # fmt: skip
                figures[label] = {"seconds": round(seconds, 2), "notes_per_s": round(rate, 1),
                                  "sent": s["sent"], "chunks": s["chunks"], "links": s["links"]}  # fmt: skip
    print(table(["run", "notes", "sent", "chunks", "links", "seconds", "notes/s"], rows))
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
