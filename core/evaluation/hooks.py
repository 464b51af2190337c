"""The evaluation as a plugin of the core: its operations and its part of an export."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ctx.core.evaluation import operations
from ctx.core.evaluation.transfer import MARKS_SECTION
from ctx.core.hookspecs import hookimpl
from ctx.core.operations import Operation, declared

if TYPE_CHECKING:
    from ctx.core.blocks import TransferSection


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    for op in declared(vars(operations)):
        register(op)


@hookimpl
def register_transfer_sections(register: Callable[[TransferSection], None]) -> None:
    register(MARKS_SECTION)
