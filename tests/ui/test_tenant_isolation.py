"""Tenant isolation through every interface, each probe proven able to fail.

Two tenants, ``acme`` and ``globex``, store blocks sharing the word "quokka", a blob each, linked
blocks, a Guard flag and a governor thread. globex's key row is stale: it still lists ``acme`` in
its allowed scopes (what a key looks like after a root admin moved a scope to another tenant).
acme shares one block with globex by a block grant.

Every probe (REST, MCP, workbench, CLI, Guard, governor) answers what of the other tenant it saw.
First no probe sees anything of the other tenant. Then the tenant rule is mutated *in the
database* (``ctx_key_read_scopes`` back to the pre-tenant rule: home + allowed scopes; for the
Guard's cross match ``ctx_scope_tenant`` says every scope is the root's), and every probe must
then see acme's data: a probe that stays blind under its mutation proves nothing and fails.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import psycopg
import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from live import live_server
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from web_kit import Browser

from ctx.core import App, access, graph
from ctx.core.cli import run
from ctx.core.guard import run_checks
from ctx.core.runtime import drain
from ctx.ui import create_app

TENANTS = ("acme", "globex")
WORD = "quokka"
BACKUP = (
    "The nightly Postgres backup runs at 02:00 on db-2 and keeps 14 days of WAL archives in "
    "the S3 bucket ctx-backups; restores are tested on the first Monday of each month."
)
TENANCY_SQL = Path(__file__).resolve().parents[2] / "migrations" / "functions" / "ctx_tenancy.sql"

# The pre-tenant rule: a key reads its home scope and its allowed scopes, whoever owns them.
PRE_TENANT_READ_SCOPES = """
CREATE OR REPLACE FUNCTION ctx_key_read_scopes(p_key uuid) RETURNS text[]
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT array_agg(DISTINCT s) FROM context_api_keys k,
                            unnest(ARRAY[k.home_scope] || k.allowed_scopes) s
                      WHERE k.id = p_key), '{}')
$$
"""
# Every scope the root's: the Guard's cross match is no longer confined to the block's tenant.
ONE_TENANT_SCOPES = """
CREATE OR REPLACE FUNCTION ctx_scope_tenant(p_scope text) RETURNS uuid
LANGUAGE sql STABLE AS $$ SELECT ctx_root_tenant() $$
"""


def secret(tenant: str) -> str:
    """A word only this tenant's private blocks, blob and thread contain."""
    return f"{tenant}private"


def h(token: str) -> dict[str, str]:
    return {"X-Context-Key": token}


