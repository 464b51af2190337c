"""The runtime's own settings, registered through the same hook as any plugin's."""

from __future__ import annotations

from collections.abc import Callable

from ctx.core.hookspecs import hookimpl
from ctx.core.runtime.settings import Setting

SETTINGS = [
    Setting("server.host", str, "127.0.0.1", "Address ctxd listens on.", hot=False),
    Setting("server.port", int, 8080, "Port ctxd listens on.", hot=False, minimum=1, maximum=65535),
    Setting(
        "server.body_limit",
        int,
        1_048_576,
        "Largest request body in bytes; larger requests get HTTP 413.",
        minimum=1024,
        maximum=100 * 1_048_576,
    ),
    Setting(
        "log.level",
        str,
        "info",
        "Server log level (read at start).",
        hot=False,
        choices=("debug", "info", "warning", "error"),
    ),
    Setting(
        "jobs.max_attempts",
        int,
        5,
        "Attempts before a failing job is quarantined.",
        minimum=1,
        maximum=100,
    ),
]


@hookimpl
def register_settings(register: Callable[[Setting], None]) -> None:
    for setting in SETTINGS:
        register(setting)
