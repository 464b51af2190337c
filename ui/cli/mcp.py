"""``ctx mcp``: the stdio MCP server and OAuth clients for remote MCP clients."""

from __future__ import annotations

from typing import Annotated

import typer

from ctx.core import CtxError, access
from ctx.ui.cli.common import JsonOpt, console, dump_json, opened_app, table

HELP = "MCP: the stdio server and OAuth clients for remote MCP clients."
COLUMNS = ["client_id", "name", "redirect_uris", "public", "registered_by", "remote_addr"]


def mcp_add(
    name: Annotated[str, typer.Option("--name", help="A label, shown on the sign-in page.")],
    redirect_uris: Annotated[
        list[str],
        typer.Option(
            "--redirect-uri",
            help="Where the client receives the code: https, or http on a loopback address. "
            "Repeat for several; matched exactly.",
        ),
    ],
    public: Annotated[
        bool, typer.Option("--public", help="No client secret: the client proves itself by PKCE.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Register an OAuth client; its secret is printed once and stored only as a hash."""
    for uri in redirect_uris:  # before opening the database: a typo answers at once
        access.validate_redirect_uri(uri)
    with opened_app() as app, app.connection() as conn:
        client, secret = access.create_client(
            conn, name=name, redirect_uris=redirect_uris, public=public
        )
    if as_json:
        dump_json({**client.as_dict(), "client_secret": secret})
        return
    console.print(f"client_id: {client.client_id}")
    if secret:
        console.print(f"client_secret (shown once): {secret}")
    else:
        console.print("public client: no secret (PKCE only)")


def mcp_list(as_json: JsonOpt = False) -> None:
    """OAuth clients, from `ctx mcp add` and dynamic registration (never their secrets)."""
    with opened_app() as app, app.connection() as conn:
        rows = access.list_clients(conn)
    if as_json:
        dump_json(rows)
    else:
        table(rows, COLUMNS)


def mcp_remove(
    client_id: Annotated[str, typer.Argument(help="The client's id (ctx_…).")],
) -> None:
    """Remove a client: its pending sign-ins and codes end; keys it obtained stay valid."""
    with opened_app() as app, app.connection() as conn:
        access.remove_client(conn, client_id)
    console.print(f"removed {client_id}")


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


def register(cli: typer.Typer) -> None:
    """Add the ``mcp`` group, made afresh for each command tree."""
    group = typer.Typer(help=HELP, no_args_is_help=True)
    group.command("add")(mcp_add)
    group.command("list")(mcp_list)
    group.command("remove")(mcp_remove)
    group.command("serve")(mcp_serve)
    cli.add_typer(group, name="mcp")
