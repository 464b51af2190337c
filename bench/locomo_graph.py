"""LoCoMo with and without the graph expansion stage, on a store where links exist.

No model writes links here, so stand-ins make them (``topical``, confidence 0.8):

- ``K:MINSIM``: every turn to its ``K`` most similar turns of its conversation by raw embedding,
  at least ``MINSIM`` alike, not written within half a second of it: the surface links a
  similarity-only linker would make;
- ``evidence``: the evidence turns of every odd-numbered question of a conversation linked with
  each other (questions with two or more evidence turns), and only the even-numbered questions
  scored: links between turns that belong together, as Dream is meant to find, made without
  the questions that are asked. It is an optimistic stand-in (the linked turns answer related
  questions), so read it as what expansion gains once links are right.

The hybrid ranking then runs to the graph stage, once with it and once without.
"""

from __future__ import annotations

from typing import Any

from _common import principal
from locomo_data import Conversation, first_hit, summarise

from ctx.core import App, QueryRequest, retrieval
from ctx.core.embed import active_generation
from ctx.core.graph import write_link
from ctx.core.runtime import set_setting, unset_setting

# (query.graph_boost, query.graph_placement): the defaults first, then gentler ones
VARIANTS = ((0.3, 0.6), (0.1, 0.6), (0.0, 0.6), (0.1, 0.3), (0.0, 0.3))

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


def link_evidence(app: App, convs: list[Conversation], by_id: dict[str, str]) -> int:
    """Link the evidence turns of each conversation's odd-numbered questions pairwise."""
    block_of = {dia: block for block, dia in by_id.items()}
    written = 0
    with app.connection() as conn:
        for conv in convs:
            for q in conv.questions[1::2]:
                turns = sorted(block_of[d] for d in q.evidence if d in block_of)
                for i, a in enumerate(turns):
                    for b in turns[i + 1 :]:
                        if write_link(conn, a, b, "topical", 0.8) is not None:
                            written += 1
    return written


def ask_to_graph(
    app: App,
    convs: list[Conversation],
    by_id: dict[str, str],
    *,
    graph: bool,
    every: slice = slice(None),
) -> list[tuple[int, int | None]]:
    hits: list[tuple[int, int | None]] = []
    skip = {"temporal"} if graph else {"temporal", "graph"}
    for conv in convs:
        who = principal(conv.scope)
        for q in conv.questions[every]:
            _, rows = retrieval.run_pipeline(
                app, who, QueryRequest(query=q.text, scopes=[conv.scope]), skip=skip,
                stop_after="graph",
            )  # fmt: skip
            ranked = [by_id.get(r.block_id, "") for r in rows]
            hits.append((q.category, first_hit(ranked, q.evidence)))
    return hits


def graph_view(
    app: App, convs: list[Conversation], by_id: dict[str, str], split: Any, spec: str
) -> dict[str, Any]:
    if spec == "evidence":
        links = link_evidence(app, convs, by_id)
        out: dict[str, Any] = {"links": links, "stand_in": "evidence of the odd questions",
                               "scored": "even questions"}  # fmt: skip
        every = slice(0, None, 2)
    else:
        k, sim = spec.split(":")
        links = link_stand_in(app, convs, int(k), float(sim))
        out = {"links": links, "k": int(k), "min_similarity": float(sim)}
        every = slice(None)
    runs = [("without", False, None)]
    runs += [(f"with boost {b} placement {p}", True, (b, p)) for b, p in VARIANTS]
    for name, on, knobs in runs:
        if knobs is not None:
            set_setting(app, "query.graph_boost", knobs[0])
            set_setting(app, "query.graph_placement", knobs[1])
        hits = ask_to_graph(app, convs, by_id, graph=on, every=every)
        out[name] = summarise(hits)
        if every == slice(None):
            out[name].update(split(hits, convs))
    unset_setting(app, "query.graph_boost")
    unset_setting(app, "query.graph_placement")
    with app.connection() as conn:
        conn.execute("DELETE FROM context_links WHERE note = '' AND origin = 'dream'")
    return out