class World:
    """The two tenants, their data, their keys, and the servers the probes talk to."""

    def __init__(self, app: App, client: TestClient, url: str) -> None:
        self.app, self.client, self.url = app, client, url
        with app.connection() as conn:
            _, root = access.create_key(conn, name="root", home_scope="ops", is_admin=True)
        self.root = h(root)
        self.token: dict[str, str] = {}
        self.ids: dict[str, set[str]] = {t: set() for t in TENANTS}
        self.blobs: dict[str, str] = {}
        for tenant in TENANTS:
            r = client.post("/api/tenants", json={"name": tenant}, headers=self.root)
            assert r.status_code == 201, r.text
            body = {"name": f"{tenant}-member", "home_scope": tenant, "role": "member"}
            r = client.post(f"/api/tenants/{tenant}/keys", json=body, headers=self.root)
            assert r.status_code == 201, r.text
            self.token[tenant] = str(r.json()["api_key"])
        # the stale row: globex's key still lists acme, as after a scope moved tenants
        with app.connection() as conn:
            conn.execute(
                "UPDATE context_api_keys SET allowed_scopes = ARRAY['acme'] WHERE home_scope = %s",
                ("globex",),
            )
        for tenant in TENANTS:
            word = secret(tenant)
            a = self.store(tenant, f"Quokka plan {word}", f"The {WORD} {word} migrates in May.")
            b = self.store(tenant, f"Quokka budget {word}", f"The {WORD} {word} costs 12 euro.")
            if tenant == "acme":  # the note globex will copy
                self.store(tenant, f"Backup {word}", f"{BACKUP} {WORD}", category="ops")
            with app.connection() as conn:
                graph.write_link(conn, a, b, "topical", 0.9)
            blob = {"title": f"Quokka photo {word}", "data": "cXVva2th", "tags": [WORD]}
            r = client.post("/api/blob/store", json=blob, headers=self.headers(tenant))
            assert r.status_code == 200, r.text
            self.blobs[tenant] = str(r.json()["id"])
            r = client.post(
                "/api/governor/prepare",
                json={"thread": {"session_id": f"chat-{tenant}"}, "desk": False,
                      "event": {"content": f"{WORD} meeting notes {word}"}},
                headers=self.headers(tenant),
            )  # fmt: skip
            assert r.status_code == 200, r.text
        # acme copies its own backup note (a Guard flag in acme); globex copies acme's (a
        # near-duplicate across tenants that the Guard must neither match nor cross-match)
        self.acme_copy = self.store("acme", "Backup copy", f"{BACKUP} {WORD}", category="notes")
        self.globex_copy = self.store("globex", "Backup too", f"{BACKUP} {WORD}", category="notes")
        self.ids["globex"].discard(self.globex_copy)  # globex's own block, no marker of acme
        # one block acme shares with globex: retrieval and get by id may show it, nothing else
        self.shared = self.store("acme", "Quokka shared", f"The {WORD} acmeshared note.")
        self.ids["acme"].discard(self.shared)
        r = client.post("/api/tenants/globex/grants", json={"block_id": self.shared},
                        headers=self.root)  # fmt: skip
        assert r.status_code == 201, r.text
        with app.connection() as conn:
            graph.queue_overview(conn)
        for kind in ("embed", "guard", "graph.overview"):
            drain(app, kind)
        self.capsys: pytest.CaptureFixture[str] | None = None
        self.tmp: Path | None = None

    def headers(self, tenant: str) -> dict[str, str]:
        return h(self.token[tenant])

    def store(self, tenant: str, title: str, content: str, category: str = "notes") -> str:
        body = {"title": title, "content": content, "category": category}
        r = self.client.post("/api/store", json=body, headers=self.headers(tenant))
        assert r.status_code == 200, r.text
        block = str(r.json()["id"])
        self.ids[tenant].add(block)
        return block

    def markers(self, tenant: str, shared: bool) -> dict[str, str]:
        """What betrays ``tenant``'s data in a response: ids (whole and as the 8-character
        prefix the CLI and the workbench show), the secret word (in every title and content),
        the blob; with ``shared``, the block acme shares with globex too."""
        found = {secret(tenant): "secret", self.blobs[tenant]: "blob"}
        for block in self.ids[tenant]:
            found[block] = found[block[:8]] = f"block {block}"
        if shared and tenant == "acme":
            found.update({self.shared[:8]: "shared block", "acmeshared": "shared block"})
        return found

    def seen(self, text: str, of: str, shared: bool = True) -> set[str]:
        low = text.lower()
        return {what for marker, what in self.markers(of, shared).items() if marker in low}

    def mcp(self, tenant: str, calls: list[tuple[str, dict[str, Any]]]) -> str:
        async def go() -> str:
            headers = self.headers(tenant)
            async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
                transport = streamable_http_client(self.url + "/mcp", http_client=http)
                async with Client(transport) as c:  # type: ignore[arg-type]
                    out = [await c.call_tool(name, args) for name, args in calls]
            return "\n".join(str(part.text) for r in out for part in r.content)

        return asyncio.run(go())

    def cli(self, argv: list[str]) -> str:
        assert self.capsys is not None
        self.capsys.readouterr()
        code = run(argv, app=self.app)
        out = self.capsys.readouterr()
        assert code == 0, out.err
        return out.out + out.err


