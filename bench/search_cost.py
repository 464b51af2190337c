"""What ``/api/search`` costs beyond its SQL: the route's p50 against a plain full-text query.

A store of ``--blocks`` notes (English words drawn by frequency, as ``bench/latency.py`` makes
them) in one scope; ``--queries`` two-word queries, each asked three ways, interleaved:

- ``plain SQL``: ``websearch_to_tsquery`` + ``ts_rank_cd`` over the same rows, top 10, on a held
  connection (the floor: what the database must do);
- ``search_blocks``: the service function in process (its SQL with scopes, grants, snippets);
- ``/api/search``: the whole route over HTTP with a key (authentication, rate limit, validation,
  JSON), keep-alive.

Target (issue 34): the route's p50 <= 3x the plain query's, at 1,000 and at 10,000 blocks.

    .venv/bin/python bench/search_cost.py --blocks 1000
    .venv/bin/python bench/search_cost.py --blocks 10000
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import httpx
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from _common import bench_app, bench_environ, principal
from live import live_server
from synthetic import ENGLISH_WORDS

from ctx.core import StoreRequest, access, store_block
from ctx.core.blocks import SearchRequest, search_blocks

PLAIN = """
SELECT id, ts_rank_cd(ts_en, q) AS score
  FROM context_blocks, websearch_to_tsquery('english', %s) q
 WHERE ts_en @@ q ORDER BY score DESC LIMIT 10
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--blocks", type=int, default=1000)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rng = np.random.default_rng(7)
    words = np.array(ENGLISH_WORDS)
    weights = 1 / np.arange(1, len(words) + 1)
    weights /= weights.sum()
    env = bench_environ({"CTX_LIMITS_QUERIES_PER_MINUTE": "0"})
    with bench_app(None, env) as app:
        who = principal("default")
        for i in range(args.blocks):
            text = " ".join(rng.choice(words, size=int(rng.integers(40, 160)), p=weights))
            store_block(app, who, StoreRequest(title=f"note {i}", content=text))
        with app.connection() as conn:
            _, key = access.create_key(conn, name="bench", home_scope="default")
            conn.execute("ANALYZE context_blocks")
        queries = [" ".join(rng.choice(words[:400], size=2)) for _ in range(args.queries)]
        times: dict[str, list[float]] = {"plain SQL": [], "search_blocks": [], "/api/search": []}
        with live_server(app) as url, httpx.Client(base_url=url) as client:
            headers = {"X-Context-Key": key}
            with app.connection() as conn:
                for q in queries[:5]:  # warm every path once
                    conn.execute(PLAIN, (q,)).fetchall()
                    search_blocks(app, who, SearchRequest(query=q))
                    client.post("/api/search", json={"query": q}, headers=headers)
                for q in queries:
                    t = time.perf_counter()
                    conn.execute(PLAIN, (q,)).fetchall()
                    times["plain SQL"].append(time.perf_counter() - t)
                    t = time.perf_counter()
                    search_blocks(app, who, SearchRequest(query=q))
                    times["search_blocks"].append(time.perf_counter() - t)
                    t = time.perf_counter()
                    answer = client.post("/api/search", json={"query": q}, headers=headers)
                    times["/api/search"].append(time.perf_counter() - t)
                    assert answer.status_code == 200, answer.text
    p50 = {k: statistics.median(v) * 1000 for k, v in times.items()}
    ratio = p50["/api/search"] / p50["plain SQL"]
    figures = {"blocks": args.blocks, "queries": args.queries, "p50_ms": p50, "ratio": ratio}
    if args.json:
        print(json.dumps(figures))
    else:
        for name, value in p50.items():
            print(f"{name:15} p50 {value:8.2f} ms  ({value / p50['plain SQL']:.2f}x plain SQL)")
        verdict = "met" if ratio <= 3 else "missed"
        print(f"target /api/search p50 <= 3x plain SQL: {ratio:.2f}x, {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
