"""The runtime's own settings and operations, registered through the same hooks as any plugin's."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ctx.core.hookspecs import hookimpl
from ctx.core.runtime.settings import Setting

if TYPE_CHECKING:
    from ctx.core.operations import Operation
    from ctx.core.runtime.transfer import TransferSection

SETTINGS = [
    Setting("server.host", str, "127.0.0.1", "Address ctxd listens on.", hot=False),
    Setting("server.port", int, 8080, "Port ctxd listens on.", hot=False, minimum=1, maximum=65535),
    Setting(
        "server.body_limit",
        int,
        1_048_576,
        "Largest request body in bytes; larger requests get HTTP 413. Routes that take files "
        "have their own limits (server.ingest_body_limit, server.blob_body_limit).",
        minimum=1024,
        maximum=100 * 1_048_576,
    ),
    Setting(
        "server.ingest_body_limit",
        int,
        10 * 1_048_576,
        "Largest request body in bytes under /api/ingest (documents and note batches).",
        minimum=1024,
        maximum=200 * 1_048_576,
    ),
    Setting(
        "server.blob_body_limit",
        int,
        75 * 1_048_576,
        "Largest request body in bytes for /api/blob/store and /api/import (a 50 MB file is "
        "about 67 MB as base64 in JSON).",
        minimum=1024,
        maximum=500 * 1_048_576,
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


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    # imported here: thin clients (configured_url, the agent hooks) read SETTINGS above and must
    # not load the declarations or their request models (pydantic)
    from ctx.core.operations import declared
    from ctx.core.runtime import operations

    for op in declared(vars(operations)):
        register(op)


@hookimpl
def register_transfer_sections(register: Callable[[TransferSection], None]) -> None:
    # imported here for the same reason: the section's models load pydantic and psycopg
    from ctx.core.runtime.setting_transfer import SETTINGS_SECTION

    register(SETTINGS_SECTION)
