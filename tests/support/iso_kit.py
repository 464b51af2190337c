"""The two-tenant world of the isolation tests, the database mutations that break the tenant and
scope rules, and the registries the probes are generated from (every HTTP route, MCP tool and CLI
command the product has).

``acme`` and ``globex`` store blocks sharing the word "quokka", a blob each, linked blocks, a
Guard flag and a governor thread. globex's key row is stale: it still lists ``acme`` in its allowed
scopes (what a key looks like after a root admin moved a scope to another tenant). acme shares one
block with globex by a block grant. Inside acme, the scopes ``alpha`` and ``beta`` each hold a
block of their own, read by keys of those home scopes that share nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import psycopg
import pytest
import typer
from backend_kit import add_backend
from fastapi import FastAPI
from fastapi.testclient import TestClient
from live import live_server
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from openai_server import OpenAIServer
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from starlette.routing import Mount

from ctx.core import App, access, graph
from ctx.core.runtime import drain
from ctx.ui import create_app
from ctx.ui.cli import build_cli, run

TENANTS = ("acme", "globex")
SCOPES = ("alpha", "beta")  # two scopes of acme, for the scope (not tenant) probes
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
# A key reads every scope of its tenant: the scope filter inside one tenant is gone.
EVERY_SCOPE_OF_THE_TENANT = """
CREATE OR REPLACE FUNCTION ctx_key_read_scopes(p_key uuid) RETURNS text[]
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT array_agg(DISTINCT s.scope ORDER BY s.scope)
                       FROM context_api_keys k
                       JOIN (SELECT scope, tenant_id FROM context_tenant_scopes
                             UNION SELECT home_scope, tenant_id FROM context_api_keys) s
                         ON s.tenant_id = k.tenant_id
                      WHERE k.id = p_key AND k.tenant_id IS NOT NULL), '{}')
