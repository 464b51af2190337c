"""Deterministic temporal resolution: the rule parser, gravity math, FTS expansion and date
extraction. Everything here is pure Python; no database, no LLM.

Entry points: ``parser_from_plugin_manager(pm).parse(text, now=...)`` for queries,
``GravityQuery.from_result(result).factor(content_times, dimensions)`` for re-ranking,
``temporal_fts_expansion(result)`` for the FTS channel, ``find_dates`` and ``dimensions_for`` for
the extraction job.
"""

from ctx.core.temporal.engine import (
    TemporalParser,
    has_temporal_intent,
    parser_from_plugin_manager,
)
from ctx.core.temporal.extract import DateMention, find_dates, iter_date_mentions
from ctx.core.temporal.fts import fts_terms, temporal_fts_expansion, to_tsquery_or
from ctx.core.temporal.gravity import (
    GravityQuery,
    cyclic_gravity,
    dimensions_for,
    gravity_factor,
    linear_gravity,
)
from ctx.core.temporal.types import ParseContext, TemporalMatcher, TemporalResult

__all__ = [
    "DateMention",
    "GravityQuery",
    "ParseContext",
    "TemporalMatcher",
    "TemporalParser",
    "TemporalResult",
    "cyclic_gravity",
    "dimensions_for",
    "find_dates",
    "fts_terms",
    "gravity_factor",
    "has_temporal_intent",
    "iter_date_mentions",
    "linear_gravity",
    "parser_from_plugin_manager",
    "temporal_fts_expansion",
    "to_tsquery_or",
]
