"""The retrieval capability as a plugin of the core: its settings and its built-in stages."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ctx.core.hookspecs import hookimpl
from ctx.core.operations import Operation, declared
from ctx.core.retrieval import operations
from ctx.core.retrieval.past_versions import VERSIONS_STAGE
from ctx.core.retrieval.pipeline import QueryStage
from ctx.core.retrieval.rerank import RerankerFactory
from ctx.core.retrieval.reranking import BUILTIN_RERANKER, RERANK_STAGE, backends_reranker
from ctx.core.retrieval.settings import SETTINGS, THRESHOLDS_ORDERED
from ctx.core.retrieval.stages import BUILTIN_STAGES
from ctx.core.retrieval.synthesis import SYNTHESIS_STAGE
from ctx.core.retrieval.term_stats import (
    SCOPE_TERM_JOBS,
    queue_refresh,
    queue_refresh_after_delete,
)
from ctx.core.retrieval.translation import TRANSLATE_STAGE
from ctx.core.runtime import JobHandler, Setting, SettingCheck

if TYPE_CHECKING:
    from ctx.core.app import App
    from ctx.core.blocks import BlockWrite


@hookimpl
def register_settings(register: Callable[[Setting | SettingCheck], None]) -> None:
    for setting in SETTINGS:
        register(setting)
    register(THRESHOLDS_ORDERED)


@hookimpl
def register_query_stages(register: Callable[[QueryStage], None]) -> None:
    for stage in BUILTIN_STAGES:
        register(stage)
    register(TRANSLATE_STAGE)
    register(RERANK_STAGE)
    register(SYNTHESIS_STAGE)
    register(VERSIONS_STAGE)


@hookimpl
def register_rerankers(register: Callable[[str, RerankerFactory], None]) -> None:
    register(BUILTIN_RERANKER, backends_reranker)


@hookimpl
def register_job_handlers(register: Callable[[JobHandler], None]) -> None:
    register(SCOPE_TERM_JOBS)


@hookimpl
def before_block_write(write: BlockWrite) -> None:
    if write.changed("content") or write.revives:
        queue_refresh(write)


@hookimpl
def on_block_written(app: App, block: dict[str, Any], action: str) -> None:
    if action in ("deleted", "archived", "unarchived") and block.get("scope"):
        queue_refresh_after_delete(app, str(block["scope"]))


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    for op in declared(vars(operations)):
        register(op)
