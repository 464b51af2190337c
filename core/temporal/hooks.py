"""The temporal capability as a plugin of the core: the extraction job kind, and the job each
changed block of a dated type gets."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ctx.core.hookspecs import hookimpl
from ctx.core.temporal.indexing import TEMPORAL_JOBS

if TYPE_CHECKING:
    from ctx.core.blocks import BlockWrite
    from ctx.core.runtime import JobHandler


@hookimpl
def register_job_handlers(register: Callable[[JobHandler], None]) -> None:
    register(TEMPORAL_JOBS)


@hookimpl
def before_block_write(write: BlockWrite) -> None:
    if write.spec.temporal_extract and write.changed("content", "block_type", "occurred_at"):
        write.queue_job(TEMPORAL_JOBS.kind)
