"""The access capability as a plugin of the core: its settings and operations."""

from __future__ import annotations

from collections.abc import Callable

from ctx.core.access import limits, operations
from ctx.core.access.settings import PUBLIC_URL_VALID, SETTINGS
from ctx.core.hookspecs import hookimpl
from ctx.core.operations import Operation, declared
from ctx.core.runtime import Setting, SettingCheck


@hookimpl
def register_settings(register: Callable[[Setting | SettingCheck], None]) -> None:
    for setting in [*SETTINGS, *limits.SETTINGS]:
        register(setting)
    register(PUBLIC_URL_VALID)


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    for op in declared(vars(operations)):
        register(op)
