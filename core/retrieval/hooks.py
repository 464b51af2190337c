"""The retrieval capability as a plugin of the core: its settings and its built-in stages."""

from __future__ import annotations

from collections.abc import Callable

from ctx.core.hookspecs import hookimpl
from ctx.core.retrieval.pipeline import QueryStage
from ctx.core.retrieval.settings import SETTINGS, THRESHOLDS_ORDERED
from ctx.core.retrieval.stages import BUILTIN_STAGES
from ctx.core.runtime import Setting, SettingCheck


@hookimpl
def register_settings(register: Callable[[Setting | SettingCheck], None]) -> None:
    for setting in SETTINGS:
        register(setting)
    register(THRESHOLDS_ORDERED)


@hookimpl
def register_query_stages(register: Callable[[QueryStage], None]) -> None:
    for stage in BUILTIN_STAGES:
        register(stage)
