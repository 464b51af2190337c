"""ctx's public plugin API: everything a plugin may import, from one place.

    from ctx.core import hookimpl, BlockTypeSpec, Setting, JobHandler, QueryStage, CtxError

Built-in plugins import only this (and ``ctx.ui`` for HTTP routes), like third-party ones; the
modules behind it may move. import-linter enforces it (``pyproject.toml``). Inside the core,
modules import each other's capability packages (``ctx.core.blocks``), never this facade.

The core is a set of capabilities, one package each: ``runtime`` (plugin host, database,
migrations, settings, jobs, worker), ``access`` (keys, principals), ``blocks``, ``embed``,
``temporal``, ``retrieval`` (the query stages), ``llm`` (backend kinds), ``tools`` (agent tools)
and ``cli``. Nothing in ``ctx.core`` imports ``ctx.plugins`` or ``ctx.ui``.
"""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App
    from ctx.core.blocks import (
        SENSITIVITIES,
        UUID_PATTERN,
        AlsoInTransaction,
        BlockChanges,
        BlockTypeSpec,
        BlockWrite,
        ExportContext,
        RestoreContext,
        SearchRequest,
        StoreRequest,
        TransferLine,
        TransferRecord,
        TransferSection,
        block_categories,
        block_stats,
        delete_block,
        get_block,
        list_blocks,
        noted,
        outcome_of,
        search_blocks,
        set_archived,
        skipped,
        store_block,
        update_block,
    )
    from ctx.core.client import Client as ApiClient
    from ctx.core.client import ClientError
    from ctx.core.embed import (
        Embedder,
        EmbedderFactory,
        l2_normalize,
        option_float,
        option_int,
        option_str,
        quality_gate,
        require_str,
        truncate_matryoshka,
    )
    from ctx.core.errors import (
        Ambiguous,
        ConfigError,
        Conflict,
        CtxError,
        DatabaseError,
        EmbeddingError,
        Forbidden,
        NotFound,
        PluginError,
        RateLimited,
        TooLarge,
        Unauthorized,
        ValidationError,
    )
    from ctx.core.governor import ExternalCache, TokenCounter
    from ctx.core.guard import draft_neighbours
    from ctx.core.hookspecs import PROJECT, hookimpl
    from ctx.core.llm import (
        BackendFactory,
        BackendKind,
        ChatResult,
        InvalidResponse,
        Limits,
        ModelError,
        ModelTimeout,
        Piece,
        admit,
        may_see,
    )
    from ctx.core.operations import (
        Access,
        Download,
        Kind,
        Operation,
        Reach,
        Reply,
        Rest,
        declared,
    )
    from ctx.core.operations import Tool as ToolSurface
    from ctx.core.retrieval import (
        Candidate,
        GatedReranker,
        QueryRequest,
        QueryRun,
        QueryStage,
        Reranker,
        RerankerFactory,
        RerankResult,
        by_score,
        query,
    )
    from ctx.core.runtime import Job, JobHandler, JobOutcome, Setting, SettingCheck, enqueue
    from ctx.core.stopwords import GERMAN_STOPWORDS
    from ctx.core.temporal import (
        Lexicon,
        ParseContext,
        RuleEntry,
        TemporalMatcher,
        TemporalResult,
        TokSpec,
        build_matchers,
        temporal_kit,
    )
    from ctx.core.tools import Tool
    from ctx.core.validation import BASE64, SOME_BASE64, IsoDateTime, Strict, shaped

__all__ = [
    "BASE64",
    "GERMAN_STOPWORDS",
    "PROJECT",
    "SENSITIVITIES",
    "SOME_BASE64",
    "UUID_PATTERN",
    "Access",
    "AlsoInTransaction",
    "Ambiguous",
    "ApiClient",
    "App",
    "BackendFactory",
    "BackendKind",
    "BlockChanges",
    "BlockTypeSpec",
    "BlockWrite",
    "Candidate",
    "ChatResult",
    "ClientError",
    "ConfigError",
    "Conflict",
    "CtxError",
    "DatabaseError",
    "Download",
    "Embedder",
    "EmbedderFactory",
    "EmbeddingError",
    "ExportContext",
    "ExternalCache",
    "Forbidden",
    "GatedReranker",
    "InvalidResponse",
    "IsoDateTime",
    "Job",
    "JobHandler",
    "JobOutcome",
    "Kind",
    "Lexicon",
    "Limits",
    "ModelError",
    "ModelTimeout",
    "NotFound",
    "Operation",
    "ParseContext",
    "Piece",
    "PluginError",
    "Principal",
    "QueryRequest",
    "QueryRun",
    "QueryStage",
    "RateLimited",
    "Reach",
    "Reply",
    "RerankResult",
    "Reranker",
    "RerankerFactory",
    "Rest",
    "RestoreContext",
    "RuleEntry",
    "SearchRequest",
    "Setting",
    "SettingCheck",
    "StoreRequest",
    "Strict",
    "TemporalMatcher",
    "TemporalResult",
    "TokSpec",
    "TokenCounter",
    "TooLarge",
    "Tool",
    "ToolSurface",
    "TransferLine",
    "TransferRecord",
    "TransferSection",
    "Unauthorized",
    "ValidationError",
    "admit",
    "block_categories",
    "block_stats",
    "build_matchers",
    "by_score",
    "declared",
    "delete_block",
    "draft_neighbours",
    "enqueue",
    "get_block",
    "hookimpl",
    "l2_normalize",
    "list_blocks",
    "may_see",
    "noted",
    "option_float",
    "option_int",
    "option_str",
    "outcome_of",
    "quality_gate",
    "query",
    "require_str",
    "search_blocks",
    "set_archived",
    "shaped",
    "skipped",
    "store_block",
    "temporal_kit",
    "truncate_matryoshka",
    "update_block",
]

# Imported on first use (see ctx.core.lazy): a `ctx` command loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
