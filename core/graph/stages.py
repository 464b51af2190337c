"""Query stages that read links.

``graph`` (after gravity, before rerank): the best ``query.graph_seeds`` candidates pull in their
1-hop neighbours along positive links: causal, factual, topical, recurrent, and supersedes from
an old block to the block that replaces it (never back to the outdated one); at most
``PER_SEED`` per seed, the most confident first. Each link endorses its neighbour with
type weight x confidence x the seed's score relative to the best candidate (type weights as the
seed's expansion: topical 0.5, factual and causal 0.9, recurrent and supersedes 1.0). A neighbour
already among the candidates is reinforced: score x (1 + ``query.graph_boost`` x min(1,
endorsement)). A new one joins at the best score x ``query.graph_placement`` x min(1,
endorsement), at most ``query.graph_max_new`` of them: inside the window the thresholds and
the reranker see, below the native best hits. Neighbours pass the query's own filters (scopes,
category, tags, excluded ids and types) and the types' reach in the graph (``TYPE_REACH``: no
excluded type, a private one only in the category the query names). The seed's production
verdict was graph on; docs/benchmarks.md has our measurement with and without. A
``translation`` link is not followed: the other language's version says the same again and would
spend the budget twice (the query reaches either language through the multilingual embedding).

``supersedes`` (after rerank): sources carry ``superseded_by``. For a query that names no time, a
superseded block is dropped when one of its superseders is among the candidates too, and that
superseder takes its place if it ranked lower; a query that names a time keeps the history.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctx.core.graph.links import link_rows, superseders
from ctx.core.retrieval import Candidate, QueryStage, by_score

if TYPE_CHECKING:
    from ctx.core.retrieval import QueryRun

POSITIVE = ("causal", "factual", "topical", "recurrent", "supersedes")
TYPE_WEIGHT = {"topical": 0.5, "factual": 0.9, "causal": 0.9, "recurrent": 1.0, "supersedes": 1.0}
PER_SEED = 3  # neighbours per seed, the most confident first


def _endorsements(q: QueryRun, seeds: list[Candidate], top: float) -> dict[str, float]:
    """Neighbour id -> how strongly the seeds' links endorse it."""
    s = q.app.settings
    seed_score = {c.block_id: c.score for c in seeds}
    links = q.read(
        lambda conn: link_rows(conn, list(seed_score), q.scopes, types=POSITIVE,
                               min_confidence=float(s["query.graph_min_confidence"]),
                               limit=PER_SEED * 4 * len(seed_score))
    )  # fmt: skip
    taken: dict[str, int] = {}
    out: dict[str, float] = {}
    for link in links:  # most confident first
        ends = (link["source_id"], link["target_id"])
        for seed, other in (ends, ends[::-1]):
            if seed not in seed_score or other == seed:
                continue
            if link["link_type"] == "supersedes" and seed == link["source_id"]:
                continue  # from the newer block, never back to the outdated one
            if taken.get(seed, 0) >= PER_SEED:
                continue
            taken[seed] = taken.get(seed, 0) + 1
            weight = TYPE_WEIGHT[link["link_type"]] * float(link["confidence"])
            out[other] = out.get(other, 0.0) + weight * (seed_score[seed] / top if top else 0.0)
    return out


def _admissible(q: QueryRun, ids: list[str]) -> dict[str, float]:
    """The neighbours the query's filters let in, with their type's retrieval factor."""
    req = q.request
    rows = q.read(
        lambda conn: conn.execute(
            "SELECT id::text AS id, block_type, category, tags FROM context_blocks "
            "WHERE id = ANY(%s::uuid[]) AND scope = ANY(%s) AND NOT is_archived",
            (ids, q.scopes),
        ).fetchall()
    )
    # a private type's blocks only in the category the query names (as in ctx_rrf)
    named = req.private_category if req.private_category is not None else req.category
    out: dict[str, float] = {}
    for r in rows:
        spec = q.app.block_type(r["block_type"])
        if spec is None or not spec.seen_in("graph", r["category"], named):
            continue
        if r["block_type"] in req.exclude_types or r["id"] in req.exclude_ids:
            continue
        if req.category is not None and r["category"] != req.category:
            continue
        if req.tags and not set(req.tags) <= set(r["tags"]):
            continue
        out[r["id"]] = spec.effective_factor
    return out


