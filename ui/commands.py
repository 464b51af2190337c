"""The server's commands, added to the ``ctx`` command line like any plugin's (the built-in
plugin ``server``), so the core never imports the UI."""

from __future__ import annotations

import typer

from ctx.core import hookimpl
from ctx.ui.serve import serve


@hookimpl
def register_commands(cli: typer.Typer) -> None:
    cli.command()(serve)
