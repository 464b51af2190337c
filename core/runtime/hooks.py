"""The runtime's own settings and operations, registered through the same hooks as any plugin's."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ctx.core.hookspecs import hookimpl
from ctx.core.runtime.settings import Setting, SettingCheck

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
        "pg.memory",
        str,
        "auto",
        "The RAM ctx init sizes the embedded PostgreSQL for (shared_buffers, "
        "effective_cache_size, work_mem, maintenance_work_mem): auto (this machine's, or its "
        "container's limit), a size such as 4GB, or off (PostgreSQL's defaults). Applied by the "
        "next ctx init; ctx doctor compares an external server with the advice for it.",
        hot=False,
    ),
    Setting(
        "jobs.max_attempts",
        int,
        5,
        "Attempts before a failing job is quarantined.",
        minimum=1,
        maximum=100,
    ),
    Setting(
        "jobs.worker_loops",
        int,
        2,
        "Job loops in each worker (ctxd's, ctx worker): while one loop's batch is in the "
        "embedding model, another writes its vectors, claims the next batch and runs the other "
        "jobs, so the cores stay busy while a backlog drains. One model batch runs at a time "
        "per process. Read at start.",
        hot=False,
        minimum=1,
        maximum=16,
    ),
    Setting(
        "db.replica_wait_ms",
        int,
        200,
        "How long a read waits for a read replica (CTX_DATABASE_READ_URL) to replay what it "
        "must see (the key's last write, the primary within db.replica_max_lag_mb) before it "
        "goes to the primary instead.",
        minimum=0,
        maximum=10_000,
    ),
    Setting(
        "db.replica_max_lag_mb",
        int,
        16,
        "How far behind the primary (MB of WAL, at the request's start) a read replica may be "
        "and still serve a read; 0: it must have replayed everything the primary had.",
        minimum=0,
        maximum=1_000_000,
    ),
    Setting(
        "db.replica_retry_s",
        int,
        5,
        "After a read replica failed to answer, reads leave it to the primary for this many "
        "seconds, then try it again.",
        minimum=1,
        maximum=3600,
    ),
]


@hookimpl
def register_settings(register: Callable[[Setting | SettingCheck], None]) -> None:
    from ctx.core.runtime.pg_sizing import memory_problem

    for setting in SETTINGS:
        register(setting)
    register(SettingCheck("pg.memory is auto, off or a size", memory_problem))


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
