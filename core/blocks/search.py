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
    where = f"""(b.scope = ANY(%(scopes)s)
                         OR b.id IN (SELECT unnest(ctx_granted_blocks(%(tenant)s::uuid))))
                    AND NOT b.is_archived
                    AND (%(category)s::text IS NULL OR b.category = %(category)s)
                    AND {LISTED}
                    AND b.tags @> %(tags)s"""
    rows = app.reads(who).run(
        lambda conn: conn.execute(
            f"""
            WITH hits AS (
            -- one branch per configuration, each with its own GIN index (the planner would not
            -- combine the two for an OR of both: a seq scan evaluating every row's tsvectors)
            SELECT m.id, max(m.score) AS score, max(m.updated_at) AS updated_at
              FROM (SELECT b.id, b.updated_at, ts_rank_cd(b.ts_en, websearch_to_tsquery('english', %(q)s)) AS score
                      FROM context_blocks b
                     WHERE b.ts_en @@ websearch_to_tsquery('english', %(q)s) AND {where}
                    UNION ALL
                    SELECT b.id, b.updated_at, ts_rank_cd(b.ts_de, websearch_to_tsquery('german', %(q)s)) AS score
                      FROM context_blocks b
                     WHERE b.ts_de @@ websearch_to_tsquery('german', %(q)s) AND {where}) m
             GROUP BY m.id
             ORDER BY score DESC, updated_at DESC
             LIMIT %(limit)s
            )
            -- the snippet of the hits only: ts_headline reads a block's whole content
            SELECT b.id, b.title, b.category, b.scope, b.block_type, b.tags, b.updated_at,
                   h.score,
                   ts_headline('english', b.content, websearch_to_tsquery('english', %(q)s),
                               'MaxWords=30, MinWords=10, MaxFragments=1, StartSel=**, StopSel=**') AS snippet
              FROM hits h JOIN context_blocks b ON b.id = h.id
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
            # Planned for these values every time: the planner folds the tsqueries to constants
            # and picks each branch's plan by how many rows the words match. A prepared
            # statement's generic plan could not, and parsed the tsqueries again for every row
            # (10x a plain full-text query at 10,000 blocks).
            prepare=False,
        ).fetchall()
    )
    return [{**row_out(r), "score": float(r["score"])} for r in rows]


def search(app: App, who: Principal, req: SearchRequest) -> dict[str, Any]:
    """The answer of ``/api/search``: the hits and their count."""
    hits = search_blocks(app, who, req)
    return {"results": hits, "count": len(hits)}
