"""The ``ctx`` command line (typer). ``main.py`` builds the root; each module adds a group.

Surfaces outside the core add their commands through ``register_commands`` (``ctx serve`` comes
from ``ctx.ui``), so the core never imports them.
"""

from ctx.core.cli.client import configured_url
from ctx.core.cli.common import JsonOpt, console, current_app, dump_json, opened_app, table
from ctx.core.cli.main import build_cli, main, run

__all__ = [
    "JsonOpt",
    "build_cli",
    "configured_url",
    "console",
    "current_app",
    "dump_json",
    "main",
    "opened_app",
    "run",
    "table",
]