@contextmanager
def cli_env(world: World, tenant: str) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CTX_URL", world.url)
        mp.setenv("CTX_API_KEY", world.token[tenant])
        yield


# --- probes: each answers the text a tenant's key got back through one interface -------------


def _post(world: World, tenant: str, path: str, body: dict[str, Any]) -> str:
    r = world.client.post(path, json=body, headers=world.headers(tenant))
    assert r.status_code < 500 and r.json().get("field") is None, r.text  # no bad request
    return r.text


def _get(world: World, tenant: str, path: str, **params: Any) -> str:
    r = world.client.get(path, params=params, headers=world.headers(tenant))
    assert r.status_code < 500, r.text
    return r.text


def _asked(text: str, asked: list[str]) -> str:
    """``text`` without the ids a probe asked for: an error that names the id it was asked for
    reveals nothing; what the block holds (its secret word) still shows."""
    for ident in asked:
        text = text.replace(ident, "<asked>").replace(ident[:8], "<asked>")
    return text


def _other_ids(world: World, tenant: str) -> list[str]:
    other = "acme" if tenant == "globex" else "globex"
    return sorted(world.ids[other])


def p_rest_search(w: World, t: str) -> str:
    return _post(w, t, "/api/search", {"query": WORD, "limit": 50})


def p_rest_query(w: World, t: str) -> str:
    return _post(w, t, "/api/query", {"query": WORD, "limit": 20, "synthesize": False})


def p_rest_manage_get(w: World, t: str) -> str:
    asked = _other_ids(w, t)
    got = "".join(_post(w, t, "/api/manage", {"action": "get", "id": i}) for i in asked)
    return _asked(got, asked)


def p_rest_manage_list(w: World, t: str) -> str:
    return _post(w, t, "/api/manage", {"action": "list", "limit": 200})


def p_rest_manage_counts(w: World, t: str) -> str:
    # counts: the stats and categories count this tenant's blocks only; a count over that, or a count for the other scope, is a leak, told by
    # one of the other tenant's ids
    other = "acme" if t == "globex" else "globex"
    stats = w.client.post("/api/manage", json={"action": "stats"}, headers=w.headers(t)).json()
    cats = w.client.post("/api/manage", json={"action": "categories"}, headers=w.headers(t))
    with w.app.connection() as conn:
        row = conn.execute("SELECT count(*) AS n FROM context_blocks WHERE scope = %s", (t,))
        own = int(row.fetchone()["n"])  # type: ignore[index]
    counted = [int(stats["stats"]["blocks"]), sum(c["blocks"] for c in cats.json()["categories"])]
    leak = max(counted) > own or other in stats["stats"]["by_scope"]
    return json.dumps(stats) + cats.text + (f" {_other_ids(w, t)[0]}" if leak else "")


def p_rest_export(w: World, t: str) -> str:
    return _get(w, t, "/api/export")


def p_rest_blobs(w: World, t: str) -> str:
    other = "acme" if t == "globex" else "globex"
    asked = [w.blobs[other]]
    raw = w.client.get(f"/api/blob/{asked[0]}/raw", headers=w.headers(t))
    by_id = [
        _post(w, t, "/api/blob/fetch", {"id": asked[0]}),
        _post(w, t, "/api/blob/manage", {"action": "get", "id": asked[0]}),
        raw.text,
        raw.headers.get("content-disposition", ""),
    ]
    return "".join(
        [
            _post(w, t, "/api/blob/search", {"tags": [WORD]}),
            _post(w, t, "/api/blob/manage", {"action": "list"}),
            _post(w, t, "/api/blob/manage", {"action": "stats"}),
            _asked("".join(by_id), asked),
        ]
    )


def p_rest_graph(w: World, t: str) -> str:
    asked = _other_ids(w, t)
    ego = [_asked(_get(w, t, "/api/graph/ego", id=i, depth=2), asked) for i in asked]
    return "".join([*ego, _get(w, t, "/api/graph/overview"), _get(w, t, "/api/digest")])


