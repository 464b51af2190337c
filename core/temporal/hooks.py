"""The temporal capability as a plugin of the core: the extraction job kind, the job each changed
block of a dated type gets, and whether relative expressions date blocks too."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ctx.core.hookspecs import hookimpl
from ctx.core.runtime import Setting
from ctx.core.temporal.indexing import TEMPORAL_JOBS

if TYPE_CHECKING:
    from ctx.core.blocks import BlockWrite
    from ctx.core.runtime import JobHandler


@hookimpl
def register_settings(register: Callable[[Setting], None]) -> None:
    register(
        Setting(
            "temporal.relative_dates",
            bool,
            True,
            "Date blocks by the relative expressions in their text too, read as of the block's "
            'own date ("yesterday" in a note of May 8 names May 7). The seed read only '
            "explicit dates (false); docs/benchmarks.md has both figures. Changing it applies "
            "to blocks extracted afterwards.",
        )
    )


@hookimpl
def register_job_handlers(register: Callable[[JobHandler], None]) -> None:
    register(TEMPORAL_JOBS)


@hookimpl
def before_block_write(write: BlockWrite) -> None:
    if write.spec.temporal_extract and write.changed("content", "block_type", "occurred_at"):
        write.queue_job(TEMPORAL_JOBS.kind)
