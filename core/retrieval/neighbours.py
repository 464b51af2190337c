"""The ``neighbours`` stage: candidates that sit next to other candidates are pulled up.

Evidence often spans neighbouring blocks: a question names the topic of one turn and the answer
is in the next, a document's point runs over two chunks. Neighbours are what the context
vectors blend (ctx.core.embed.context): blocks of the same scope and category in writing order,
consecutive ones written within ``embed.context_gap_s`` of each other. Each candidate gains
``query.neighbour_weight`` times the fused scores of the candidates within
``query.neighbour_window`` positions of it. Only candidates move: no block the channels did not
find (and the caller's filters did not pass) is added.

Writing order alone makes a sequence of anything stored in a row: notes imported together, the
topics of a manual. ``query.neighbour_gate`` keeps only the pairs whose own embeddings are at
least as similar as the embedder's ``related`` or ``confident`` band (the bands the confidence
class reads): consecutive turns of one conversation mostly are, unrelated notes written
together mostly are not.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from typing import TYPE_CHECKING

from ctx.core.retrieval.candidates import Candidate, by_score
from ctx.core.retrieval.confidence import similarity_bands

if TYPE_CHECKING:
    from ctx.core.retrieval.pipeline import QueryRun

# For each candidate, the blocks written after it in its sequence (up to the window), in order:
# the members the context vectors blend (embedded types the vectors see: context_type_reach).
_FOLLOWERS = """
SELECT c.id::text AS id, c.created_at AS at, n.id::text AS next_id, n.created_at AS next_at
  FROM context_blocks c
 CROSS JOIN LATERAL (
       SELECT x.id, x.created_at FROM context_blocks x
         JOIN context_block_types t ON t.name = x.block_type AND t.embed
         JOIN context_type_reach r ON r.name = x.block_type AND r.vectors = 'all'
        WHERE x.scope = c.scope AND x.category = c.category AND NOT x.is_archived
          AND (x.created_at, x.id) > (c.created_at, c.id)
        ORDER BY x.created_at, x.id LIMIT %(window)s) n
 WHERE c.id = ANY(%(ids)s::uuid[])
 ORDER BY c.id, n.created_at, n.id
"""


def neighbour_pairs(q: QueryRun, ids: list[str], window: int) -> set[tuple[str, str]]:
    """Pairs (a, b) of ``ids`` at most ``window`` positions apart in one sequence, b after a."""
    gap = timedelta(seconds=float(q.app.settings["embed.context_gap_s"]))
    wanted = set(ids)
    rows = q.read(lambda conn: conn.execute(_FOLLOWERS, {"ids": ids, "window": window}).fetchall())
    followers: dict[str, list[tuple[str, object, object]]] = defaultdict(list)
    for r in rows:
        followers[r["id"]].append((r["next_id"], r["at"], r["next_at"]))
    pairs: set[tuple[str, str]] = set()
    for block_id, chain in followers.items():
        previous = chain[0][1] if chain else None
        for next_id, _, next_at in chain:
            if next_at - previous > gap:  # type: ignore[operator]
                break  # the sequence is broken here: nothing further is a neighbour
            if next_id in wanted:
                pairs.add((block_id, next_id))
            previous = next_at
    return pairs


def _pair_similarity_sql(generation: int, dims: int) -> str:
    vec = f"halfvec({int(dims)})"  # literals, as the partial HNSW indexes are declared
    return f"""
    SELECT p.a::text AS a, p.b::text AS b, 1 - (ea.embedding::{vec} <=> eb.embedding::{vec}) AS sim
      FROM unnest(%(a)s::uuid[], %(b)s::uuid[]) AS p(a, b)
      JOIN context_block_embeddings ea ON ea.block_id = p.a AND ea.generation = {int(generation)}
      JOIN context_block_embeddings eb ON eb.block_id = p.b AND eb.generation = {int(generation)}
    """


def gated(q: QueryRun, pairs: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """The pairs similar enough for ``query.neighbour_gate`` (all of them when the gate is
    ``none`` or there is no calibration or no generation)."""
    gate = str(q.app.settings["query.neighbour_gate"])
    bands = similarity_bands(q) if gate != "none" and pairs else None
    if bands is None or q.generation is None:
        return pairs
    floor = bands[0] if gate == "related" else bands[1]
    ordered = sorted(pairs)
    sql = _pair_similarity_sql(q.generation["id"], q.generation["dimensions"])
    pairs_of = {"a": [a for a, _ in ordered], "b": [b for _, b in ordered]}
    rows = q.read(lambda conn: conn.execute(sql, pairs_of).fetchall())
    return {(r["a"], r["b"]) for r in rows if float(r["sim"]) >= floor}


def neighbours(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """Add ``query.neighbour_weight`` times the scores of neighbouring candidates (0: off)."""
    weight = float(q.app.settings["query.neighbour_weight"])
    window = int(q.app.settings["query.neighbour_window"])
    if weight <= 0 or window <= 0 or len(candidates) < 2:
        return candidates
    score = {c.block_id: c.score for c in candidates}
    gain: dict[str, float] = defaultdict(float)
    pairs = gated(q, neighbour_pairs(q, list(score), window))
    for a, b in pairs:
        gain[a] += weight * score[b]
        gain[b] += weight * score[a]
    for c in candidates:
        if gain.get(c.block_id):
            c.rescore("neighbours", (c.score + gain[c.block_id]) / c.score if c.score else 1.0)
    q.note(pairs=len(pairs), pulled=len(gain))
    return by_score(candidates)
