"""What tenancy costs per request (issue 17): resolving a key, light search and fusion, for a key
of a store without tenants (the baseline) and for a tenant key holding scope and block grants.

    .venv/bin/python bench/tenants.py --blocks 5000 --grants 1000

Builds a private embedded PostgreSQL with ``--blocks`` notes in one scope of tenant ``acme``,
``--grants`` of them offered to and accepted by tenant ``globex``, and the same notes in a scope
of the root tenant; then times, side by side in one run:

* authenticate: the SQL that turns a key into a principal (a root key of a tenant-free store vs a
  globex key whose read scopes come through a scope grant);
* light search (``/api/search``'s core call) and fusion (``ctx_rrf``, full-text channels, no
  embedding) for the root key and for the globex key reading the same scope through its grant,
  first with the block grants only offered (the same data: what the tenant machinery costs),
  then accepted (``--grants`` more blocks to rank).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from _common import bench_app, bench_environ, progress, table, timing_ms

from ctx.core import App, access
from ctx.core.blocks import SearchRequest, search_blocks
from ctx.core.retrieval import channel_weights, fuse

QUERIES = ["backup restore", "replica failover", "vacuum latency", "quarterly budget",
           "schema migration", "alert dashboard"]  # fmt: skip
WORDS = ["backup", "restore", "replica", "index", "vacuum", "latency", "budget", "migration", "release", "schema", "queue", "worker", "cluster", "failover", "snapshot", "retention", "archive", "checksum", "metric", "alert", "dashboard", "rollout", "quarterly"]  # fmt: skip


def fill(app: App, scope: str, count: int) -> list[str]:
    """``count`` notes in ``scope`` written in one statement (the write path's hooks are not what
    is measured here)."""
    with app.connection() as conn:
        rows = conn.execute(
            "INSERT INTO context_blocks (scope, category, title, content, block_type, "
            "content_hash) SELECT %s, 'notes', 'note ' || i, "
            "array_to_string(ARRAY(SELECT (%s::text[])[1 + (i * 7 + j * 3) %% %s] "
            "FROM generate_series(1, 40) j), ' '), 'knowledge', md5(i::text) "
            "FROM generate_series(1, %s) i RETURNING id::text",
            (scope, list(WORDS), len(WORDS), count),
        ).fetchall()
    return [r["id"] for r in rows]


def timed(call: Callable[[], Any], rounds: int) -> dict[str, float]:
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return timing_ms(samples)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--blocks", type=int, default=5000)
    ap.add_argument("--grants", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows: list[list[Any]] = []
    figures: dict[str, Any] = {"blocks": args.blocks, "grants": args.grants}
    with bench_app(None, bench_environ()) as app:
        progress("filling ...")
        with app.connection() as conn:
            _, root_token = access.create_key(conn, name="root", home_scope="plain")
            root_admin = access.authenticate(
                conn, access.create_key(conn, name="ops", home_scope="ops", is_admin=True)[1]
            )
            for name in ("acme", "globex"):
                access.tenants.create_tenant(conn, root_admin, name)
            access.tenants.grant_scope(conn, root_admin, "plain", "globex")
            _, acme_token = access.create_key(
                conn, name="acme owner", home_scope="acme", tenant="acme", role="owner"
            )
        fill(app, "plain", args.blocks)
        acme_ids = fill(app, "acme", args.blocks)
        with app.connection() as conn:
            _, globex_token = access.create_key(
                conn, name="globex", home_scope="globex", allowed_scopes=["plain"],
                tenant="globex",
            )  # fmt: skip
            acme_owner = access.authenticate(conn, acme_token)
            for block_id in acme_ids[: args.grants]:  # offered, not accepted yet
                access.tenants.grant_block(conn, acme_owner, block_id, "globex")
            conn.execute("ANALYZE context_blocks")
        with app.connection() as conn:
            root = access.authenticate(conn, root_token)
            globex = access.authenticate(conn, globex_token)
        assert globex.read_scopes == ("globex", "plain"), globex.read_scopes
        keys = {"root key, no grants": (root_token, root),
                "tenant key, scope grant, block grants offered": (globex_token, globex),
                "tenant key, scope grant, block grants accepted": (globex_token, globex)}  # fmt: skip
        for label, (token, who) in keys.items():
            progress(f"{label} ...")
            if label.endswith("accepted"):
                with app.connection() as conn:
                    for block_id in acme_ids[: args.grants]:
                        access.tenants.accept_block(conn, root_admin, "globex", block_id)

            def auth(token: str = token) -> None:
                with app.connection() as conn:
                    access.authenticate(conn, token)

            def search(who: Any = who) -> None:
                for q in QUERIES:
                    search_blocks(app, who, SearchRequest(query=q))

            def fusion(who: Any = who) -> None:
                for q in QUERIES:
                    fuse(app, query=q, scopes=list(who.read_scopes),
                         weights=channel_weights(app, {"dense": 0.0}), tenant=who.tenant_id)  # fmt: skip

            for op, call, per in (("authenticate", auth, 1), ("light search", search, 6),
                                  ("fusion (FTS)", fusion, 6)):  # fmt: skip
                t = timed(call, max(20, args.rounds // per))
                rows.append([label, op, round(t["p50"] / per, 2), round(t["p95"] / per, 2)])
                figures[f"{label}: {op}"] = {"p50_ms": round(t["p50"] / per, 2),
                                             "p95_ms": round(t["p95"] / per, 2)}  # fmt: skip
    print(table(["key", "operation", "p50 ms (per call)", "p95 ms (per call, batch)"], rows))
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
