"""What the model stages cost ctx beyond the model itself, against direct calls, same run.

    .venv/bin/python bench/llm_overhead.py --blocks 1000 --calls 100

Starts a private embedded PostgreSQL, ctxd's HTTP app and an OpenAI-compatible peer on loopback
(tests/support/openai_server.py: it answers at once, so what is left is ctx's own work: the gate,
prompt building, the pooled client, citation checks, the call log). Stores ``--blocks`` blocks,
then times ``--calls`` queries each way over one keep-alive connection:

- baseline: ``/api/query`` with sources only, and the same chat / stream / rerank request sent
  straight to the peer with httpx;
- ``/api/query`` with ``synthesize`` (overhead = it - sources only - direct chat);
- ``/api/query/stream``: time to the first token and to the answer (against sources only plus
  the direct stream);
- ``/api/query`` with ``rerank`` (overhead = it - sources only - direct rerank);
- a German query with a translate backend (overhead = it - without one - direct chat).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import httpx
from _common import REPO_ROOT, bench_app, bench_environ, principal

sys.path.insert(0, str(REPO_ROOT / "tests" / "support"))
from live import live_server
from openai_server import OpenAIServer

from ctx.core import StoreRequest, access, llm, store_block
from ctx.core.runtime import drain, set_setting

WORDS = ["backup", "deploy", "outage", "invoice", "schema", "tenant", "cache", "latency",
         "rollout", "index"]  # fmt: skip
ANSWER = "The backup runs nightly [1] and the deploy follows it [2]."


def _p50(samples: list[float]) -> float:
    return round(statistics.median(samples), 2)


def _timed(n: int, call: Callable[[int], Any]) -> list[float]:
    call(0)  # warm
    out = []
    for i in range(n):
        t = time.perf_counter()
        call(i)
        out.append((time.perf_counter() - t) * 1000)
    return out


def _q(i: int) -> str:
    return f"{WORDS[i % 10]} {WORDS[(i + 3) % 10]}"


def _stream(http: httpx.Client, body: dict[str, Any]) -> tuple[float, float]:
    """(ms to the first token event, ms to the answer event)."""
    t = time.perf_counter()
    first = 0.0
    with http.stream("POST", "/api/query/stream", json=body) as r:
        for line in r.iter_lines():
            if line == "event: token" and not first:
                first = (time.perf_counter() - t) * 1000
            if line == "event: answer":
                break
    return first, (time.perf_counter() - t) * 1000


def _direct_stream(peer: OpenAIServer, http: httpx.Client) -> tuple[float, float]:
    t = time.perf_counter()
    first = 0.0
    body = {"model": "m", "messages": [{"role": "user", "content": "x"}], "stream": True}
    with http.stream("POST", peer.base_url + "/v1/chat/completions", json=body) as r:
        for line in r.iter_lines():
            if '"content"' in line and not first:
                first = (time.perf_counter() - t) * 1000
            if line == "data: [DONE]":
                break
    return first, (time.perf_counter() - t) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--blocks", type=int, default=1000)
    ap.add_argument("--calls", type=int, default=100)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    n = args.calls
    f: dict[str, Any] = {"blocks": args.blocks, "calls": n}
    with OpenAIServer() as peer, bench_app(None, bench_environ()) as app:
        peer.chat_default = ANSWER
        with app.connection() as conn:
            _, key = access.create_key(conn, name="bench", home_scope="default")
        who = principal("default")
        for i in range(args.blocks):
            a, b = WORDS[i % 10], WORDS[(i * 7 + 3) % 10]
            store_block(app, who, StoreRequest(
                title=f"{a} {b} note {i}",
                content=f"Note {i} about the {a} and the {b}, written for the model benchmark."))  # fmt: skip
        drain(app, "embed")
        drain(app, "temporal")
        with (
            live_server(app) as url,
            httpx.Client(base_url=url, headers={"X-Context-Key": key}, timeout=60) as http,
            httpx.Client(timeout=60) as direct,
        ):
            chat_body = {"model": "m", "messages": [{"role": "user", "content": "x " * 800}]}
            rerank_body = {"model": "r", "query": "backup deploy",
                           "documents": [f"doc {i} backup" for i in range(50)]}  # fmt: skip

            def api(body: dict[str, Any]) -> Callable[[int], Any]:
                return lambda i: http.post("/api/query", json={"query": _q(i), **body}).json()

            plain = _p50(_timed(n, api({})))
            f["sources_only_p50"] = plain
            f["direct_chat_p50"] = _p50(_timed(n, lambda i: direct.post(
                peer.base_url + "/v1/chat/completions", json=chat_body)))  # fmt: skip
            f["direct_rerank_p50"] = _p50(_timed(n, lambda i: direct.post(
                peer.base_url + "/v1/rerank", json=rerank_body)))  # fmt: skip
            ds = [_direct_stream(peer, direct) for _ in range(n)]
            f["direct_stream_first_p50"] = _p50([d[0] for d in ds])
            f["direct_stream_total_p50"] = _p50([d[1] for d in ds])
            with app.connection() as conn:
                llm.create_backend(conn, app.backend_kinds, "peer", {
                    "kind": "openai", "base_url": peer.base_url, "trust": "full-trust",
                    "roles": ["synthesis", "translate", "rerank"],
                    "model_map": {"default": "m"}})  # fmt: skip
            app.backends.invalidate()
            sample = api({"synthesize": True})(0)
            assert sample.get("answer") and sample["citations"], sample
            f["synthesize_p50"] = _p50(_timed(n, api({"synthesize": True, "limit": 5})))
            f["synthesis_overhead_p50"] = round(
                f["synthesize_p50"] - plain - f["direct_chat_p50"], 2)  # fmt: skip
            streams = [_stream(http, {"query": _q(i), "synthesize": True}) for i in range(n)]
            f["stream_first_token_p50"] = _p50([s[0] for s in streams])
            f["stream_answer_p50"] = _p50([s[1] for s in streams])
            f["rerank_p50"] = _p50(_timed(n, api({"rerank": True})))
            f["rerank_overhead_p50"] = round(f["rerank_p50"] - plain - f["direct_rerank_p50"], 2)
            peer.chat_default = "backup deploy notes"
            german = lambda i: http.post(  # noqa: E731
                "/api/query", json={"query": f"Wie läuft das {WORDS[i % 10]} ab?"}).json()  # fmt: skip
            f["german_translated_p50"] = _p50(_timed(n, german))
            set_setting(app, "query.translate", False)
            f["german_untranslated_p50"] = _p50(_timed(n, german))
            f["translation_overhead_p50"] = round(
                f["german_translated_p50"] - f["german_untranslated_p50"]
                - f["direct_chat_p50"], 2)  # fmt: skip
            with app.connection() as conn:
                f["calls_logged"] = conn.execute(
                    "SELECT count(*) AS n FROM context_llm_log").fetchone()["n"]  # fmt: skip
    if args.json:
        print(json.dumps(f))
    else:
        for k, v in f.items():
            print(f"{k:28} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
