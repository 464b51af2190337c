"""The server's commands, added to the ``ctx`` command line like any plugin's (the built-in
plugin ``server``), so the core never imports the UI: ``ctx serve`` and ``ctx mcp serve``."""

from __future__ import annotations

from typing import Annotated

import typer

from ctx.core import CtxError, hookimpl
from ctx.ui.serve import serve


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
    from ctx.ui.mcp.stdio import serve_stdio

    serve_stdio()


@hookimpl
def register_commands(cli: typer.Typer) -> None:
    cli.command()(serve)
    for group in cli.registered_groups:
        if group.name == "mcp" and group.typer_instance is not None:
            group.typer_instance.command("serve")(mcp_serve)
