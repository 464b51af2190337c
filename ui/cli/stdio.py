"""``ctx mcp serve --stdio``: MCP on stdin/stdout for a local agent, bridged to ctxd."""

from __future__ import annotations

from typing import Annotated

import typer

from ctx.core.errors import CtxError
from ctx.ui.cli.present import relays


@relays("mcp")
def mcp_serve(
    stdio: Annotated[
        bool, typer.Option("--stdio", help="Speak MCP on stdin/stdout (the only transport here).")
    ] = False,
) -> None:
    """Serve MCP on stdin/stdout for a local agent.

    Forwards to the running ctxd with CTX_API_KEY, or opens the local store itself when none
    answers (and says so on stderr). Over HTTP, ctxd serves MCP at /mcp.
    """
    if not stdio:
        raise CtxError("ctx mcp serve needs --stdio (over HTTP, ctxd serves MCP at /mcp)")
    from ctx.ui.mcp.bridge import serve_stdio

    serve_stdio()


def register(group: typer.Typer) -> None:
    """Add ``serve`` to the ``mcp`` group."""
    group.command("serve")(mcp_serve)
