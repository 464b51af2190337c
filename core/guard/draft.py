"""Guard's view of a text before it is stored: the closest existing blocks and what Guard would
call a block that close (so a form can say "likely a duplicate of #12" before anything is filed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.embed import active_generation, block_text, vector_literal
from ctx.core.guard.thresholds import thresholds_for

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App

CANDIDATES = 40  # nearest rows read from the index before the type and scope filter settles


def _sql(generation: int, dims: int) -> str:
    vec = f"halfvec({int(dims)})"  # literals, so the generation's partial HNSW index applies
    return f"""
    SELECT n.id::text AS id, n.scope, n.title, n.block_type, 1 - n.distance AS similarity
      FROM (SELECT b.id, b.scope, b.title, b.block_type,
                   e.embedding::{vec} <=> %(vec)s::{vec} AS distance
              FROM context_block_embeddings e
              JOIN context_blocks b ON b.id = e.block_id
              JOIN context_block_types t ON t.name = b.block_type AND t.guard_dedup
             WHERE e.generation = {int(generation)} AND NOT b.is_archived
               AND b.scope = ANY(%(scopes)s)
               AND (%(types)s::text[] IS NULL OR b.block_type = ANY(%(types)s))
             ORDER BY e.embedding::{vec} <=> %(vec)s::{vec}
             LIMIT {CANDIDATES}) n
     ORDER BY n.distance LIMIT %(limit)s
    """


def draft_neighbours(
    app: App,
    who: Principal,
    title: str,
    content: str,
    *,
    block_types: list[str] | None = None,
    limit: int = 5,
) -> list[dict[str, Any]]:
    """The blocks of Guard-checked types (``block_types`` only, when given) in the caller's read
    scopes closest to a draft, each with its ``similarity`` and ``verdict``: ``near_duplicate``
    or ``needs_review`` by the thresholds Guard would use for the block's type, else None.
    Empty without an active embedding generation."""
    with app.connection() as conn:
        generation = active_generation(conn)
        if generation is None:
            return []
        embedder = app.embedders.for_generation(generation)
        vector = embedder.embed_documents([block_text(title, content or title)])[0]
        rows = conn.execute(
            _sql(generation["id"], generation["dimensions"]),
            {
                "vec": vector_literal(vector),
                "scopes": list(who.read_scopes),
                "types": block_types,
                "limit": limit,
            },
        ).fetchall()
        found = []
        for row in rows:
            spec = app.block_type(row["block_type"])
            if spec is None:
                continue
            bounds = thresholds_for(app, conn, spec, generation)
            similarity = float(row["similarity"])
            verdict = (
                "near_duplicate"
                if similarity >= bounds.duplicate
                else "needs_review"
                if similarity >= bounds.review
                else None
            )
            found.append({**dict(row), "similarity": round(similarity, 4), "verdict": verdict})
    return found
