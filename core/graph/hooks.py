"""Links and Dream as a plugin of the core: settings and the query stages that read links."""

from __future__ import annotations

from collections.abc import Callable

from ctx.core.graph.settings import DREAM_SETTINGS, GRAPH_SETTINGS
from ctx.core.graph.stages import EXPANSION_STAGE, SUPERSEDES_STAGE
from ctx.core.hookspecs import hookimpl
from ctx.core.retrieval import QueryStage
from ctx.core.runtime import Setting


@hookimpl
def register_settings(register: Callable[[Setting], None]) -> None:
    for setting in (*DREAM_SETTINGS, *GRAPH_SETTINGS):
        register(setting)


@hookimpl
def register_query_stages(register: Callable[[QueryStage], None]) -> None:
    register(EXPANSION_STAGE)
    register(SUPERSEDES_STAGE)
