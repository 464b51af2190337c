"""The governor as a plugin of the core: settings, the index job, its operations (REST routes, MCP
tools, commands), and the rule that a governed thread's records are written by the governor
alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ctx.core.errors import Forbidden
from ctx.core.governor import operations
from ctx.core.governor.indexer import INDEX_HANDLER, RECORD_TYPE
from ctx.core.governor.settings import SETTINGS
from ctx.core.governor.threads import is_thread_category
from ctx.core.governor.transfer import THREADS_SECTION
from ctx.core.hookspecs import hookimpl
from ctx.core.operations import Operation, declared

if TYPE_CHECKING:
    import psycopg

    from ctx.core.access import Principal
    from ctx.core.app import App
    from ctx.core.blocks import BlockWrite, TransferSection
    from ctx.core.runtime import JobHandler, Setting


@hookimpl
def register_settings(register: Callable[[Setting], None]) -> None:
    for setting in SETTINGS:
        register(setting)


@hookimpl
def register_job_handlers(register: Callable[[JobHandler], None]) -> None:
    register(INDEX_HANDLER)


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    for op in declared(vars(operations)):
        register(op)


@hookimpl
def before_block_write(
    app: App, conn: psycopg.Connection[Any], who: Principal, write: BlockWrite
) -> None:
    """A thread's records derive from its events: a store or edit that would write one (the
    record type, or a thread's category) is refused, so the event and its record never differ.
    An import restores records as they were exported, next to the events they came from."""
    if write.origin in ("governor", "import"):
        return
    if write.spec.name == RECORD_TYPE or is_thread_category(write.category):
        raise Forbidden(
            f"category {write.category!r} / type {write.spec.name!r} hold a governed thread's "
            "records, which the governor writes from the thread's events: record events with "
            "/api/governor/commit, or promote a record to share it"
        )


@hookimpl
def register_transfer_sections(register: Callable[[TransferSection], None]) -> None:
    register(THREADS_SECTION)