$$
"""
READ_SCOPES = "read_scopes"
SCOPE_TENANT = "scope_tenant"
EVERY_SCOPE = "every_scope"
MUTANTS = {
    READ_SCOPES: PRE_TENANT_READ_SCOPES,
    SCOPE_TENANT: ONE_TENANT_SCOPES,
    EVERY_SCOPE: EVERY_SCOPE_OF_THE_TENANT,
}


def secret(owner: str) -> str:
    """A word only this tenant's (or scope's) private blocks, blob and thread contain."""
    return f"{owner}private"


def h(token: str) -> dict[str, str]:
    return {"X-Context-Key": token}


def other_of(who: str) -> str:
    pairs = {"acme": "globex", "globex": "acme", "alpha": "beta", "beta": "alpha"}
    return pairs[who]


class World:
    """The two tenants, their data, their keys, and the servers the probes talk to."""

    def __init__(self, app: App, client: TestClient, url: str, peer: OpenAIServer) -> None:
        self.app, self.client, self.url, self.peer = app, client, url, peer
        with app.connection() as conn:
            _, root = access.create_key(conn, name="root", home_scope="ops", is_admin=True)
        self.root = h(root)
        self.token: dict[str, str] = {}
        self.ids: dict[str, set[str]] = {t: set() for t in (*TENANTS, *SCOPES)}
        self.blobs: dict[str, str] = {}
        for tenant in TENANTS:
            r = client.post("/api/tenants", json={"name": tenant}, headers=self.root)
            assert r.status_code == 201, r.text
            self.token[tenant] = self.tenant_key(tenant, tenant)
        for scope in SCOPES:  # acme's two scopes; their keys share nothing
            r = client.post("/api/tenants/acme/scopes", json={"scope": scope}, headers=self.root)
            assert r.status_code in (200, 201), r.text
            self.token[scope] = self.tenant_key("acme", scope)
        # the stale row: globex's key still lists acme, as after a scope moved tenants
        with app.connection() as conn:
            conn.execute(
                "UPDATE context_api_keys SET allowed_scopes = ARRAY['acme'] WHERE home_scope = %s",
                ("globex",),
            )
        self.links: dict[str, tuple[str, str]] = {}
        self.issues: dict[str, int] = {}
        for owner in (*TENANTS, *SCOPES):
            word = secret(owner)
            a = self.store(owner, f"Quokka plan {word}", f"The {WORD} {word} migrates in May.")
            b = self.store(owner, f"Quokka budget {word}", f"The {WORD} {word} costs 12 euro.")
            self.links[owner] = (a, b)
            if owner == "acme":  # the note globex will copy
                self.store(owner, f"Backup {word}", f"{BACKUP} {WORD}", category="ops")
            with app.connection() as conn:
                graph.write_link(conn, a, b, "topical", 0.9)
            if owner in SCOPES:
                continue
            blob = {"title": f"Quokka photo {word}", "data": "cXVva2th", "tags": [WORD]}
            r = client.post("/api/blob/store", json=blob, headers=self.headers(owner))
            assert r.status_code == 200, r.text
            self.blobs[owner] = str(r.json()["id"])
            r = client.post(
                "/api/governor/prepare",
                json={"thread": {"session_id": f"chat-{owner}"}, "desk": False,
                      "event": {"content": f"{WORD} meeting notes {word}"}},
                headers=self.headers(owner),
            )  # fmt: skip
            assert r.status_code == 200, r.text
            issue = {"title": f"Quokka issue {word}", "body": f"The {WORD} {word} is stuck."}
            r = client.post("/api/issues", json=issue, headers=self.headers(owner))
            assert r.status_code == 201, r.text
            self.issues[owner] = int(r.json()["number"])
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
        add_backend(app, peer, ["chat"])  # the LLM the chat, query and gateway probes reach
        self.capsys: pytest.CaptureFixture[str] | None = None
        self.tmp: Path | None = None

    def tenant_key(self, tenant: str, home: str) -> str:
        body = {"name": f"{home}-member", "home_scope": home, "role": "member"}
        r = self.client.post(f"/api/tenants/{tenant}/keys", json=body, headers=self.root)
        assert r.status_code == 201, r.text
        return str(r.json()["api_key"])

    def headers(self, who: str) -> dict[str, str]:
        return h(self.token[who])

    def store(self, owner: str, title: str, content: str, category: str = "notes") -> str:
        body = {"title": title, "content": content, "category": category}
        r = self.client.post("/api/store", json=body, headers=self.headers(owner))
        assert r.status_code == 200, r.text
        block = str(r.json()["id"])
        self.ids[owner].add(block)
        return block

    def markers(self, owner: str, shared: bool) -> dict[str, str]:
        """What betrays ``owner``'s data in a response: ids (whole and as the 8-character
        prefix the CLI and the workbench show), the secret word (in every title and content),
        the blob; with ``shared``, the block acme shares with globex too."""
        found = {secret(owner): "secret"}
        if owner in self.blobs:
            found[self.blobs[owner]] = "blob"
        for block in self.ids[owner]:
            found[block] = found[block[:8]] = f"block {block}"
        if shared and owner == "acme":
            found.update({self.shared[:8]: "shared block", "acmeshared": "shared block"})
        return found

    def seen(self, text: str, of: str, shared: bool = True) -> set[str]:
        low = text.lower()
        return {what for marker, what in self.markers(of, shared).items() if marker in low}

    def other_ids(self, who: str) -> list[str]:
        return sorted(self.ids[other_of(who)])

    def snapshot(self, owner: str) -> str:
        """A digest of everything ``owner`` holds: a write aimed at it must leave it equal."""
        with self.app.connection() as conn:
            rows = conn.execute(
                "SELECT (SELECT coalesce(string_agg(b::text, '|' ORDER BY b.id), '') "
                "          FROM context_blocks b WHERE scope = %(s)s) AS blocks, "
                "       (SELECT coalesce(string_agg(l::text, '|' ORDER BY l.id), '') "
                "          FROM context_links l JOIN context_blocks b "
                "            ON b.id IN (l.source_id, l.target_id) WHERE b.scope = %(s)s) AS links, "
                "       (SELECT coalesce(string_agg(m::text, '|' ORDER BY m.id), '') "
                "          FROM context_eval_marks m WHERE scope = %(s)s) AS marks",
                {"s": owner},
            ).fetchone()
        return hashlib.sha256(json.dumps(rows, default=str).encode()).hexdigest()

    def mcp(self, who: str, calls: list[tuple[str, dict[str, Any]]]) -> str:
        async def go() -> str:
            async with httpx2.AsyncClient(headers=self.headers(who), timeout=60) as http:
                transport = streamable_http_client(self.url + "/mcp", http_client=http)
                async with Client(transport) as c:  # type: ignore[arg-type]
                    out = []
                    for name, args in calls:
                        try:  # a protocol error is a refusal too: its message is the answer
                            r = await c.call_tool(name, args)
                        except MCPError as exc:
                            out.append(f"error: {exc}")
                            continue
                        out.append("".join(str(p.text) for p in r.content))  # type: ignore[union-attr]
            return "\n".join(out)

        return asyncio.run(go())

    def mcp_tools(self) -> set[str]:
        """The tools the live MCP server lists to a tenant key."""

        async def go() -> set[str]:
            async with httpx2.AsyncClient(headers=self.headers("globex"), timeout=60) as http:
                transport = streamable_http_client(self.url + "/mcp", http_client=http)
                async with Client(transport) as c:  # type: ignore[arg-type]
                    return {t.name for t in (await c.list_tools()).tools}

        return asyncio.run(go())

    def cli(self, argv: list[str], ok: bool = True) -> str:
        assert self.capsys is not None
        self.capsys.readouterr()
        code = run(argv, app=self.app)
        out = self.capsys.readouterr()
        assert code == 0 or not ok, out.err
        return out.out + out.err


@contextmanager
def cli_env(world: World, who: str) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CTX_URL", world.url)
        mp.setenv("CTX_API_KEY", world.token[who])
        if world.tmp is not None:  # files a command saves (blob get) land there, not in the repo
            mp.chdir(world.tmp)
        yield


@contextmanager
def world_database(
    pg_admin_url: str, template_url: str, tmp: pytest.TempPathFactory, peer: OpenAIServer
) -> Iterator[World]:
    """One database, app and servers (the ``app`` fixture is per test; a World is per module)."""
    name = "t_iso_" + uuid.uuid4().hex[:10]
    with psycopg.connect(pg_admin_url, autocommit=True) as conn:
        conn.execute(
            f'CREATE DATABASE "{name}" TEMPLATE "{conninfo_to_dict(template_url)["dbname"]}"'
        )
    params = conninfo_to_dict(pg_admin_url)
    params["dbname"] = name
    url = make_conninfo(**params)  # type: ignore[arg-type]
    app = App(database_url=url, home=tmp.mktemp("iso"), load_entry_points=False)
    app.open()
    try:
        with (
            TestClient(create_app(app), raise_server_exceptions=False) as client,
            live_server(app) as base,
        ):
            w = World(app, client, base, peer)
            w.tmp = tmp.mktemp("iso-out")
            yield w
    finally:
        app.close()
        with psycopg.connect(pg_admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def mutated(world: World, which: str) -> Iterator[None]:
    """A tenant or scope rule replaced in the database; the file migration restores it after."""

    def defs() -> list[Any]:
        with world.app.connection() as conn:
            return conn.execute(
                "SELECT pg_get_functiondef(p.oid) AS d FROM pg_proc p WHERE p.proname IN "
                "('ctx_key_read_scopes', 'ctx_scope_tenant') ORDER BY p.proname"
            ).fetchall()

    before = defs()
    with world.app.connection() as conn:
        conn.execute(MUTANTS[which])
    try:
        yield
    finally:
        with world.app.connection() as conn:
            conn.execute(TENANCY_SQL.read_text())
        assert defs() == before


# --- the registries: what the product serves, as it serves it ------------------------------------


#: a path parameter's convertor (``{number:int}``), which the declarations do not write
CONVERTOR = re.compile(r"\{(\w+):\w+\}")


def http_routes(server: FastAPI) -> dict[str, set[str]]:
    """``"METHOD /path"`` of every HTTP route of ``server``, by surface: ``gateway`` (mounted
    apps), ``mcp`` and ``http`` (the rest: REST, OAuth, workbench, plugin routes)."""
    found: dict[str, set[str]] = {"http": set(), "gateway": set(), "mcp": set()}

    def walk(routes: list[Any], prefix: str, surface: str) -> None:
        for route in routes:
            contexts: Callable[[], Iterator[Any]] | None = getattr(
                route, "effective_route_contexts", None
            )
            if contexts is not None:  # an included router: its routes as served
                walk(list(contexts()), prefix, surface)
            elif isinstance(route, Mount):
                if isinstance(route.app, FastAPI):
                    walk(list(route.app.routes), prefix + route.path, "gateway")
            elif route.path == "/mcp":
                found["mcp"].add(route.path)
            else:
                methods = set(getattr(route, "methods", None) or ()) - {"HEAD", "OPTIONS"}
                path = CONVERTOR.sub(r"{\1}", route.path)  # {number:int} is {number} declared
                found[surface] |= {f"{m} {prefix}{path}" for m in methods}

    walk(list(server.routes), "", "http")
    return found


def cli_commands(app: App) -> set[str]:
    """Every leaf command of the ``ctx`` CLI, as typed (``"guard list"``)."""
    out: set[str] = set()

    def walk(command: Any, path: list[str]) -> None:
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, [*path, name])
        else:
            out.add(" ".join(path))

    walk(typer.main.get_command(build_cli(app)), [])
    return out
