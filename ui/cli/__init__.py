"""The ``ctx`` command line (typer). ``root`` builds the tree; each module adds its commands.

Commands that talk to ctxd (the modules here) present operations (``presents``) and load no
server code; local commands (``operator/``) work on this machine's database and build the App.
Plugins add commands through ``register_commands``.
"""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.client import Client, ClientError, configured_url
    from ctx.ui.cli.common import JsonOpt, RateColumn, console, dump_json, table
    from ctx.ui.cli.operator.admin import welcome
    from ctx.ui.cli.operator.app import current_app, opened_app
    from ctx.ui.cli.present import local, presents
    from ctx.ui.cli.root import build_cli, main, run

__all__ = [
    "Client",
    "ClientError",
    "JsonOpt",
    "RateColumn",
    "build_cli",
    "configured_url",
    "console",
    "current_app",
    "dump_json",
    "local",
    "main",
    "opened_app",
    "presents",
    "run",
    "table",
    "welcome",
]

# Imported on first use (see ctx.core.lazy): a `ctx` command loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
