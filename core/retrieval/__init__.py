"""Retrieval: the query path as named stages, fusion over five channels in one SQL call,
confidence classes, sources, language detection and the reranker contract."""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.retrieval.candidates import Candidate, by_score
    from ctx.core.retrieval.citations import keep_citations
    from ctx.core.retrieval.confidence import classify, threshold_scale
    from ctx.core.retrieval.fusion import (
        CHANNELS,
        SCORE_LABELS,
        Channel,
        candidates_from_rows,
        channel_weights,
        fuse,
        rrf_arguments,
        rrf_sql,
    )
    from ctx.core.retrieval.language import LanguageGuess, detect_german
    from ctx.core.retrieval.operations import QUERY, QUERY_STREAM
    from ctx.core.retrieval.overrides import (
        RETRIEVAL_PREFIX,
        checked_overrides,
        with_settings,
    )
    from ctx.core.retrieval.pipeline import (
        QueryRun,
        QueryStage,
        StageRun,
        StageWatch,
        build_pipeline,
        query,
        run_pipeline,
    )
    from ctx.core.retrieval.rerank import (
        GatedReranker,
        Reranker,
        RerankerFactory,
        RerankResult,
        RerankUnavailable,
        reranker_factories,
    )
    from ctx.core.retrieval.reranking import RERANK_STAGE, BackendsReranker
    from ctx.core.retrieval.schemas import (
        QueryInput,
        QueryRequest,
        QueryResponse,
        Source,
        StageTrace,
    )
    from ctx.core.retrieval.stages import BUILTIN_STAGES
    from ctx.core.retrieval.synthesis import asks_model, query_with_answer
    from ctx.core.retrieval.temporal_llm import calendar_table, resolve_with_llm
    from ctx.core.retrieval.translation import TRANSLATE_STAGE, clean_translation

__all__ = [
    "BUILTIN_STAGES",
    "CHANNELS",
    "QUERY",
    "QUERY_STREAM",
    "RERANK_STAGE",
    "RETRIEVAL_PREFIX",
    "SCORE_LABELS",
    "TRANSLATE_STAGE",
    "BackendsReranker",
    "Candidate",
    "Channel",
    "GatedReranker",
    "LanguageGuess",
    "QueryInput",
    "QueryRequest",
    "QueryResponse",
    "QueryRun",
    "QueryStage",
    "RerankResult",
    "RerankUnavailable",
    "Reranker",
    "RerankerFactory",
    "Source",
    "StageRun",
    "StageTrace",
    "StageWatch",
    "asks_model",
    "build_pipeline",
    "by_score",
    "calendar_table",
    "candidates_from_rows",
    "channel_weights",
    "checked_overrides",
    "classify",
    "clean_translation",
    "detect_german",
    "fuse",
    "keep_citations",
    "query",
    "query_with_answer",
    "reranker_factories",
    "resolve_with_llm",
    "rrf_arguments",
    "rrf_sql",
    "run_pipeline",
    "threshold_scale",
    "with_settings",
]

# Imported on first use (see ctx.core.lazy): a thin client loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
