"""Links and Dream as a plugin of the core: settings, the query stages that read links, and the
graph's operations."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ctx.core.graph import operations
from ctx.core.graph.settings import DREAM_SETTINGS, GRAPH_SETTINGS
from ctx.core.graph.stages import EXPANSION_STAGE, SUPERSEDES_STAGE
from ctx.core.graph.transfer import LINKS_SECTION
from ctx.core.hookspecs import hookimpl
from ctx.core.operations import Operation, declared
from ctx.core.retrieval import QueryStage
from ctx.core.runtime import Setting

if TYPE_CHECKING:
    from ctx.core.blocks import TransferSection


@hookimpl
def register_settings(register: Callable[[Setting], None]) -> None:
    for setting in (*DREAM_SETTINGS, *GRAPH_SETTINGS):
        register(setting)


@hookimpl
def register_query_stages(register: Callable[[QueryStage], None]) -> None:
    register(EXPANSION_STAGE)
    register(SUPERSEDES_STAGE)


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    for op in declared(vars(operations)):
        register(op)


@hookimpl
def register_transfer_sections(register: Callable[[TransferSection], None]) -> None:
    register(LINKS_SECTION)