def p_rest_guard(w: World, t: str) -> str:
    return _get(w, t, "/api/guard", all=True) + _get(w, t, "/api/guard/stats")


def p_rest_dream(w: World, t: str) -> str:
    return _get(w, t, "/api/dream/links") + _get(w, t, "/api/dream/stats")


def p_rest_governor(w: World, t: str) -> str:
    """The desk of a prepare, a pin of the other tenant's block, its thread listed or read."""
    other = "acme" if t == "globex" else "globex"
    thread = {"session_id": f"probe-{t}"}
    desk = _post(w, t, "/api/governor/prepare", {
        "thread": thread, "focus": f"{WORD} plan budget", "budget": 4000,
        "event": {"content": f"what about the {WORD}?"}})  # fmt: skip
    pins = [
        w.client.post(
            "/api/governor/protect",
            json={"thread": thread, "items": [{"block_id": i}]},
            headers=w.headers(t),
        )
        for i in _other_ids(w, t)
    ]
    assert all(r.status_code in (200, 403, 404) for r in pins), [r.text for r in pins]
    pinned = " pinned-other-block" if any(r.status_code == 200 for r in pins) else ""
    status = _post(w, t, "/api/governor/status", {"thread": thread})
    theirs = _post(w, t, "/api/governor/status",
                   {"thread": {"session_id": f"chat-{other}", "collection": other}})  # fmt: skip
    threads = _get(w, t, "/api/governor/threads")
    # a pin answers the block's id when it worked: make it a marker of the other tenant
    return desk + status + theirs + threads + (f" {_other_ids(w, t)[0]}" if pinned else "")


def p_rest_whoami(w: World, t: str) -> str:
    who = w.client.get("/api/whoami", headers=w.headers(t)).json()
    other = "acme" if t == "globex" else "globex"
    # reading the other tenant's scope is a leak of all its blocks: say it with one of them
    return json.dumps(who) + (f" {_other_ids(w, t)[0]}" if other in who["read_scopes"] else "")


def p_mcp_retrieval(w: World, t: str) -> str:
    asked = _other_ids(w, t)
    found = w.mcp(t, [("search", {"query": WORD, "limit": 50}),
                      ("query", {"query": WORD, "limit": 20})])  # fmt: skip
    return found + _asked(w.mcp(t, [("get", {"id": i}) for i in asked]), asked)


def p_mcp_listings(w: World, t: str) -> str:
    """recent, stats and timeline: never a granted block; counts by scope name no other scope
    (one of the other tenant's ids tells it)."""
    other = "acme" if t == "globex" else "globex"
    text = w.mcp(t, [("recent", {"limit": 50}), ("stats", {}), ("timeline", {"when": "today"})])
    return text + (f" {_other_ids(w, t)[0]}" if f'"{other}"' in text else "")


def p_web(w: World, t: str) -> str:
    with TestClient(create_app(w.app), raise_server_exceptions=False) as c:
        b = Browser(c, w.token[t])
        b.sign_in()
        pages = ["/", f"/blocks?q={WORD}", "/blocks", "/review", "/graph", "/graph/data/overview"]
        for i in _other_ids(w, t):
            pages += [f"/blocks/{i}", f"/graph/data/ego?id={i}"]
        texts = []
        for page in pages:
            r = b.get(page)
            assert r.status_code < 500, (page, r.text)
            texts.append(r.text)
    return _asked("".join(texts), _other_ids(w, t))


def p_cli_search(w: World, t: str) -> str:
    with cli_env(w, t):
        return w.cli(["search", WORD, "--limit", "50"]) + w.cli(["search", WORD, "--json"])


def p_cli_export(w: World, t: str) -> str:
    assert w.tmp is not None
    out = w.tmp / f"export-{t}-{uuid.uuid4().hex[:6]}.jsonl"
    with cli_env(w, t):
        w.cli(["export", "-o", str(out)])
    return out.read_text()


