"""The access capability as a plugin of the core: its settings, operations and export sections
(tenancy, sealed secrets, keys: the admin export's)."""

from __future__ import annotations

from collections.abc import Callable

from ctx.core.access import limits, operations
from ctx.core.access.key_transfer import KEYS_SECTION, SECRETS_SECTION
from ctx.core.access.settings import PUBLIC_URL_VALID, SETTINGS
from ctx.core.access.tenant_transfer import BLOCK_GRANTS_SECTION, TENANCY_SECTION
from ctx.core.hookspecs import hookimpl
from ctx.core.operations import Operation, declared
from ctx.core.runtime import Setting, SettingCheck, TransferSection


@hookimpl
def register_settings(register: Callable[[Setting | SettingCheck], None]) -> None:
    for setting in [*SETTINGS, *limits.SETTINGS]:
        register(setting)
    register(PUBLIC_URL_VALID)


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    for op in declared(vars(operations)):
        register(op)


@hookimpl
def register_transfer_sections(register: Callable[[TransferSection], None]) -> None:
    for section in (TENANCY_SECTION, SECRETS_SECTION, KEYS_SECTION, BLOCK_GRANTS_SECTION):
        register(section)
