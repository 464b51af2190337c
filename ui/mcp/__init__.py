"""The MCP surface: ``/mcp`` (streamable HTTP) in ctxd and ``ctx mcp serve --stdio``."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI
from starlette.routing import Route

from ctx.core import App
from ctx.ui.mcp.http import McpEndpoint
from ctx.ui.mcp.server import build_server, compact_json

__all__ = ["McpEndpoint", "build_server", "compact_json", "mount"]


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