def p_guard(w: World, t: str) -> str:
    """The Guard job on the tenant's copy of a backup note: the match and the cross match."""
    block = w.globex_copy if t == "globex" else w.acme_copy
    with w.app.connection() as conn:  # due again, as after an edit: the job decides afresh
        conn.execute(
            "UPDATE context_blocks SET guard_status = 'pending', is_archived = false WHERE id = %s",
            (block,),
        )
    decided, deferred = run_checks(w.app, [block])
    assert decided and not deferred, (decided, deferred)
    with w.app.connection() as conn:
        row = conn.execute(
            "SELECT match_id::text AS m, cross_match_id::text AS x FROM context_guard_matches "
            "WHERE block_id = %s",
            (block,),
        ).fetchone()
    assert row is not None
    return f"{row['m']} {row['x']}"


# name -> (probe, may show the granted block, the mutation that must turn it red)
READ_SCOPES = "read_scopes"
SCOPE_TENANT = "scope_tenant"
PROBES: dict[str, tuple[Callable[[World, str], str], bool, str]] = {
    "rest search": (p_rest_search, True, READ_SCOPES),
    "rest query": (p_rest_query, True, READ_SCOPES),
    "rest manage get": (p_rest_manage_get, True, READ_SCOPES),
    "rest manage list": (p_rest_manage_list, False, READ_SCOPES),
    "rest manage stats/categories": (p_rest_manage_counts, False, READ_SCOPES),
    "rest export": (p_rest_export, False, READ_SCOPES),
    "rest blobs": (p_rest_blobs, False, READ_SCOPES),
    "rest graph/digest": (p_rest_graph, False, READ_SCOPES),
    "rest guard": (p_rest_guard, False, READ_SCOPES),
    "rest dream": (p_rest_dream, False, READ_SCOPES),
    "rest governor": (p_rest_governor, True, READ_SCOPES),
    "rest whoami": (p_rest_whoami, False, READ_SCOPES),
    "mcp search/query/get": (p_mcp_retrieval, True, READ_SCOPES),
    "mcp recent/stats/timeline": (p_mcp_listings, False, READ_SCOPES),
    "workbench pages": (p_web, False, READ_SCOPES),
    "cli search": (p_cli_search, True, READ_SCOPES),
    "cli export": (p_cli_export, False, READ_SCOPES),
    "guard match": (p_guard, False, READ_SCOPES),
    "guard cross match": (p_guard, False, SCOPE_TENANT),
}
MUTANTS = {READ_SCOPES: PRE_TENANT_READ_SCOPES, SCOPE_TENANT: ONE_TENANT_SCOPES}

# GET routes under /api without path parameters, by the probe that covers them.
PROBED_ROUTES = {
    "/api/export": "rest export",
    "/api/graph/ego": "rest graph/digest",
    "/api/graph/overview": "rest graph/digest",
    "/api/digest": "rest graph/digest",
    "/api/guard": "rest guard",
    "/api/guard/stats": "rest guard",
    "/api/dream/links": "rest dream",
    "/api/dream/stats": "rest dream",
    "/api/governor/threads": "rest governor",
    "/api/whoami": "rest whoami",
}
# GET routes that show no block data to a tenant key.
ALLOWED_ROUTES = {
    "/api/health",  # liveness, no data
    "/api/version",  # the server's version
    "/api/docs",  # the API documentation page
    "/api/tenants",  # tenant directory: a key sees its own tenant only (test_tenants.py)
    "/api/guard/thresholds",  # numbers per block type and generation, no blocks
    # chats of the key's home scope: not read scopes, so no mutation here turns it red; its
    # isolation is test_chat_sessions_of_a_moved_home_scope_... below
    "/api/chat/sessions",
}
# GET routes for root admin keys only: a tenant key gets 403 (asserted below).
ADMIN_ROUTES = {
    "/api/settings",
    "/api/types",
    "/api/keys",
    "/api/plugins",
    "/api/secrets",
    "/api/llmlog",
    "/api/status",
    "/api/events",
    "/api/backends",
}


