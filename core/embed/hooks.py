"""The embed capability as a plugin of the core: its settings, its job kinds, and the embed job
each changed block of an embedding type gets."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ctx.core.embed.context import CONTEXT_JOBS
from ctx.core.embed.jobs import EMBED_JOBS
from ctx.core.embed.rebuild import REBUILD_JOBS
from ctx.core.embed.settings import SETTINGS
from ctx.core.hookspecs import hookimpl

if TYPE_CHECKING:
    from ctx.core.blocks import BlockWrite
    from ctx.core.runtime import JobHandler, Setting


@hookimpl
def register_settings(register: Callable[[Setting], None]) -> None:
    for setting in SETTINGS:
        register(setting)


@hookimpl
def register_job_handlers(register: Callable[[JobHandler], None]) -> None:
    register(EMBED_JOBS)
    register(REBUILD_JOBS)
    register(CONTEXT_JOBS)


@hookimpl
def before_block_write(write: BlockWrite) -> None:
    if write.spec.embed and write.changed("content", "block_type"):
        write.queue_job(EMBED_JOBS.kind)
