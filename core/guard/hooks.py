"""The Guard as a plugin of the core: its settings, its job kind, the check each changed block
of a dedup type gets, and its operations."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ctx.core.guard import operations
from ctx.core.guard.jobs import GUARD_JOBS
from ctx.core.guard.threshold_transfer import THRESHOLDS_SECTION
from ctx.core.guard.transfer import GUARD_SECTION
from ctx.core.hookspecs import hookimpl
from ctx.core.operations import Operation, declared
from ctx.core.runtime import Setting

if TYPE_CHECKING:
    import psycopg

    from ctx.core.access import Principal
    from ctx.core.app import App
    from ctx.core.blocks import BlockWrite, TransferSection
    from ctx.core.runtime import JobHandler

SETTINGS = [
    Setting(
        "guard.enabled",
        bool,
        True,
        "Check changed blocks of dedup types for near-duplicates.",
    ),
    Setting(
        "guard.same_words",
        bool,
        True,
        "A block is archived as a copy only when its content also uses the same words as the "
        "earlier block's (apart from case, punctuation, function words and typos), so a changed "
        "number, date, name or decision is flagged for review instead. Off: the similarity "
        "alone decides, as in the seed.",
    ),
    Setting(
        "guard.updates",
        bool,
        True,
        "A block that says an earlier one again with changed values (a date, amount, name, "
        "version, a flipped decision) or an added follow-up is recorded as an update: a "
        "supersedes link from the newer block to the older one, which stays as history. Off: "
        "such a block is flagged for review. Needs guard.same_words.",
    ),
    Setting(
        "guard.translations",
        bool,
        True,
        "A block as similar as review asks, written in the other language (English / German) "
        "than the earlier block, is linked to it as a translation, not flagged. Off: flagged "
        "for review. Needs guard.same_words.",
    ),
]


@hookimpl
def register_settings(register: Callable[[Setting], None]) -> None:
    for setting in SETTINGS:
        register(setting)


@hookimpl
def register_job_handlers(register: Callable[[JobHandler], None]) -> None:
    register(GUARD_JOBS)


@hookimpl
def before_block_write(
    app: App, conn: psycopg.Connection[dict[str, Any]], who: Principal, write: BlockWrite
) -> None:
    spec = write.spec
    if not (spec.guard_dedup and spec.embed and app.settings["guard.enabled"]):
        return
    if write.changed("content", "block_type") or write.revives:
        write.queue_job(GUARD_JOBS.kind)  # a revived copy is checked again


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    for op in declared(vars(operations)):
        register(op)


@hookimpl
def register_transfer_sections(register: Callable[[TransferSection], None]) -> None:
    register(GUARD_SECTION)
    register(THRESHOLDS_SECTION)
