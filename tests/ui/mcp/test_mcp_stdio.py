"""``ctx mcp serve --stdio``, spawned as an agent spawns it and driven by the official client: as
a bridge to a running ctxd, and on its own over the local store."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from ctxd import CLI, clean_env, ctx, free_port
from live import live_server
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from ctx.core import App

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)


def stdio_session(env: dict[str, str], log: Path, calls: list[tuple[str, dict[str, Any]]]) -> Any:
    params = StdioServerParameters(
        command=sys.executable, args=[*CLI[1:], "mcp", "serve", "--stdio"], env=env
    )

    async def go() -> tuple[set[str], str | None, list[Any]]:
        with log.open("w") as errlog:
            from mcp.client.stdio import stdio_client

            async with Client(stdio_client(params, errlog=errlog)) as client:  # type: ignore[arg-type]
                names = {t.name for t in (await client.list_tools()).tools}
                results = [await client.call_tool(name, args) for name, args in calls]
                return names, client.instructions, results

    return asyncio.run(go())


def _text(result: Any) -> Any:
    text = result.content[0].text
    return text if result.is_error else json.loads(text)


CALLS = [
    ("store", {"title": "Deploys", "content": "Deploys go out on Tuesdays via the blue pipeline."}),
    ("search", {"query": "pipeline"}),
    ("get", {"id": "zz"}),
]


def test_bridge_forwards_to_the_running_server(app: App, keys: Any, tmp_path: Path) -> None:
    key = keys.make("a")
    with live_server(app) as url:
        env = {**clean_env(tmp_path / "home"), "CTX_URL": url, "CTX_API_KEY": key}
        names, instructions, results = stdio_session(env, tmp_path / "err.log", CALLS)
    log = (tmp_path / "err.log").read_text()
    assert f"forwarding to the ctx server at {url}" in log
    assert {"query", "store", "search", "get", "timeline"} <= names
    assert instructions and "store" in instructions
    stored, found, bad = (_text(r) for r in results)
    assert stored["action"] == "created" and stored["scope"] == "a"
    assert [h["id"] for h in found["results"]] == [stored["id"]]
    assert results[2].is_error and "prefix" in bad
    # the write went through the server, into its database
    with app.connection() as conn:
        row = conn.execute("SELECT scope FROM context_blocks WHERE id = %s", (stored["id"],))
        assert row.fetchone()["scope"] == "a"


def test_without_a_server_it_opens_the_local_store(
    database_url: str, app: App, keys: Any, tmp_path: Path
) -> None:
    key = keys.make("a")
    port = free_port()  # the configured address, where no ctxd runs (no CTX_URL)
    nobody = f"http://127.0.0.1:{port}"
    env = {
        **clean_env(tmp_path / "home"),
        "CTX_SERVER_PORT": str(port),
        "CTX_API_KEY": key,
        "CTX_DATABASE_URL": database_url,
    }
    names, _, results = stdio_session(env, tmp_path / "err.log", CALLS)
    log = (tmp_path / "err.log").read_text()
    assert f"no ctx server at {nobody}; serving from the local store" in log
    assert "Traceback" not in log
    stored, found, _bad = (_text(r) for r in results)
    assert {"query", "store", "delete", "stats"} <= names
    assert [h["id"] for h in found["results"]] == [stored["id"]]
    with app.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM context_blocks").fetchone()["n"] == 1


def test_without_a_key_or_with_a_wrong_one_it_stops_with_one_line(
    database_url: str, tmp_path: Path
) -> None:
    env = clean_env(tmp_path / "home")
    missing = ctx(env, "mcp", "serve", "--stdio", stdin="")
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.strip().splitlines() == [
        "ctx: no API key: set CTX_API_KEY (create one with `ctx keys create`)"
    ]
    env.update(
        CTX_API_KEY="ctx_wrong",
        CTX_SERVER_PORT=str(free_port()),
        CTX_DATABASE_URL=database_url,
    )
    wrong = ctx(env, "mcp", "serve", "--stdio", stdin="")
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
    assert wrong.stderr.strip().splitlines()[-1] == (
        "ctx: the local store does not know this key (check CTX_API_KEY)"
    )
    no_flag = ctx(env, "mcp", "serve")
    assert no_flag.returncode == 2 and "--stdio" in no_flag.stderr


def test_a_key_the_server_refuses_stops_the_bridge_with_one_line(app: App, tmp_path: Path) -> None:
    with live_server(app) as url:
        env = {**clean_env(tmp_path / "home"), "CTX_URL": url, "CTX_API_KEY": "ctx_wrong"}
        refused = ctx(env, "mcp", "serve", "--stdio", stdin="")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.strip().splitlines()[-1] == (
        f"ctx: the ctx server at {url} refused the key (check CTX_API_KEY)"
    )


def test_a_named_server_that_is_down_is_an_error_not_a_fallback(tmp_path: Path) -> None:
    down = f"http://127.0.0.1:{free_port()}"
    env = {**clean_env(tmp_path / "home"), "CTX_URL": down, "CTX_API_KEY": "ctx_some"}
    result = ctx(env, "mcp", "serve", "--stdio", stdin="")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        f"ctx: cannot reach the ctx server at {down} (CTX_URL); start it or unset CTX_URL"
    ]
    assert not (tmp_path / "home" / "pg").exists()  # no local store was started
