"""``ctx secrets``: sealed credentials (set, list, delete). Values go in and never come out."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ctx.core import access
from ctx.ui.cli.common import JsonOpt, console, dump_json, read_stdin_text, table
from ctx.ui.cli.operator.app import opened_app
from ctx.ui.cli.present import local

secrets_app = typer.Typer(
    help="Sealed secrets (backend API keys, tokens): set, list, delete; never shown again.",
    no_args_is_help=True,
)


@secrets_app.command("set")
@local
def secrets_set(
    name: Annotated[str, typer.Argument(help="1-64 of a-z 0-9 . _ - (e.g. openai, github.token).")],
) -> None:
    """Seal a secret's value, read from standard input (a prompt when it is a terminal), so it
    stays out of the shell history; setting a name again replaces the value."""
    access.check_secret_name(name)  # before asking for the value
    if sys.stdin.isatty():
        value = typer.prompt(f"value of {name}", hide_input=True)
    else:
        value = read_stdin_text().rstrip("\r\n")
    with opened_app() as app, app.connection() as conn:
        row = access.set_secret(conn, app.seal_key, name, value, by="cli")
    console.print(f"secret {row['name']} sealed (key {row['key_id']})")


@secrets_app.command("list")
@local
def secrets_list(as_json: JsonOpt = False) -> None:
    """Names, the key that sealed each, when it was set and the backends that use it (never a
    value)."""
    with opened_app() as app, app.connection() as conn:
        rows = access.listed_secrets(conn)
    if as_json:
        dump_json(rows)
    else:
        shown = [{**r, "references": ", ".join(r["references"]) or "-"} for r in rows]
        table(shown, ["name", "key_id", "updated_at", "updated_by", "references"])


@secrets_app.command("delete")
@local
def secrets_delete(name: Annotated[str, typer.Argument(help="The secret's name.")]) -> None:
    """Delete a secret."""
    with opened_app() as app, app.connection() as conn:
        access.delete_secret(conn, name)
    console.print(f"secret {name} deleted")


def register(cli: typer.Typer) -> None:
    cli.add_typer(secrets_app, name="secrets")
