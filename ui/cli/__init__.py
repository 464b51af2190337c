"""The ``ctx`` command line (typer). ``main.py`` builds the root; each module adds a group.

Surfaces outside the core add their commands through ``register_commands`` (``ctx serve`` comes
from ``ctx.ui``), so the core never imports them.
"""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.client import Client, ClientError, configured_url
    from ctx.ui.cli.common import (
        JsonOpt,
        RateColumn,
        console,
        current_app,
        dump_json,
        opened_app,
        table,
    )
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
    "main",
    "opened_app",
    "run",
    "table",
]

# Imported on first use (see ctx.core.lazy): a `ctx` command loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
