"""``ctx mcp serve --stdio``: MCP over stdin/stdout for local agents.

A thin bridge when a ctxd answers at ``CTX_URL`` (or the configured address): every request is
forwarded to its ``/mcp`` with the configured key, so plugins' tools and the server's workers are
the ones in use. With no ctxd at the configured address it opens the store itself (the embedded
database by default), says so on stderr, and serves the same tools in-process, with a worker for
the background jobs. A ``CTX_URL`` that does not answer is an error: it names a server.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import anyio
import httpx
import httpx2
import mcp_types as types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

from ctx.core import App, CtxError, Principal, Unauthorized
from ctx.core.runtime import Worker
from ctx.ui.cli import configured_url, current_app
from ctx.ui.mcp.server import build_server, new_server, principal_for

NO_KEY = "no API key: set CTX_API_KEY (create one with `ctx keys create`)"


def say(message: str) -> None:
    sys.stderr.write(f"ctx mcp: {message}\n")
    sys.stderr.flush()


def server_answers(url: str) -> bool:
    try:
        return httpx.get(url + "/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def serve_stdio() -> None:
    """Serve MCP on stdin/stdout until the client closes stdin."""
    key = os.environ.get("CTX_API_KEY", "").strip()
    if not key:
        raise CtxError(NO_KEY)
    explicit = os.environ.get("CTX_URL", "").strip()
    url = (explicit or configured_url()).rstrip("/")
    if server_answers(url):
        _check_key(url, key)
        say(f"forwarding to the ctx server at {url}")
        anyio.run(_bridge, url, key)
    elif explicit:  # the user named a server: a local store instead would surprise them
        raise CtxError(f"cannot reach the ctx server at {url} (CTX_URL); start it or unset CTX_URL")
    else:
        app = current_app()
        say(f"no ctx server at {url}; serving from the local store in {app.home}")
        _serve_locally(app, key)


# -- bridge to a running ctxd -------------------------------------------------------------------


def forwarding_server(remote: Client) -> Server[Any]:
    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return await remote.list_tools()

    async def call(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        return await remote.call_tool(params.name, params.arguments)

    return new_server(list_tools, call, remote.instructions)


async def _bridge(url: str, key: str) -> None:
    headers = {"X-Context-Key": key}
    async with httpx2.AsyncClient(headers=headers, timeout=120) as http:
        try:
            remote = Client(streamable_http_client(url + "/mcp", http_client=http))
            await remote.__aenter__()
        except Exception as exc:
            raise CtxError(_connect_problem(url, exc)) from None
        try:
            await _serve(forwarding_server(remote))
        finally:
            await remote.__aexit__(None, None, None)


def _check_key(url: str, key: str) -> None:
    """Refuse at once, in one line, a key the server does not know (the MCP handshake would
    only fail deep inside the client)."""
    try:
        status = httpx.get(url + "/api/whoami", headers={"X-Context-Key": key}, timeout=5)
    except httpx.HTTPError as exc:
        raise CtxError(f"cannot reach the ctx server at {url} ({exc.__class__.__name__})") from None
    if status.status_code == 401:
        raise CtxError(f"the ctx server at {url} refused the key (check CTX_API_KEY)")


def _connect_problem(url: str, exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"cannot open MCP at {url}/mcp: {str(exc) or exc.__class__.__name__}"


# -- in-process, on the local store -------------------------------------------------------------


def _serve_locally(app: App, key: str) -> None:
    app.open()
    worker = Worker(app)
    try:
        who = _authenticate(app, key)
        worker.start()
        anyio.run(_serve, build_server(app, _fixed(who)))
    finally:
        worker.stop()
        app.close()


def _authenticate(app: App, key: str) -> Principal:
    try:
        return principal_for(app, key)
    except Unauthorized:
        raise CtxError("the local store does not know this key (check CTX_API_KEY)") from None


def _fixed(who: Principal) -> Callable[[Any], Principal]:
    return lambda _ctx: who


async def _serve(server: Server[Any]) -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