@pytest.fixture(scope="module")
def world(
    pg_admin_url: str, template_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[World]:
    """One database, app and servers for the module (the ``app`` fixture is per test)."""
    name = "t_iso_" + uuid.uuid4().hex[:10]
    with psycopg.connect(pg_admin_url, autocommit=True) as conn:
        conn.execute(
            f'CREATE DATABASE "{name}" TEMPLATE "{conninfo_to_dict(template_url)["dbname"]}"'
        )
    params = conninfo_to_dict(pg_admin_url)
    params["dbname"] = name
    url = make_conninfo(**params)  # type: ignore[arg-type]
    app = App(database_url=url, home=tmp_path_factory.mktemp("iso"), load_entry_points=False)
    app.open()
    try:
        with (
            TestClient(create_app(app), raise_server_exceptions=False) as client,
            live_server(app) as base,
        ):
            w = World(app, client, base)
            w.tmp = tmp_path_factory.mktemp("iso-out")
            yield w
    finally:
        app.close()
        with psycopg.connect(pg_admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def mutated(world: World, which: str) -> Iterator[None]:
    """The tenant rule replaced in the database; the file migration restores it after."""
    with world.app.connection() as conn:
        before = conn.execute(
            "SELECT pg_get_functiondef(p.oid) AS d FROM pg_proc p "
            "WHERE p.proname IN ('ctx_key_read_scopes', 'ctx_scope_tenant') ORDER BY p.proname"
        ).fetchall()
        conn.execute(MUTANTS[which])
    try:
        yield
    finally:
        with world.app.connection() as conn:
            conn.execute(TENANCY_SQL.read_text())
            after = conn.execute(
                "SELECT pg_get_functiondef(p.oid) AS d FROM pg_proc p "
                "WHERE p.proname IN ('ctx_key_read_scopes', 'ctx_scope_tenant') "
                "ORDER BY p.proname"
            ).fetchall()
        assert after == before


@pytest.fixture
def broken_filter(world: World) -> Callable[[str], Any]:
    return lambda which: mutated(world, which)


def test_no_probe_sees_the_other_tenant_and_each_goes_red_under_its_mutation(
    world: World,
    broken_filter: Callable[[str], Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    world.capsys = capsys
    leaks: dict[str, set[str]] = {}
    for name, (probe, shared_ok, _) in PROBES.items():
        for tenant, other in (("globex", "acme"), ("acme", "globex")):
            seen = world.seen(probe(world, tenant), other, shared=not shared_ok)
            if seen:
                leaks[f"{name} as {tenant}"] = seen
    assert leaks == {}
    # the grant is seen where it may be: the retrieval probes are not blind to acme's data
    assert "acmeshared" in p_rest_search(world, "globex").lower()
    assert "acmeshared" in p_mcp_retrieval(world, "globex").lower()

    blind: list[str] = []
    for which in MUTANTS:
        with broken_filter(which):
            for name, (probe, shared_ok, mutation) in PROBES.items():
                if mutation != which:
                    continue
                seen = world.seen(probe(world, "globex"), "acme", shared=not shared_ok)
                if not seen - {"shared block"}:
                    blind.append(name)
    assert not blind, f"probes that cannot fail: {blind}"
    # restored: isolation is back
    for name in ("rest search", "guard match", "guard cross match"):
        probe, shared_ok, _ = PROBES[name]
        assert world.seen(probe(world, "globex"), "acme", shared=not shared_ok) == set()


def test_every_data_route_has_a_probe(world: World) -> None:
    gets = {
        route.path
        for route in create_app(world.app).routes
        if isinstance(route, APIRoute)
        and route.path.startswith("/api")
        and "GET" in route.methods
        and "{" not in route.path
    }
    unknown = gets - set(PROBED_ROUTES) - ALLOWED_ROUTES - ADMIN_ROUTES
    assert unknown == set(), "a GET route without a probe or an allow-list entry"
    assert set(PROBED_ROUTES.values()) <= set(PROBES)
    for path in sorted(gets & ADMIN_ROUTES):
        r = world.client.get(path, headers=world.headers("globex"))
        assert r.status_code == 403, (path, r.status_code)
    # the allow-listed routes really show nothing of acme to globex
    for path in sorted(gets & ALLOWED_ROUTES):
        r = world.client.get(path, headers=world.headers("globex"))
        assert r.status_code < 500 and world.seen(r.text, "acme") == set(), path


@pytest.fixture
def moved(app: App, keys: Any, client: TestClient) -> dict[str, dict[str, str]]:
    """A root key of home ``ops``; a root admin cannot move ``ops`` to globex while that key lives
    there, so the row is changed by hand (the stale state a move must never leave); then a globex
    key of home ``ops`` starts a chat there (with globex's secret word)."""
    root = h(keys.make("ops-admin", admin=True))
    old = h(keys.make("ops"))
    assert client.post("/api/tenants", json={"name": "globex"}, headers=root).status_code == 201
    r = client.post("/api/tenants/globex/scopes", json={"scope": "ops", "move": True},
                    headers=root)  # fmt: skip
    assert r.status_code == 409 and "home scope" in r.text, r.text
    with app.connection() as conn:
        conn.execute(
            "INSERT INTO context_tenant_scopes (scope, tenant_id) "
            "SELECT 'ops', id FROM context_tenants WHERE name = 'globex'"
        )
    body = {"name": "globex-ops", "home_scope": "ops", "role": "member"}
    r = client.post("/api/tenants/globex/keys", json=body, headers=root)
    assert r.status_code == 201, r.text
    globex = h(str(r.json()["api_key"]))
    r = client.post(
        "/api/governor/prepare",
        json={"thread": {"session_id": "chat-globex"}, "desk": False,
              "event": {"content": f"{WORD} board meeting {secret('globex')}"}},
        headers=globex,
    )  # fmt: skip
    assert r.status_code == 200, r.text
    # the old key is refused whole ...
    r = client.get("/api/whoami", headers=old)
    assert r.status_code == 403 and "no longer belongs" in r.text, r.text
    # ... and the probe is not blind: globex's own key lists and reads its chat
    for path in ("/api/chat/sessions", "/api/chat/sessions/chat-globex"):
        r = client.get(path, headers=globex)
        assert r.status_code == 200 and secret("globex") in r.text, r.text
    return {"old": old, "globex": globex}


def test_chat_sessions_of_a_moved_home_scope_stay_with_the_new_tenant(
    app: App, client: TestClient, moved: dict[str, dict[str, str]]
) -> None:
    """/api/chat/sessions and /api/chat/sessions/{id} read the key's home scope: a key whose home
    scope now belongs to another tenant is refused whole and sees none of its chats; with the
    pre-tenant rule in the database (the mutation) it would read them."""

    def leaked() -> dict[str, int]:
        return {
            path: r.status_code
            for path in ("/api/chat/sessions", "/api/chat/sessions/chat-globex")
            if secret("globex") in (r := client.get(path, headers=moved["old"])).text
        }

    assert leaked() == {}
    assert client.get("/api/chat/sessions", headers=moved["old"]).status_code == 403
    with app.connection() as conn:  # both guards off: read scopes and home-scope ownership
        conn.execute(PRE_TENANT_READ_SCOPES)
        conn.execute(ONE_TENANT_SCOPES)
    try:
        assert leaked() == {"/api/chat/sessions": 200, "/api/chat/sessions/chat-globex": 200}
    finally:
        with app.connection() as conn:
            conn.execute(TENANCY_SQL.read_text())
