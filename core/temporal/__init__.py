"""Time: the deterministic temporal parser (rules from plugins, no model), the extraction job that
dates each block, gravity math, and the date channel's query.

Entry points: ``parser_from_host(host).parse(text, now=...)`` for queries (``App.temporal_parser``
holds one), ``gravity_factors(app, ids, result)`` for re-ranking, ``date_query(result)`` for the
date channel, ``find_dates`` and ``dimensions_for`` for extraction. Language plugins build their
matchers with ``build_matchers(Lexicon(...))``, and add rules of their own written with
``temporal_kit``.
"""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.temporal import kit as temporal_kit
    from ctx.core.temporal.cascade import CASCADE, RuleEntry, build_matchers
    from ctx.core.temporal.engine import (
        TemporalParser,
        has_temporal_intent,
        parser_from_host,
    )
    from ctx.core.temporal.extract import DateMention, find_dates, iter_date_mentions
    from ctx.core.temporal.fts import fts_terms, temporal_fts_expansion, to_tsquery_or
    from ctx.core.temporal.gravity import (
        GravityQuery,
        cyclic_gravity,
        days_from,
        dimensions_for,
        gravity_factor,
        linear_gravity,
    )
    from ctx.core.temporal.indexing import (
        content_times,
        date_token,
        extract_block,
        extract_pending,
        relative_parser,
    )
    from ctx.core.temporal.lexicon import Lexicon, TokSpec
    from ctx.core.temporal.ranking import date_query, gravity_factors
    from ctx.core.temporal.types import (
        FALLBACK_SKIPPED,
        ParseContext,
        TemporalMatcher,
        TemporalResult,
        direction_between,
        resolved_window,
    )

__all__ = [
    "CASCADE",
    "FALLBACK_SKIPPED",
    "DateMention",
    "GravityQuery",
    "Lexicon",
    "ParseContext",
    "RuleEntry",
    "TemporalMatcher",
    "TemporalParser",
    "TemporalResult",
    "TokSpec",
    "build_matchers",
    "content_times",
    "cyclic_gravity",
    "date_query",
    "date_token",
    "days_from",
    "dimensions_for",
    "direction_between",
    "extract_block",
    "extract_pending",
    "find_dates",
    "fts_terms",
    "gravity_factor",
    "gravity_factors",
    "has_temporal_intent",
    "iter_date_mentions",
    "linear_gravity",
    "parser_from_host",
    "relative_parser",
    "resolved_window",
    "temporal_fts_expansion",
    "temporal_kit",
    "to_tsquery_or",
]

# Imported on first use (see ctx.core.lazy): a thin client loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
