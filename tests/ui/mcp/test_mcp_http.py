"""``/mcp`` over streamable HTTP, driven by the official MCP client against a real server."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

import httpx
import httpx2
import pytest
from live import live_server
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from plugin_kit import registers
from pydantic import BaseModel, Field

from ctx.core import App, Operation, Principal, ToolSurface

TOOLS = {
    "query", "store", "search", "get", "history", "versions", "recent", "delete", "timeline",
    "stats", "mark",
}  # fmt: skip
ISSUE_TOOLS = {
    "issue_create",
    "issue_list",
    "issue_show",
    "issue_comment",
    "issue_close",
    "issue_suggest",
    "issue_edit",
    "issue_reopen",
    "issue_sync",
    "issue_conflicts",
    "issue_resolve",
}
GOVERNOR_TOOLS = {
    "governor_prepare",
    "governor_commit",
    "governor_protect",
    "governor_release",
    "governor_status",
    "governor_flush",
}


@asynccontextmanager
async def connected(url: str, key: str, mode: str = "auto") -> AsyncIterator[Client]:
    async with httpx2.AsyncClient(headers={"X-Context-Key": key}, timeout=60) as http:
        transport = streamable_http_client(url + "/mcp", http_client=http)
        async with Client(transport, mode=mode) as client:  # type: ignore[arg-type]
            yield client


def run(coro: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    return asyncio.run(coro())


def payload(result: Any) -> Any:
    assert not result.is_error, result.content[0].text
    return json.loads(result.content[0].text)


def error_text(result: Any) -> str:
    assert result.is_error, result.content[0].text
    return str(result.content[0].text)


@pytest.fixture
def server(app: App) -> Any:
    with live_server(app) as url:
        yield url


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_tools_are_listed_with_schemas_annotations_and_instructions(
    server: str, keys: Any, mode: str
) -> None:
    key = keys.make("a")

    async def go() -> tuple[list[Any], str | None]:
        async with connected(server, key, mode) as client:
            return (await client.list_tools()).tools, client.instructions

    tools, instructions = run(go)
    by_name = {t.name: t for t in tools}
    assert set(by_name) == TOOLS | GOVERNOR_TOOLS | ISSUE_TOOLS
    for tool in tools:
        assert tool.description and len(tool.description) > 40
        schema = tool.input_schema
        assert schema["type"] == "object" and schema.get("additionalProperties") is False
        assert "title" not in schema  # pydantic's generated titles are left out
        for name, prop in schema.get("properties", {}).items():
            assert prop.get("description"), f"{tool.name}.{name} has no description"
            assert "title" not in prop
    assert by_name["store"].input_schema["required"] == ["title", "content"]
    hints = {n: t.annotations for n, t in by_name.items()}
    assert hints["delete"].destructive_hint is True
    assert all(hints[n].read_only_hint for n in TOOLS - {"store", "delete", "mark"})
    assert not hints["store"].read_only_hint and not hints["store"].destructive_hint
    assert hints["store"].idempotent_hint and hints["get"].idempotent_hint
    assert instructions and "store" in instructions and "query" in instructions
    assert "title" in instructions.lower() and "category" in instructions.lower()


def test_every_tool_works_and_answers_compactly(server: str, keys: Any) -> None:
    key = keys.make("a")
    content = "Nightly pg_dump of the main database to S3 at 02:00; restores are tested monthly."

    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with connected(server, key) as c:
            args = {"title": "Backups: nightly pg_dump", "content": content, "category": "ops"}
            out["stored"] = payload(await c.call_tool("store", args))
            out["again"] = payload(await c.call_tool("store", {**args, "tags": ["postgres"]}))
            out["search"] = payload(await c.call_tool("search", {"query": "pg_dump"}))
            block_id = out["stored"]["id"]
            out["get"] = payload(await c.call_tool("get", {"id": block_id[:8]}))
            out["recent"] = payload(await c.call_tool("recent", {}))
            out["query"] = payload(
                await c.call_tool("query", {"query": "how are database backups made?"})
            )
            asked = {"question": "how are database backups made?", "id": block_id[:8]}
            out["mark"] = payload(await c.call_tool("mark", asked))
            out["timeline"] = payload(await c.call_tool("timeline", {"when": "today"}))
            out["stats"] = payload(await c.call_tool("stats", {}))
            out["delete"] = payload(await c.call_tool("delete", {"id": block_id}))
            out["gone"] = error_text(await c.call_tool("get", {"id": block_id}))
        return out

    out = run(go)
    block_id = out["stored"]["id"]
    assert out["stored"] == {"id": block_id, "action": "created", "scope": "a"}  # no echo
    assert out["again"]["action"] == "updated" and out["again"]["id"] == block_id
    assert [h["id"] for h in out["search"]["results"]] == [block_id]
    assert "content" not in out["search"]["results"][0]
    got = out["get"]
    assert got["content"] == content and got["tags"] == ["postgres"] and got["category"] == "ops"
    assert out["recent"]["results"][0]["id"] == block_id
    assert out["query"]["confidence"] == "confident"
    assert out["query"]["results"][0]["id"] == block_id
    assert len(out["query"]["results"][0]["snippet"]) <= 241
    assert [r["id"] for r in out["timeline"]["results"]] == [block_id]
    assert out["stats"]["blocks"] == 1 and out["stats"]["categories"] == {"ops": 1}
    assert out["mark"]["block_id"] == block_id and out["mark"]["verdict"] == "answered"
    assert out["mark"]["scope"] == "a" and out["mark"]["action"] == "created"
    assert out["delete"] == {"id": block_id, "action": "deleted"}
    assert "no block" in out["gone"]


def test_bad_arguments_are_tool_errors_and_the_server_carries_on(server: str, keys: Any) -> None:
    key = keys.make("a")

    async def go() -> tuple[list[str], Any]:
        async with connected(server, key) as c:
            errors = [
                error_text(await c.call_tool("store", {"title": "no content"})),
                error_text(await c.call_tool("search", {"query": 5})),
                error_text(await c.call_tool("query", {"query": "x", "limit": 500})),
                error_text(await c.call_tool("get", {"id": "zz"})),
                error_text(await c.call_tool("recent", {"bogus": True})),
                error_text(await c.call_tool("timeline", {"when": "the color blue"})),
                error_text(await c.call_tool("timeline", {})),
                error_text(await c.call_tool("store", {"title": "a\x00", "content": "x"})),
                error_text(await c.call_tool("nope", {})),
                error_text(await c.call_tool("store", {"title": "Empty", "content": ""})),
                error_text(await c.call_tool("store", {"title": "Empty", "content": " \n "})),
            ]
            return errors, await c.call_tool("stats", {})

    errors, after = run(go)
    assert "content: is required" in errors[0]
    assert errors[1].startswith("invalid arguments: query")
    assert "limit: must be at most 20" in errors[2]
    assert "prefix of at least 4" in errors[3]
    assert "bogus: is not a field" in errors[4]
    assert "could not read a time" in errors[5]
    assert "give when" in errors[6]
    assert "NUL" in errors[7] or "null character" in errors[7].lower()
    assert "unknown tool 'nope'" in errors[8]
    assert all("content" in e and "must not be empty" in e for e in errors[9:])
    assert payload(after)["blocks"] == 0


def test_no_key_or_a_bad_key_is_a_401_pointing_at_the_resource_metadata(
    server: str, keys: Any
) -> None:
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    accept = {"Accept": "application/json, text/event-stream"}
    missing = httpx.post(server + "/mcp", json=init, headers=accept)
    assert missing.status_code == 401
    challenge = missing.headers["www-authenticate"]
    assert challenge.startswith("Bearer ")
    assert f'resource_metadata="{server}/.well-known/oauth-protected-resource/mcp"' in challenge
    assert missing.json()["error"] == "unauthorized"
    wrong = httpx.post(server + "/mcp", json=init, headers={**accept, "X-Context-Key": "ctx_nope"})
    assert wrong.status_code == 401 and 'error="invalid_token"' in wrong.headers["www-authenticate"]
    bearer = httpx.post(
        server + "/mcp", json=init, headers={**accept, "Authorization": f"Bearer {keys.make('a')}"}
    )
    assert bearer.status_code == 200
    assert bearer.headers["content-type"].startswith("application/json")  # JSON, not SSE
    assert bearer.json()["result"]["serverInfo"]["name"] == "ctx"


def test_a_key_of_scope_a_never_sees_scope_b(server: str, keys: Any) -> None:
    key_a, key_b = keys.make("a"), keys.make("b")
    reader = keys.make("c", allowed=["a"])
    secret = {
        "title": "Launch codes",
        "content": "the rollout plan for zebra-unicorn",
        "category": "plan",
    }

    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with connected(server, key_a) as a:
            block_id = payload(await a.call_tool("store", secret))["id"]
        out["id"] = block_id
        async with connected(server, key_b) as b:
            out["query"] = payload(await b.call_tool("query", {"query": "zebra-unicorn rollout"}))
            out["search"] = payload(await b.call_tool("search", {"query": "zebra"}))
            out["get"] = error_text(await b.call_tool("get", {"id": block_id}))
            out["recent"] = payload(await b.call_tool("recent", {}))
            out["timeline"] = payload(await b.call_tool("timeline", {"when": "today"}))
            out["stats"] = payload(await b.call_tool("stats", {}))
            out["delete"] = error_text(await b.call_tool("delete", {"id": block_id}))
            out["mark"] = error_text(
                await b.call_tool("mark", {"question": "zebra?", "id": block_id})
            )
            out["scopes"] = error_text(
                await b.call_tool("search", {"query": "zebra", "scopes": ["a"]})
            )
            out["stats_a"] = error_text(await b.call_tool("stats", {"scope": "a"}))
        async with connected(server, reader) as c:
            out["reader_get"] = payload(await c.call_tool("get", {"id": block_id}))
            out["reader_delete"] = error_text(await c.call_tool("delete", {"id": block_id}))
            out["reader_store"] = payload(await c.call_tool("store", secret))
        return out

    out = run(go)
    assert out["query"]["results"] == [] and out["search"]["results"] == []
    assert "no block" in out["get"] and "no block" in out["delete"]
    assert "no block" in out["mark"]
    assert out["recent"]["results"] == [] and out["timeline"]["results"] == []
    assert out["stats"]["blocks"] == 0
    assert "cannot read scope" in out["scopes"] and "cannot read scope" in out["stats_a"]
    # a key that may read scope a sees the block, but deletes and writes only in its home scope
    assert out["reader_get"]["id"] == out["id"]
    assert "home scope" in out["reader_delete"]
    assert out["reader_store"]["scope"] == "c" and out["reader_store"]["id"] != out["id"]


class EchoLength(BaseModel):
    text: str = Field(description="Any text.")


def _length(app: App, who: Principal, args: EchoLength) -> dict[str, Any]:
    return {"length": len(args.text), "scope": who.home_scope}


def _broken(app: App, who: Principal, args: EchoLength) -> None:
    raise RuntimeError("secret internals")


def test_plugin_tools_join_and_their_bugs_stay_tool_errors(
    database_url: str, tmp_path: Any
) -> None:
    operations = (
        Operation(
            name="counter.length",
            summary="Count the characters of a text.",
            service=f"{__name__}:_length",
            input=EchoLength,
            tool=ToolSurface("text_length", "Count the characters of a text (a plugin's tool)."),
        ),
        Operation(
            name="counter.broken",
            summary="Always fails.",
            service=f"{__name__}:_broken",
            input=EchoLength,
            kind="write",
            tool=ToolSurface(
                "broken_tool", "Always fails, to show a plugin bug stays a tool error."
            ),
        ),
    )
    app = App(database_url=database_url, home=tmp_path, load_entry_points=False)
    app.host.register(registers("register_operations", *operations), "counter")
    with app, live_server(app) as url:
        with app.connection() as conn:
            from ctx.core import access

            _, key = access.create_key(conn, name="p", home_scope="p")

        async def go() -> tuple[set[str], Any, str]:
            async with connected(url, key) as c:
                names = {t.name for t in (await c.list_tools()).tools}
                ok = payload(await c.call_tool("text_length", {"text": "héllo"}))
                bad = error_text(await c.call_tool("broken_tool", {"text": "x"}))
                return names, ok, bad

        names, ok, bad = run(go)
    assert names >= TOOLS | {"text_length", "broken_tool"}
    assert ok == {"length": 5, "scope": "p"}
    assert "internal error in tool 'broken_tool'" in bad and "secret internals" not in bad


def test_browser_clients_get_cors_and_a_preflight_answer(server: str, keys: Any) -> None:
    preflight = httpx.options(
        server + "/mcp",
        headers={
            "Origin": "http://localhost:6274",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, mcp-protocol-version",
        },
    )
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert "authorization" in preflight.headers["access-control-allow-headers"]
    assert "POST" in preflight.headers["access-control-allow-methods"]
    refused = httpx.post(server + "/mcp", json={}, headers={"Origin": "http://localhost:6274"})
    assert refused.status_code == 401
    assert "www-authenticate" in refused.headers["access-control-expose-headers"]
    assert "access-control-allow-credentials" not in refused.headers  # no cookies, ever


def test_get_is_405_since_a_stateless_server_has_no_stream_to_offer(server: str, keys: Any) -> None:
    headers = {"X-Context-Key": keys.make("a"), "Accept": "text/event-stream"}
    answer = httpx.get(server + "/mcp", headers=headers, timeout=10)  # would hang on a stream
    assert answer.status_code == 405 and answer.headers["allow"] == "POST, OPTIONS"
    assert answer.json()["error"] == "method_not_allowed"


def test_a_get_without_credentials_learns_about_oauth_as_a_post_does(server: str) -> None:
    # a client that probes with GET first must get the same challenge as a POST, or it never
    # finds the OAuth metadata
    for headers in ({}, {"X-Context-Key": "ctx_nope"}):
        answer = httpx.get(server + "/mcp", headers={"Accept": "text/event-stream", **headers})
        assert answer.status_code == 401
        challenge = answer.headers["www-authenticate"]
        assert f'resource_metadata="{server}/.well-known/oauth-protected-resource/mcp"' in challenge
        assert answer.json()["error"] == "unauthorized"


def test_query_answers_when_a_synthesis_backend_exists(server: str, app: App, keys: Any) -> None:
    import openai_server

    from ctx.core import llm

    key = keys.make("a")
    with openai_server.OpenAIServer() as peer:

        async def ask(arguments: dict[str, Any]) -> Any:
            async with connected(server, key) as client:
                await client.call_tool("store", {"title": "Backup schedule",
                                                 "content": "Backups run nightly at two."})  # fmt: skip
                return payload(await client.call_tool("query", arguments))

        before = run(lambda: ask({"query": "when do backups run"}))
        assert "answer" not in before and before["results"][0]["title"] == "Backup schedule"
        with app.connection() as conn:
            llm.create_backend(conn, app.backend_kinds, "peer", {
                "kind": "openai", "base_url": peer.base_url, "roles": ["synthesis"],
                "model_map": {"default": "m"}, "trust": "full-trust"})  # fmt: skip
        app.backends.invalidate()
        peer.chat_default = "Nightly at two [1]."
        after = run(lambda: ask({"query": "when do backups run"}))
        assert after["answer"] == "Nightly at two [1]."
        assert after["citations"] == [{"n": 1, "id": after["results"][0]["id"]}]
        plain = run(lambda: ask({"query": "when do backups run", "answer": False}))
        assert "answer" not in plain
        assert len([r for r in peer.requests if r.path == "/v1/chat/completions"]) == 1
