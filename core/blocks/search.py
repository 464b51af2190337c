"""Light full-text search (English and German configurations), scope-filtered (plus blocks granted
to the caller's tenant), no model.

The hybrid path with embeddings and fusion is ``ctx.core.retrieval``; this one answers from the
full-text indexes alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.access import Principal
from ctx.core.blocks.read import LISTED, row_out
from ctx.core.blocks.schemas import SearchRequest

if TYPE_CHECKING:
    from ctx.core.app import App


def search_blocks(app: App, who: Principal, req: SearchRequest) -> list[dict[str, Any]]:
    scopes = who.scopes_for(req.scopes)
    limit = req.limit or int(app.settings["search.default_limit"])
    with app.connection() as conn:
        rows = conn.execute(
            f"""
            WITH q AS (SELECT websearch_to_tsquery('english', %(q)s) AS en,
                              websearch_to_tsquery('german', %(q)s) AS de),
            hits AS (
            SELECT b.id, greatest(ts_rank_cd(b.ts_en, q.en), ts_rank_cd(b.ts_de, q.de)) AS score
              FROM context_blocks b, q
             WHERE (b.ts_en @@ q.en OR b.ts_de @@ q.de)
               AND (b.scope = ANY(%(scopes)s)
                    OR b.id IN (SELECT unnest(ctx_granted_blocks(%(tenant)s::uuid))))
               AND NOT b.is_archived
               AND (%(category)s::text IS NULL OR b.category = %(category)s)
               AND {LISTED}
               AND b.tags @> %(tags)s
             ORDER BY score DESC, b.updated_at DESC
             LIMIT %(limit)s
            )
            -- the snippet of the hits only: ts_headline reads a block's whole content
            SELECT b.id, b.title, b.category, b.scope, b.block_type, b.tags, b.updated_at,
                   h.score,
                   ts_headline('english', b.content, q.en,
                               'MaxWords=30, MinWords=10, MaxFragments=1, StartSel=**, StopSel=**') AS snippet
              FROM hits h JOIN context_blocks b ON b.id = h.id, q
             ORDER BY h.score DESC, b.updated_at DESC
            """,
            {
                "q": req.query,
                "scopes": scopes,
                # blocks granted to the caller's tenant, unless the search names its scopes
                "tenant": who.tenant_id if req.scopes is None else None,
                "category": req.category,
                "tags": req.tags,
                "limit": limit,
            },
        ).fetchall()
    return [{**row_out(r), "score": float(r["score"])} for r in rows]


def search(app: App, who: Principal, req: SearchRequest) -> dict[str, Any]:
    """The answer of ``/api/search``: the hits and their count."""
    hits = search_blocks(app, who, req)
    return {"results": hits, "count": len(hits)}
