"""``/mcp``: streamable HTTP, stateless, JSON responses, behind the same keys as ``/api``.

Every request (a GET included) is authenticated before the SDK sees it: no key or a bad key is a
401 whose ``WWW-Authenticate`` header points an OAuth-capable client at the protected-resource
metadata (RFC 9728), so claude.ai and the like can start the OAuth flow on their own.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from ctx.core import App, CtxError, Principal, Unauthorized
from ctx.core.access import token_from_headers
from ctx.ui.api import json_messages
from ctx.ui.mcp.server import build_server, principal_for
from ctx.ui.oauth import resource_metadata_url

PRINCIPAL_KEY = "ctx.principal"
CORS_HEADERS = [
    (b"access-control-allow-origin", b"*"),
    (b"access-control-allow-methods", b"GET, POST, DELETE, OPTIONS"),
    (
        b"access-control-allow-headers",
        b"authorization, content-type, x-context-key, mcp-protocol-version, mcp-session-id, "
        b"last-event-id",
    ),
    (b"access-control-expose-headers", b"www-authenticate, mcp-session-id, mcp-protocol-version"),
    (b"access-control-max-age", b"600"),
]


class McpEndpoint:
    """The ASGI app behind ``/mcp``: authenticate, then hand the request to the SDK."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.server = build_server(app, _request_principal)
        self.manager = StreamableHTTPSessionManager(
            app=self.server, json_response=True, stateless=True
        )

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        async with self.manager.run():
            yield

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        send = _with_cors(send)
        if scope.get("method") == "OPTIONS":  # a browser client's preflight
            await send({"type": "http.response.start", "status": 204, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        token = token_from_headers(Headers(scope=scope))
        try:
            if not token:
                raise Unauthorized("missing API key: send X-Context-Key or Authorization: Bearer")
            who = await self.app.bridge.run_sync(principal_for, self.app, token)
        except Unauthorized as exc:
            await self._refuse(scope, send, exc, bad_token=bool(token))
            return
        except CtxError as exc:
            await _send_json(send, exc.status_code, {"error": exc.code, "message": exc.message})
            return
        if scope.get("method") == "GET":
            # stateless with JSON answers: no server-to-client stream to offer, and an open GET
            # would hold a connection and a task for nothing (the spec allows 405 here); only
            # after the key, so a client probing with GET learns about OAuth as a POST does
            body = {"error": "method_not_allowed", "message": "POST JSON-RPC messages to /mcp"}
            await _send_json(send, 405, body, [(b"allow", b"POST, OPTIONS")])
            return
        scope[PRINCIPAL_KEY] = who
        scope.setdefault("state", {})["principal"] = who  # the middleware notes a call that wrote
        await self.manager.handle_request(scope, receive, send)

    async def _refuse(self, scope: Scope, send: Send, exc: CtxError, *, bad_token: bool) -> None:
        metadata = resource_metadata_url(Request(scope))
        challenge = f'Bearer resource_metadata="{metadata}"'
        if bad_token:
            challenge += ', error="invalid_token"'
        body = {"error": exc.code, "message": exc.message}
        await _send_json(send, 401, body, [(b"www-authenticate", challenge.encode())])


def _request_principal(ctx: Any) -> Principal | None:
    request = getattr(ctx, "request", None)
    scope = getattr(request, "scope", None) or {}
    who = scope.get(PRINCIPAL_KEY)
    return who if isinstance(who, Principal) else None


def _with_cors(send: Send) -> Send:
    """Browser-based clients (the web MCP Inspector) may call ``/mcp`` from any origin: the key
    travels in a header, never a cookie, so a page learns nothing it did not bring."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *CORS_HEADERS]}
        await send(message)

    return sending


async def _send_json(
    send: Send, status: int, body: dict[str, Any], extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    for message in json_messages(status, body, extra):
        await send(message)


def mount(server: FastAPI, app: App) -> McpEndpoint:
    """Serve ``/mcp`` and run the SDK's session manager for as long as ``server`` runs."""
    endpoint = McpEndpoint(app)
    server.router.routes.append(
        Route("/mcp", endpoint=endpoint, methods=["GET", "POST", "DELETE", "OPTIONS"])
    )
    outer = server.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(asgi: Any) -> AsyncIterator[Any]:
        async with outer(asgi) as state, endpoint.running():
            yield state

    server.router.lifespan_context = lifespan
    return endpoint
