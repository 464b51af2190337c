"""Temporal ranking at query time: the date channel's query and gravity over the candidates.

A parsed temporal expression feeds the date channel of ``ctx_rrf``; after fusion, linear and
cyclic gravity multiply the candidates' scores by the pull of their content times.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

from ctx.core.temporal.fts import MAX_DAYS, fts_terms
from ctx.core.temporal.gravity import GravityQuery
from ctx.core.temporal.indexing import date_token
from ctx.core.temporal.types import TemporalResult

if TYPE_CHECKING:
    from ctx.core.app import App
    from ctx.core.runtime import Reads


def date_query(result: TemporalResult) -> str | None:
    """The date channel's tsquery ('d20260323 | m202603'), or None when nothing resolved.

    A span of more than a week is asked for by its months alone: its first and last day as
    well would rank the blocks dated on those two days above the rest of the span. A purely
    cyclic result ("during Thanksgiving" with no year or tense: every Thanksgiving) names no
    day on the time line, so it asks nothing; cyclic gravity carries it."""
    if not result.matched or result.weights.get("linear", 0.0) <= 0:
        return None
    days = result.days(limit=3660)
    terms = fts_terms(days)
    if len(set(days)) > MAX_DAYS:
        terms = [t for t in terms if len(t) == 7]  # the YYYY-MM prefixes
    return " | ".join(date_token(t) for t in terms) or None


def gravity_factors(
    app: App,
    block_ids: Sequence[str],
    result: TemporalResult,
    *,
    boost_cap: float | None = None,
    reads: Reads | None = None,
) -> dict[str, float]:
    """Each block's gravity toward the time ``result`` names: 1.0 (no pull) to 1 + ``boost_cap``.

    Blocks without content times get 1.0, so undated blocks stay where fusion put them. The
    times are read where ``reads`` says (default: the primary).
    """
    if not block_ids or not result.matched:
        return dict.fromkeys(block_ids, 1.0)
    gq = (
        GravityQuery.from_result(result)
        if boost_cap is None
        else GravityQuery.from_result(result, boost_cap=boost_cap)
    )
    found = (reads or app.reads()).run(
        lambda conn: conn.execute(
            "SELECT block_id::text AS block_id, source_date, dimension, value "
            "FROM context_temporal WHERE block_id = ANY(%s::uuid[])",
            (list(block_ids),),
        ).fetchall()
    )
    per_block: dict[str, dict[date, dict[str, float]]] = defaultdict(dict)
    for f in found:
        per_block[f["block_id"]].setdefault(f["source_date"], {})[f["dimension"]] = f["value"]
    out = {}
    for block_id in block_ids:
        dims = per_block.get(block_id)
        out[block_id] = gq.factor(list(dims), list(dims.values())) if dims else 1.0
    return out
