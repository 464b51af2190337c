"""The everyday path under two strains (issue 34): queries while an embedding backlog waits in the
scope, and the first query after ctxd starts.

1. Backlog: ``--blocks`` blocks are stored into one scope with no worker running (every embed job
   stays queued), then ``--queries`` queries run against that scope; the same queries run again
   after the worker's job has drained the backlog (the idle store). Target: p95 with the backlog
   within 2x of the idle p95 (the query embeds inline only for ``query.inline_embed_ms``, and
   only while at most ``query.inline_embed_max_waiting`` blocks wait).
2. Start: ``ctxd`` runs as a subprocess on a store of a few blocks; the time until ``/health``
   answers and until it says ``ok``; then the first query, sent as soon as ``/health`` answers,
   against the median of the next 20.

    .venv/bin/python bench/backlog.py [--blocks 2000] [--queries 40] [--json]

The embedder is the default one (``embed.provider``, e5 unless set); the database is a private
embedded PostgreSQL in a temporary home.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from _common import bench_app, bench_environ, percentile, principal

from ctx.core import QueryRequest, StoreRequest, access, retrieval, store_block
from ctx.core.runtime import drain

CTXD = str(Path(sys.executable).parent / "ctxd")
TOPICS = ["backup", "deploy", "invoice", "ferry", "garden", "kernel", "budget", "lecture", "router"]
WORDS = [
    "schedule",
    "review",
    "checklist",
    "outage",
    "meeting",
    "release",
    "notes",
    "draft",
    "summary",
    "plan",
    "update",
]


def _text(rng: random.Random) -> tuple[str, str]:
    topic = rng.choice(TOPICS)
    title = f"{topic} {rng.choice(WORDS)} {rng.randrange(10**6)}"
    body = " ".join(rng.choice(WORDS + TOPICS) for _ in range(40))
    return title, body


def _queries(n: int, rng: random.Random) -> list[str]:
    return [f"{rng.choice(TOPICS)} {rng.choice(WORDS)}" for _ in range(n)]


def _timed(app: Any, who: Any, queries: list[str]) -> tuple[list[float], list[int]]:
    took, waiting = [], []
    for text in queries:
        started = time.perf_counter()
        res = retrieval.query(app, who, QueryRequest(query=text, explain=True))
        took.append((time.perf_counter() - started) * 1000)
        notes = next(s.get("notes", {}) for s in res["stages"] if s["name"] == "embed")
        waiting.append(int(notes.get("not_yet_embedded", 0)))
    return took, waiting


def backlog(blocks: int, queries: int) -> dict[str, Any]:
    rng = random.Random(34)
    with bench_app(None, bench_environ()) as app:
        who = principal("bench")
        started = time.perf_counter()
        for _ in range(blocks):
            title, body = _text(rng)
            store_block(app, who, StoreRequest(title=title, content=body))
        stored_s = time.perf_counter() - started
        asked = _queries(queries, rng)
        app.warmup.run()  # as ctxd does at start: the model's loading is not the backlog's cost
        with app.connection() as conn:
            conn.execute("ANALYZE context_blocks")  # as autovacuum would soon after the import
        _timed(app, who, asked)  # one untimed pass: the idle pass below runs on warm caches too
        busy, waiting = _timed(app, who, asked)
        started = time.perf_counter()
        drain(app, "embed")
        drained_s = time.perf_counter() - started
        idle, _ = _timed(app, who, asked)
        budget = int(app.settings["query.inline_embed_ms"])
        most = int(app.settings["query.inline_embed_max_waiting"])
    return {
        "blocks": blocks,
        "queries": queries,
        "inline_embed_ms": budget,
        "inline_embed_max_waiting": most,
        "store_s": round(stored_s, 1),
        "drain_s": round(drained_s, 1),
        "waiting_first": waiting[0],
        "waiting_last": waiting[-1],
        "backlog_p50_ms": round(percentile(busy, 50), 1),
        "backlog_p95_ms": round(percentile(busy, 95), 1),
        "idle_p50_ms": round(percentile(idle, 50), 1),
        "idle_p95_ms": round(percentile(idle, 95), 1),
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(next_queries: int = 20) -> dict[str, Any]:
    home = Path(tempfile.mkdtemp(prefix="ctx-bench-start-"))
    env = bench_environ()
    try:
        with bench_app(None, env, home=str(home)) as app:
            with app.connection() as conn:
                _, key = access.create_key(conn, name="bench", home_scope="default")
            for i in range(20):
                req = StoreRequest(title=f"Ferry note {i}", content=f"the ferry leaves at {i}")
                store_block(app, principal("default"), req)
            drain(app, "embed")
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        child_env = {k: v for k, v in os.environ.items() if not k.startswith("CTX_")}
        child_env.update(env, CTX_HOME=str(home), CTX_LOAD_PLUGINS="")
        spawned = time.perf_counter()
        proc = subprocess.Popen(
            [CTXD, "--host", "127.0.0.1", "--port", str(port)],
            env=child_env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            answering = None
            while answering is None:
                try:
                    status = httpx.get(url + "/health", timeout=2).json()["status"]
                    answering = time.perf_counter() - spawned
                except httpx.HTTPError:
                    if proc.poll() is not None:
                        raise RuntimeError("ctxd stopped") from None
                    time.sleep(0.02)
            headers = {"Authorization": f"Bearer {key}"}
            body = {"query": "when does the ferry leave", "explain": True}

            def ask() -> tuple[float, dict[str, Any]]:
                t = time.perf_counter()
                r = httpx.post(url + "/api/query", json=body, headers=headers, timeout=120)
                r.raise_for_status()
                return (time.perf_counter() - t) * 1000, r.json()

            first_ms, first = ask()
            notes = next(s.get("notes", {}) for s in first["stages"] if s["name"] == "embed")
            ok_s = None
            while ok_s is None:
                if httpx.get(url + "/health", timeout=2).json()["status"] == "ok":
                    ok_s = time.perf_counter() - spawned
            rest = [ask()[0] for _ in range(next_queries)]
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return {
        "health_answers_s": round(answering, 2),
        "health_first_status": status,
        "health_ok_s": round(ok_s, 2),
        "first_query_ms": round(first_ms, 1),
        "first_waited_for_warmup_ms": notes.get("waited_for_warmup_ms"),
        "next_p50_ms": round(percentile(rest, 50), 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--blocks", type=int, default=2000)
    ap.add_argument("--queries", type=int, default=40)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result = {"backlog": backlog(args.blocks, args.queries), "start": start()}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    b, s = result["backlog"], result["start"]
    ratio = b["backlog_p95_ms"] / max(b["idle_p95_ms"], 1e-9)
    print(
        f"backlog of {b['blocks']} blocks (query.inline_embed_ms {b['inline_embed_ms']}, "
        f"inline_embed_max_waiting {b['inline_embed_max_waiting']}): "
        f"p50 {b['backlog_p50_ms']} ms, p95 {b['backlog_p95_ms']} ms; idle store: p50 "
        f"{b['idle_p50_ms']} ms, p95 {b['idle_p95_ms']} ms; p95 ratio {ratio:.2f} (target <= 2); "
        f"waiting {b['waiting_first']} -> {b['waiting_last']} over {b['queries']} queries"
    )
    print(
        f"ctxd start: /health answers after {s['health_answers_s']} s "
        f"({s['health_first_status']}), ok after {s['health_ok_s']} s; first query "
        f"{s['first_query_ms']} ms (waited for warm-up {s['first_waited_for_warmup_ms']} ms), "
        f"next 20 p50 {s['next_p50_ms']} ms"
    )


if __name__ == "__main__":
    main()
