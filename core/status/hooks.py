"""The server's status as a plugin of the core: its operation."""

from __future__ import annotations

from collections.abc import Callable

from ctx.core.hookspecs import hookimpl
from ctx.core.operations import Operation, declared
from ctx.core.status import operations


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    for op in declared(vars(operations)):
        register(op)
