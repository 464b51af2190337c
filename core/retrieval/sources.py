"""Sources: the blocks a query returns, with a highlighted snippet and their score."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.retrieval.candidates import Candidate

if TYPE_CHECKING:
    from ctx.core.app import App


def fetch_sources(app: App, candidates: list[Candidate], query: str) -> list[dict[str, Any]]:
    """One source per candidate still stored, in candidate order."""
    if not candidates:
        return []
    with app.connection() as conn:
        found = conn.execute(
            """
            SELECT b.id::text AS id, b.title, b.category, b.scope, b.block_type, b.tags,
                   b.occurred_at, b.updated_at,
                   ts_headline('english', left(b.content, 20000), h.q,
                       'MaxWords=40, MinWords=15, MaxFragments=1, StartSel=**, StopSel=**')
                       AS snippet
              FROM context_blocks b,
                   -- highlight the query's words, not its English or German stopwords
                   (SELECT coalesce(nullif(replace(plainto_tsquery('english', coalesce(
                        (SELECT string_agg(token, ' ') FROM ts_debug('german', %s)
                          WHERE lexemes <> '{}'), ''))::text, '&', '|'), ''), '')::tsquery AS q) h
             WHERE b.id = ANY(%s::uuid[])
            """,
            (query, [c.block_id for c in candidates]),
        ).fetchall()
    by_id = {r["id"]: r for r in found}
    out = []
    for c in candidates:
        block = by_id.get(c.block_id)
        if block is None:  # deleted between the two statements
            continue
        out.append({**block, "score": float(c.score)})
    return out
