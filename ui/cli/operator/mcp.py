"""``ctx mcp add|list|remove``: OAuth clients for remote MCP clients (``ctx mcp serve`` is in
``ctx.ui.cli.stdio``)."""

from __future__ import annotations

from typing import Annotated

import typer

from ctx.core import access
from ctx.ui.cli.common import JsonOpt, console, dump_json, table
from ctx.ui.cli.operator.app import opened_app
from ctx.ui.cli.present import local

HELP = "MCP: the stdio server and OAuth clients for remote MCP clients."
COLUMNS = ["client_id", "name", "redirect_uris", "public", "registered_by", "remote_addr"]


@local
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


@local
def mcp_list(as_json: JsonOpt = False) -> None:
    """OAuth clients, from `ctx mcp add` and dynamic registration (never their secrets)."""
    with opened_app() as app, app.connection() as conn:
        rows = access.list_clients(conn)
    if as_json:
        dump_json(rows)
    else:
        table(rows, COLUMNS)


@local
def mcp_remove(
    client_id: Annotated[str, typer.Argument(help="The client's id (ctx_…).")],
) -> None:
    """Remove a client: its pending sign-ins and codes end; keys it obtained stay valid."""
    with opened_app() as app, app.connection() as conn:
        access.remove_client(conn, client_id)
    console.print(f"removed {client_id}")


def register(cli: typer.Typer) -> None:
    """Add the ``mcp`` group, made afresh for each command tree."""
    group = typer.Typer(help=HELP, no_args_is_help=True)
    group.command("add")(mcp_add)
    group.command("list")(mcp_list)
    group.command("remove")(mcp_remove)
    cli.add_typer(group, name="mcp")