def graph(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """1-hop neighbours of the best candidates along positive links: present ones reinforced,
    new ones placed below the best hits."""
    s = q.app.settings
    if not candidates or not s["query.graph_expansion"]:
        return candidates
    top = max(c.score for c in candidates)
    seeds = candidates[: int(s["query.graph_seeds"])]
    found = _endorsements(q, seeds, top)
    if not found:
        return candidates
    factors = _admissible(q, list(found))
    boost, placement = float(s["query.graph_boost"]), float(s["query.graph_placement"])
    by_id = {c.block_id: c for c in candidates}
    new = sorted((b for b in factors if b not in by_id), key=lambda b: (-found[b], b))
    raised = 0
    for block_id in factors:
        c = by_id.get(block_id)
        if c is not None:
            c.rescore("graph", 1.0 + boost * min(1.0, found[block_id]))
            raised += 1
    added = new[: int(s["query.graph_max_new"])]
    for block_id in added:
        score = top * placement * min(1.0, found[block_id]) * factors[block_id]
        candidates.append(Candidate(block_id, score, factors={"graph": round(score, 6)}))
    q.note(seeds=len(seeds), added=len(added), raised=raised)
    return by_score(candidates)


def supersedes(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """Mark superseded sources; without a named time, the newer version replaces the older one
    when both are candidates."""
    if not candidates:
        return candidates
    ids = [c.block_id for c in candidates]
    confidence = float(q.app.settings["query.supersedes_confidence"])
    newer = q.read(lambda conn: superseders(conn, ids, q.scopes, confidence))
    if not newer:
        return candidates
    for old, by in newer.items():
        q.source_fields.setdefault(old, {})["superseded_by"] = sorted(by)
    if q.temporal.matched or not q.app.settings["query.supersedes_filter"]:
        q.note(marked=len(newer), dropped=0)
        return candidates
    dropped = _drop_superseded(candidates, newer)
    q.note(marked=len(newer), dropped=len(candidates) - len(dropped))
    return dropped


def _later(block: str, newer: dict[str, list[str]]) -> set[str]:
    """Every newer version of ``block`` (chains followed: a by b, b by c; cycles stop)."""
    seen: set[str] = set()
    frontier = [block]
    while frontier:
        frontier = [s for b in frontier for s in newer.get(b, []) if s not in seen and s != block]
        seen.update(frontier)
    return seen


def _newest(block: str, newer: dict[str, list[str]], order: dict[str, int]) -> str | None:
    """The newest version of ``block`` among the candidates (``order``: id -> position): the one
    with no newer candidate version of its own, the best placed on a tie; None without one."""
    present = [s for s in _later(block, newer) if s in order]
    if not present:
        return None
    return min(present, key=lambda s: (len(_later(s, newer) & order.keys()), order[s]))


def _drop_superseded(candidates: list[Candidate], newer: dict[str, list[str]]) -> list[Candidate]:
    """Each superseded candidate whose newer version is present gives way: the newest present
    version takes the best place any of its versions held, and the others go."""
    order = {c.block_id: i for i, c in enumerate(candidates)}
    heir: dict[str, str] = {}
    for c in candidates:
        newest = _newest(c.block_id, newer, order)
        if newest is not None:
            heir[c.block_id] = newest
    out: list[Candidate] = []
    placed: set[str] = set()
    by_id = {c.block_id: c for c in candidates}
    for c in candidates:
        target = heir.get(c.block_id, c.block_id)
        if target in placed:
            continue
        keep = by_id[target]
        keep.score = max(keep.score, c.score)
        out.append(keep)
        placed.add(target)
    return out


EXPANSION_STAGE = QueryStage("graph", graph, before="rerank", description=graph.__doc__ or "")
SUPERSEDES_STAGE = QueryStage(
    "supersedes", supersedes, after="rerank", description=supersedes.__doc__ or ""
)
