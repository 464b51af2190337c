"""The blocks capability's own settings, its write events (``NOTIFY ctx_events``), the export
section of its versions and its types' section of the admin export."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ctx.core.blocks import operations
from ctx.core.blocks.events import announce_block_written
from ctx.core.blocks.type_transfer import TYPES_SECTION
from ctx.core.blocks.version_transfer import VERSIONS_SECTION
from ctx.core.hookspecs import hookimpl
from ctx.core.operations import Operation, declared
from ctx.core.runtime import Setting, TransferSection

if TYPE_CHECKING:
    from ctx.core.app import App


@hookimpl
def register_settings(register: Callable[[Setting], None]) -> None:
    register(
        Setting(
            "search.default_limit",
            int,
            10,
            "Results of /api/search when no limit is given.",
            minimum=1,
            maximum=100,
        )
    )
    register(
        Setting(
            "blocks.versions_kept",
            int,
            0,
            "How many past versions of each block are kept (the newest; 0: all of them). A "
            "lower value applies at a block's next change.",
            minimum=0,
            maximum=1_000_000,
        )
    )


@hookimpl
def on_block_written(app: App, block: dict[str, Any], action: str) -> None:
    announce_block_written(app, block, action)


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    for op in declared(vars(operations)):
        register(op)


@hookimpl
def register_transfer_sections(register: Callable[[TransferSection], None]) -> None:
    register(TYPES_SECTION)
    register(VERSIONS_SECTION)
