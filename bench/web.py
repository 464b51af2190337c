"""Server time of every workbench page on a LoCoMo-sized store (target: under 100 ms each).

Loads the LoCoMo conversations of ``--data`` (each one a scope, each turn a block with its
session date, like bench/locomo.py), gives every block a random unit vector (the pages do not
depend on what the vectors mean; the query vector of the Ask page comes from a fixed table, so
no model runs in the timed path), and links every turn to its next two turns (topical links,
so the graph pages have a network to draw). Then it signs in with an admin key that reads every
conversation and requests each page ``--rounds`` times through the ASGI app in process. The
time measured is the server's: from the request entering the app to the last body byte leaving
it. Baselines in the same run: ``/health`` (the cheapest route) and the JSON API call that reads
the same data as the blocks page (``POST /api/manage`` list).

    .venv/bin/python bench/web.py
    .venv/bin/python bench/web.py --rounds 50 --json

With ``--json`` the last line printed is one JSON object with every number.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

import numpy as np
from _common import (
    REPO_ROOT,
    FixedQueryEmbedder,
    bench_app,
    bench_environ,
    progress,
    table,
    timing_ms,
    use_embedder,
)
from fastapi.testclient import TestClient
from locomo_data import load, title_for

from ctx.core import App, access, graph
from ctx.core.embed import active_generation
from ctx.core.runtime import drain
from ctx.ui import create_app

DEFAULT_DATA = REPO_ROOT.parent / "shared" / "eval" / "locomo-dev.json"
TARGET_MS = 100.0
CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"')
SIGNIN_RE = re.compile(r'name="signin_token" value="([^"]+)"')

Scope = MutableMapping[str, Any]
ASGI = Callable[[Scope, Any, Any], Awaitable[None]]


class ServerClock:
    """ASGI wrapper that records each request's time inside the app, by path."""

    def __init__(self, app: ASGI) -> None:
        self.app = app
        self.last: float = 0.0

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        try:
            await self.app(scope, receive, send)
        finally:
            self.last = time.perf_counter() - started


def load_store(app: App, data: Path) -> dict[str, Any]:
    convs = load(data)
    rows = []
    for conv in convs:
        for turn in conv.turns:
            content = f"{turn.speaker}: {turn.text}"
            rows.append(
                (
                    str(uuid.uuid4()),
                    conv.scope,
                    f"locomo/session-{turn.session}",
                    title_for(turn, "speaker-date"),
                    content,
                    "knowledge",
                    hashlib.sha256(content.encode()).hexdigest(),
                    turn.when,
                    ["locomo", turn.speaker.lower()],
                )
            )
    with app.connection() as conn:
        gen = active_generation(conn)
    assert gen is not None
    with app.db.connect_raw(autocommit=True) as conn:
        with (
            conn.cursor() as cur,
            cur.copy(
                "COPY context_blocks (id, scope, category, title, content, block_type, "
                "content_hash, occurred_at, tags) FROM STDIN"
            ) as copy,
        ):
            for r in rows:
                copy.write_row(r)
        conn.execute("SELECT setseed(0.42)")
        conn.execute(
            "INSERT INTO context_block_embeddings (block_id, generation, content_hash, embedding) "
            "SELECT b.id, %s, b.content_hash, l2_normalize(ARRAY(SELECT random_normal() "
            "FROM generate_series(1, %s) WHERE b.id IS NOT NULL)::vector)::halfvec "
            "FROM context_blocks b",
            (gen["id"], gen["dimensions"]),
        )
        conn.execute("SELECT ctx_embedding_index(p_generation => %s)", (gen["id"],))
        # each turn -> its next two turns in the same conversation: a network for the graph
        conn.execute(
            "INSERT INTO context_links (source_id, target_id, link_type, confidence, status) "
            "SELECT id, next_id, 'topical', 0.8, 'active' FROM ("
            "  SELECT id, lead(id, 1) OVER w AS n1, lead(id, 2) OVER w AS n2 FROM context_blocks "
            "  WINDOW w AS (PARTITION BY scope ORDER BY occurred_at, title)) x, "
            "  unnest(ARRAY[n1, n2]) AS next_id "
            "WHERE next_id IS NOT NULL ON CONFLICT DO NOTHING"
        )
        conn.execute("ANALYZE")
    scopes = [c.scope for c in convs]
    with app.connection() as conn:
        links = int(conn.execute("SELECT count(*) AS n FROM context_links").fetchone()["n"])
        graph.queue_overview(conn)
    drain(app, "graph.overview")  # the cluster map the overview page reads, as the worker builds it
    with app.connection() as conn:
        clusters = conn.execute("SELECT count(*) AS n FROM context_graph_clusters").fetchone()["n"]
    return {"conversations": len(convs), "blocks": len(rows), "links": links, "scopes": scopes,
            "clusters": int(clusters), "dimensions": int(gen["dimensions"])}  # fmt: skip


def sign_in(client: TestClient, key: str) -> str:
    page = client.get("/signin")
    token = SIGNIN_RE.search(page.text)
    assert token, "no sign-in form"
    answer = client.post("/signin", data={"api_key": key, "signin_token": token.group(1)},
                         follow_redirects=False)  # fmt: skip
    assert answer.status_code == 303, answer.text
    found = CSRF_RE.search(client.get("/").text)
    assert found, "signed in, but no CSRF token on the dashboard"
    return found.group(1)


