"""What MCP costs over the REST API: the same operations through ``/mcp`` and ``/api``, same run.

    .venv/bin/python bench/mcp_overhead.py --blocks 2000 --calls 200

Starts a private embedded PostgreSQL and ctxd's HTTP app on a loopback port, stores ``--blocks``
blocks, then times ``--calls`` calls each of light search and the full query, over the official
MCP client (streamable HTTP, stateless, one connection) and over plain HTTP (httpx, one
keep-alive connection) as the baseline. Prints p50/p95 per path and MCP's overhead.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from typing import Any

import httpx
import httpx2
from _common import REPO_ROOT, bench_app, bench_environ, principal

sys.path.insert(0, str(REPO_ROOT / "tests" / "support"))
from live import live_server
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from ctx.core import StoreRequest, access, store_block

WORDS = [
    "backup",
    "deploy",
    "outage",
    "invoice",
    "schema",
    "tenant",
    "cache",
    "latency",
    "rollout",
    "index",
]


def _pcts(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[int(len(ordered) * 0.95) - 1], 2),
    }


async def _mcp(url: str, key: str, calls: list[tuple[str, dict[str, Any]]]) -> list[float]:
    times = []
    async with (
        httpx2.AsyncClient(headers={"X-Context-Key": key}, timeout=60) as http,
        Client(streamable_http_client(url + "/mcp", http_client=http)) as client,
    ):
        await client.call_tool(*calls[0])  # warm
        for name, args in calls:
            t = time.perf_counter()
            result = await client.call_tool(name, args)
            times.append((time.perf_counter() - t) * 1000)
            assert not result.is_error, result.content
    return times


def _rest(url: str, key: str, calls: list[tuple[str, dict[str, Any]]]) -> list[float]:
    times = []
    with httpx.Client(base_url=url, headers={"X-Context-Key": key}, timeout=60) as http:
        http.post("/api/" + calls[0][0], json=calls[0][1])
        for name, args in calls:
            t = time.perf_counter()
            http.post("/api/" + name, json=args).raise_for_status()
            times.append((time.perf_counter() - t) * 1000)
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--blocks", type=int, default=2000)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    figures: dict[str, Any] = {"blocks": args.blocks, "calls": args.calls}
    with bench_app(None, bench_environ()) as app:
        with app.connection() as conn:
            _, key = access.create_key(conn, name="bench", home_scope="default")
        who = principal("default")
        for i in range(args.blocks):
            a, b = WORDS[i % len(WORDS)], WORDS[(i * 7 + 3) % len(WORDS)]
            body = f"Note {i} about the {a} and the {b}, written for the MCP benchmark."
            store_block(app, who, StoreRequest(title=f"{a} {b} note {i}", content=body))
        with live_server(app) as url:
            for op in ("search", "query"):
                calls = [
                    (op, {"query": f"{WORDS[i % 10]} {WORDS[(i + 3) % 10]}"})
                    for i in range(args.calls)
                ]
                rest = _rest(url, key, calls)
                mcp = asyncio.run(_mcp(url, key, calls))
                r, m = _pcts(rest), _pcts(mcp)
                figures[op] = {
                    "rest": r,
                    "mcp": m,
                    "overhead_p50_ms": round(m["p50"] - r["p50"], 2),
                }
    if args.json:
        print(json.dumps(figures))
    else:
        for op in ("search", "query"):
            f = figures[op]
            print(
                f"{op:6} REST p50 {f['rest']['p50']:7.2f} p95 {f['rest']['p95']:7.2f} ms | "
                f"MCP p50 {f['mcp']['p50']:7.2f} p95 {f['mcp']['p95']:7.2f} ms | "
                f"overhead p50 {f['overhead_p50_ms']:+.2f} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
