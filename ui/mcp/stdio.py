"""``ctx mcp serve --stdio`` without a running ctxd: the store opened in this process (the
embedded database by default), the same tools served in-process over stdin/stdout, and a worker
for the background jobs. With a ctxd, ``ctx.ui.mcp.bridge`` relays to it instead and this module
is never loaded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
from mcp.server import Server
from mcp.server.stdio import stdio_server

from ctx.core import App, CtxError, Principal, Unauthorized
from ctx.core.runtime import Worker
from ctx.ui.cli import current_app
from ctx.ui.mcp.bridge import say
from ctx.ui.mcp.server import build_server, principal_for


def serve_locally(key: str, url: str) -> None:
    """Serve the local store's tools for the holder of ``key`` (no server answered at ``url``)."""
    app = current_app()
    say(f"no ctx server at {url}; serving from the local store in {app.home}")
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
