"""Temporal full-text expansion: resolved dates as extra OR terms for the FTS channel.

Only high-precision terms: ISO days ("2026-03-23") and month prefixes ("2026-03"). Weekday and month
names are left out on purpose; they match every block that happens to mention the word. Scale caps:
at most ``MAX_DAYS`` days are expanded one by one (beyond that the first and last day plus the month
prefixes) and at most ``MAX_TERMS`` terms in all.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from ctx.core.temporal.types import TemporalResult

MAX_DAYS = 7
MAX_TERMS = 20


def fts_terms(
    days: Iterable[date], *, max_days: int = MAX_DAYS, max_terms: int = MAX_TERMS
) -> list[str]:
    """ISO days and ``YYYY-MM`` prefixes for ``days``, deduplicated, at most ``max_terms``."""
    unique = sorted(set(days))
    if not unique:
        return []
    expanded = unique if len(unique) <= max_days else [unique[0], unique[-1]]
    terms = [d.isoformat() for d in expanded]
    for day in unique:
        prefix = f"{day.year:04d}-{day.month:02d}"
        if prefix not in terms:
            terms.append(prefix)
    return terms[:max_terms]


def to_tsquery_or(terms: Iterable[str]) -> str:
    """A ``websearch_to_tsquery`` string matching any term; each quoted so it stays one phrase."""
    return " OR ".join(f'"{t}"' for t in terms)


def temporal_fts_expansion(
    result: TemporalResult, *, max_days: int = MAX_DAYS, max_terms: int = MAX_TERMS
) -> tuple[list[str], str]:
    """The FTS terms for a parse result and their OR query; ``([], "")`` when nothing matched."""
    if not result.matched:
        return [], ""
    terms = fts_terms(result.days(limit=3660), max_days=max_days, max_terms=max_terms)
    return terms, to_tsquery_or(terms)
