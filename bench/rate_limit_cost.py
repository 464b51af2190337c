"""What the per-key rate limits cost a request: the same requests with the limits on (the
defaults) and off (0), interleaved in rounds, same run.

    .venv/bin/python bench/rate_limit_cost.py --requests 400

Starts a private embedded PostgreSQL and ctxd's HTTP app on a loopback port and times
``GET /api/whoami`` (authentication plus the charge and nothing else: the cost shows undiluted)
and ``POST /api/search`` over one keep-alive connection. Prints p50/p95 per setting and the
difference.
"""

from __future__ import annotations

import argparse
import sys
import time

import httpx
from _common import REPO_ROOT, bench_app, bench_environ, table, timing_ms

sys.path.insert(0, str(REPO_ROOT / "tests" / "support"))
from live import live_server

from ctx.core import access
from ctx.core.runtime import set_setting

LIMITS = ("limits.writes_per_minute", "limits.queries_per_minute", "limits.model_calls_per_minute")
ON = {"limits.writes_per_minute": 600, "limits.queries_per_minute": 1_000_000,
      "limits.model_calls_per_minute": 120}  # fmt: skip  # reads on, high enough never to refuse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=400, help="per operation and setting")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    with bench_app(None, bench_environ()) as app:
        with app.connection() as conn:
            _, token = access.create_key(conn, name="bench", home_scope="bench")
        samples: dict[tuple[str, str], list[float]] = {}
        with live_server(app) as url, httpx.Client(base_url=url, timeout=30) as http:
            http.headers["X-Context-Key"] = token
            for i in range(20):
                http.post("/api/store", json={"title": f"Note {i}", "content": f"backup {i}"})
            calls = {
                "whoami": lambda: http.get("/api/whoami"),
                "search": lambda: http.post("/api/search", json={"query": "backup", "limit": 5}),
            }
            per_round = max(1, args.requests // args.rounds)
            for _ in range(args.rounds):
                for setting in ("off", "on"):
                    for key in LIMITS:
                        set_setting(app, key, ON[key] if setting == "on" else 0)
                    for name, call in calls.items():
                        call()  # warm
                        for _ in range(per_round):
                            t0 = time.perf_counter()
                            r = call()
                            samples.setdefault((name, setting), []).append(time.perf_counter() - t0)
                            assert r.status_code == 200, r.text
    rows = []
    for name in ("whoami", "search"):
        off, on = timing_ms(samples[(name, "off")]), timing_ms(samples[(name, "on")])
        rows.append([name, f"{off['p50']:.2f}", f"{on['p50']:.2f}", f"{on['p50'] - off['p50']:+.2f}",
                     f"{off['p95']:.2f}", f"{on['p95']:.2f}"])  # fmt: skip
    print(table(["request", "p50 off ms", "p50 on ms", "p50 cost ms", "p95 off ms", "p95 on ms"],
                rows))  # fmt: skip


if __name__ == "__main__":
    main()
