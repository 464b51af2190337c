"""The access capability as a plugin of the core: its settings."""

from __future__ import annotations

from collections.abc import Callable

from ctx.core.access import limits
from ctx.core.access.settings import PUBLIC_URL_VALID, SETTINGS
from ctx.core.hookspecs import hookimpl
from ctx.core.runtime import Setting, SettingCheck


@hookimpl
def register_settings(register: Callable[[Setting | SettingCheck], None]) -> None:
    for setting in [*SETTINGS, *limits.SETTINGS]:
        register(setting)
    register(PUBLIC_URL_VALID)
