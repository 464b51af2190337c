"""LoCoMo with and without the graph expansion stage, on a store where links exist.

No model writes links here, so a stand-in makes them: every turn is linked (``topical``,
confidence 0.8) to its ``k`` most similar turns of the same conversation by raw embedding, at
least ``min_similarity`` alike and not its own neighbours in writing order (those the neighbours
stage covers already). That is the kind of link Dream's topical fallback makes, without the
model's judgement, so it is a noisier graph than Dream's. The hybrid ranking then runs to the
graph stage, once with it and once without.
"""

from __future__ import annotations

from typing import Any

from _common import principal
from locomo_data import Conversation, first_hit, summarise

from ctx.core import App, QueryRequest, retrieval
from ctx.core.embed import active_generation
from ctx.core.graph import write_link

LINKED = """
SELECT b.id::text AS id, n.id::text AS other, n.sim
  FROM context_blocks b
  JOIN context_block_embeddings e ON e.block_id = b.id AND e.generation = {gen}
 CROSS JOIN LATERAL (
       SELECT o.id, 1 - (oe.embedding::halfvec({dims}) <=> e.embedding::halfvec({dims})) AS sim
         FROM context_block_embeddings oe JOIN context_blocks o ON o.id = oe.block_id
        WHERE oe.generation = {gen} AND o.scope = b.scope AND o.id <> b.id
          AND abs(extract(epoch FROM o.created_at - b.created_at)) > 0.5
        ORDER BY oe.context::halfvec({dims}) <=> e.embedding::halfvec({dims})
        LIMIT %(k)s) n
 WHERE b.scope = %(scope)s AND n.sim >= %(min)s
"""


def link_stand_in(app: App, convs: list[Conversation], k: int, min_similarity: float) -> int:
    """Write the stand-in links; return how many."""
    written = 0
    with app.connection() as conn:
        gen = active_generation(conn)
        assert gen is not None
        sql = LINKED.format(gen=int(gen["id"]), dims=int(gen["dimensions"]))
        for conv in convs:
            rows = conn.execute(sql, {"k": k, "scope": conv.scope, "min": min_similarity})
            for r in rows.fetchall():
                if write_link(conn, r["id"], r["other"], "topical", 0.8) is not None:
                    written += 1
    return written


def ask_to_graph(
    app: App, convs: list[Conversation], by_id: dict[str, str], *, graph: bool
) -> list[tuple[int, int | None]]:
    hits: list[tuple[int, int | None]] = []
    skip = {"temporal"} if graph else {"temporal", "graph"}
    for conv in convs:
        who = principal(conv.scope)
        for q in conv.questions:
            _, rows = retrieval.run_pipeline(
                app, who, QueryRequest(query=q.text, scopes=[conv.scope]), skip=skip,
                stop_after="graph",
            )  # fmt: skip
            ranked = [by_id.get(r.block_id, "") for r in rows]
            hits.append((q.category, first_hit(ranked, q.evidence)))
    return hits


def graph_view(
    app: App, convs: list[Conversation], by_id: dict[str, str], split: Any, k: int, sim: float
) -> dict[str, Any]:
    links = link_stand_in(app, convs, k, sim)
    out: dict[str, Any] = {"links": links, "k": k, "min_similarity": sim}
    for name, on in (("without", False), ("with", True)):
        hits = ask_to_graph(app, convs, by_id, graph=on)
        out[name] = {**summarise(hits), **split(hits, convs)}
    with app.connection() as conn:
        conn.execute("DELETE FROM context_links WHERE note = '' AND origin = 'dream'")
    return out
