"""Sources: the blocks a query returns, with a highlighted snippet and their score."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ctx.core.retrieval.candidates import Candidate

if TYPE_CHECKING:
    from ctx.core.app import App
    from ctx.core.runtime import Reads


def fetch_sources(
    app: App,
    candidates: list[Candidate],
    query: str,
    contents: Mapping[str, str] | None = None,
    reads: Reads | None = None,
) -> list[dict[str, Any]]:
    """One source per candidate still stored, in candidate order; ``contents`` (block id ->
    text) are what a source shows instead of its block's current content (a past version).
    Read where ``reads`` says (default: the primary)."""
    if not candidates:
        return []
    given = dict(contents or {})
    found = (reads or app.reads()).run(
        lambda conn: conn.execute(
            """
            SELECT b.id::text AS id, b.title, b.category, b.scope, b.block_type, b.tags,
                   b.occurred_at, b.updated_at,
                   ts_headline('english', left(coalesce(v.content, b.content), 20000), h.q,
                       'MaxWords=40, MinWords=15, MaxFragments=1, StartSel=**, StopSel=**')
                       AS snippet
              FROM context_blocks b
              LEFT JOIN unnest(%s::uuid[], %s::text[]) AS v(id, content) ON v.id = b.id
             CROSS JOIN
                   -- highlight the query's words, not its English or German stopwords
                   (SELECT coalesce(nullif(replace(plainto_tsquery('english', coalesce(
                        (SELECT string_agg(token, ' ') FROM ts_debug('german', %s)
                          WHERE lexemes <> '{}'), ''))::text, '&', '|'), ''), '')::tsquery AS q) h
             WHERE b.id = ANY(%s::uuid[])
            """,
            (list(given), list(given.values()), query, [c.block_id for c in candidates]),
        ).fetchall()
    )
    by_id = {r["id"]: r for r in found}
    out = []
    for c in candidates:
        block = by_id.get(c.block_id)
        if block is None:  # deleted between the two statements
            continue
        out.append({**block, "score": float(c.score)})
    return out
