"""Retrieval: the query path as named stages, fusion over five channels in one SQL call,
confidence classes, sources, language detection and the reranker contract."""

from ctx.core.retrieval.candidates import Candidate, by_score
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
from ctx.core.retrieval.pipeline import (
    QueryRun,
    QueryStage,
    StageRun,
    build_pipeline,
    query,
    run_pipeline,
)
from ctx.core.retrieval.rerank import Reranker, RerankerFactory, reranker_factories
from ctx.core.retrieval.schemas import QueryRequest, QueryResponse, Source, StageTrace
from ctx.core.retrieval.stages import BUILTIN_STAGES

__all__ = [
    "BUILTIN_STAGES",
    "CHANNELS",
    "SCORE_LABELS",
    "Candidate",
    "Channel",
    "LanguageGuess",
    "QueryRequest",
    "QueryResponse",
    "QueryRun",
    "QueryStage",
    "Reranker",
    "RerankerFactory",
    "Source",
    "StageRun",
    "StageTrace",
    "build_pipeline",
    "by_score",
    "candidates_from_rows",
    "channel_weights",
    "classify",
    "detect_german",
    "fuse",
    "query",
    "reranker_factories",
    "rrf_arguments",
    "rrf_sql",
    "run_pipeline",
    "threshold_scale",
]
