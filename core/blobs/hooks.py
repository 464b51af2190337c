"""The blobs capability's settings and operations."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ctx.core.blobs import operations
from ctx.core.blobs.transfer import BLOBS_SECTION
from ctx.core.hookspecs import hookimpl
from ctx.core.operations import Operation, declared
from ctx.core.runtime import Setting

if TYPE_CHECKING:
    from ctx.core.blocks import TransferSection


@hookimpl
def register_settings(register: Callable[[Setting], None]) -> None:
    register(
        Setting(
            "blob.max_bytes",
            int,
            50 * 1_048_576,
            "Largest blob in bytes (decoded); larger ones get HTTP 413. The request body limit "
            "of /api/blob/store is server.blob_body_limit (base64 adds a third).",
            minimum=1,
            maximum=1024 * 1_048_576,
        )
    )
    register(
        Setting(
            "blob.writes_per_minute",
            int,
            60,
            "Blob stores per key and minute before HTTP 429 (0: no limit).",
            minimum=0,
            maximum=100_000,
        )
    )


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    for op in declared(vars(operations)):
        register(op)


@hookimpl
def register_transfer_sections(register: Callable[[TransferSection], None]) -> None:
    register(BLOBS_SECTION)