def pages(app: App, scopes: list[str]) -> list[tuple[str, str, dict[str, Any]]]:
    """(label, method + path, options) of every page and data endpoint to time."""
    with app.connection() as conn:
        row = conn.execute(
            "SELECT b.id, b.category FROM context_blocks b JOIN context_links l "
            "ON l.source_id = b.id WHERE b.scope = %s ORDER BY b.occurred_at DESC LIMIT 1",
            (scopes[0],),
        ).fetchone()
    block, category = str(row["id"]), row["category"]
    return [
        ("dashboard", "GET /", {}),
        ("blocks: newest", "GET /blocks", {}),
        ("blocks: next page", "GET /blocks?before=CURSOR", {}),
        ("blocks: search", "GET /blocks?q=adoption+agency", {}),
        ("blocks: facet", f"GET /blocks?category={category}&scope={scopes[1]}", {}),
        ("blocks: htmx results", "GET /blocks?q=painting", {"htmx": "results"}),
        ("block detail", f"GET /blocks/{block}", {}),
        ("block edit form", f"GET /blocks/{block}/edit", {}),
        ("ask (no model)", "GET /ask?q=When+did+Caroline+go+to+the+support+group%3F", {}),
        ("chat", "GET /chat", {}),
        ("graph page", f"GET /graph?focus={block}", {}),
        ("graph data: ego", f"GET /graph/data/ego?focus={block}", {}),
        ("graph data: overview", "GET /graph/data/overview", {}),
        ("review", "GET /review", {}),
        ("admin", "GET /admin", {}),
        ("admin: settings", "GET /admin/settings", {}),
        ("admin: backends", "GET /admin/backends", {}),
        ("admin: keys", "GET /admin/keys", {}),
        ("admin: types", "GET /admin/types", {}),
        ("admin: plugins", "GET /admin/plugins", {}),
        ("admin: secrets", "GET /admin/secrets", {}),
        ("admin: llm log", "GET /admin/llmlog", {}),
    ]


def cursor_of(html: str) -> str | None:
    found = re.search(r'before=([^"&]+)', html)
    return found.group(1) if found else None


def time_pages(app: App, info: dict[str, Any], rounds: int) -> dict[str, Any]:
    clock = ServerClock(create_app(app))
    with app.connection() as conn:
        _, key = access.create_key(conn, name="bench-web", home_scope=info["scopes"][0],
                                   allowed_scopes=info["scopes"][1:], is_admin=True)  # fmt: skip
    rng = np.random.default_rng(7)

    def vectors(text: str) -> Any:
        v = rng.standard_normal(info["dimensions"]).astype(np.float32)
        return v / np.linalg.norm(v)

    with app.connection() as conn:
        gen = active_generation(conn)
    assert gen is not None
    use_embedder(app, FixedQueryEmbedder("fixed", "random", info["dimensions"], {}, vectors))
    results: dict[str, Any] = {}
    with TestClient(clock, raise_server_exceptions=False) as client:  # type: ignore[arg-type]
        csrf = sign_in(client, key)
        first = client.get("/blocks").text
        cursor = cursor_of(first) or ""
        api_headers = {"X-Context-Key": key}
        timed: list[tuple[str, Callable[[], Any]]] = [
            ("baseline: /health", lambda: client.get("/health")),
            ("baseline: POST /api/manage list", lambda: client.post(
                "/api/manage", json={"action": "list", "limit": 50}, headers=api_headers)),
        ]  # fmt: skip
        for label, target, opts in pages(app, info["scopes"]):
            _, path = target.split(" ", 1)
            path = path.replace("CURSOR", cursor)
            headers = {"HX-Request": "true", "HX-Target": opts["htmx"]} if opts.get("htmx") else {}
            timed.append((label, lambda p=path, h=headers: client.get(p, headers=h)))
        for label, call in timed:
            samples, statuses = [], set()
            for i in range(rounds + 3):
                answer = call()
                statuses.add(answer.status_code)
                if i >= 3:  # warm-up: first template compile, caches
                    samples.append(clock.last)
            results[label] = {**timing_ms(samples), "status": sorted(statuses)}
            progress(f"{label}: p50 {results[label]['p50']:.1f} ms {sorted(statuses)}")
        del csrf
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--database-url", default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    env = bench_environ()
    with bench_app(args.database_url, env) as app:
        t0 = time.perf_counter()
        info = load_store(app, args.data)
        progress(f"loaded {info['blocks']} blocks, {info['links']} links in "
                 f"{time.perf_counter() - t0:.1f}s")  # fmt: skip
        results = time_pages(app, info, args.rounds)
    rows = []
    for label, r in results.items():
        ok = all(s < 400 for s in r["status"])
        verdict = "baseline" if label.startswith("baseline") else (
            "ok" if r["p95"] < TARGET_MS and ok else "MISSED")  # fmt: skip
        rows.append([label, f"{r['p50']:.1f}", f"{r['p95']:.1f}",
                     ",".join(map(str, r["status"])), verdict])  # fmt: skip
    print(f"web pages: {info['blocks']} blocks in {info['conversations']} scopes, "
          f"{info['links']} links, {info['clusters']} clusters; {args.rounds} rounds each; server time in ms "
          f"(target p95 < {TARGET_MS:.0f})")  # fmt: skip
    print(table(["page", "p50 ms", "p95 ms", "status", "verdict"], rows))
    if args.json:
        print(json.dumps({"store": {k: v for k, v in info.items() if k != "scopes"},
                          "rounds": args.rounds, "pages": results}))  # fmt: skip


if __name__ == "__main__":
    main()
