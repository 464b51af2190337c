"""The ``rescore`` stage: the head of the fused list re-ordered by how strongly each channel
matched, not only where.

Rank fusion keeps recall but forgets margins: a block whose words match the question far better
than the next one's, or whose meaning is far closer, gets the same 1 / (k + 1) as a narrow
winner. The first ``query.rescore_depth`` candidates are re-ordered by a weighted sum of their
channel scores, each min-max normalised within that head (a block the channel did not find
counts 0): the dense
similarity, the full-text score of the query's language and that of the other language, the
share of the question's words the block contains weighted by their rarity (the coverage the
confidence class reads, per block: full-text ranking has no notion of a rare word), and (when
the query names a time) whether the block lies in it, times the factor fusion gave the block
(its mass and its type's retrieval factor). The
head keeps its scores (handed out again in the new order), so later stages and the thresholds
see the same scale.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctx.core.retrieval.candidates import Candidate
from ctx.core.retrieval.confidence import WordHits, word_hits

if TYPE_CHECKING:
    from ctx.core.retrieval.pipeline import QueryRun


def _min_max(scored: dict[str, float]) -> dict[str, float]:
    if not scored:
        return {}
    lo, hi = min(scored.values()), max(scored.values())
    span = hi - lo
    return {b: (v - lo) / span if span else 1.0 for b, v in scored.items()}


def _normalised(candidates: list[Candidate], channel: str) -> dict[str, float]:
    if channel == "dates":  # rank only: every block of the named time is in it alike
        return {c.block_id: 1.0 for c in candidates if c.ranks.get("dates") is not None}
    return _min_max(
        {
            c.block_id: float(v)
            for c in candidates
            if (v := c.channel_scores.get(channel)) is not None
        }
    )


def question_texts(q: QueryRun) -> list[tuple[str, bool]]:
    """The question as its words count for coverage, with whether to read it as German: the
    query, and its English translation when it was translated; without the time words when it
    names a time (the date channel answers those)."""
    german = q.language.get("language") == "de"
    texts = [(q.request.query, german)]
    if q.search_text and q.search_text != q.request.query:
        texts.append((q.search_text, False))
    if q.temporal.matched:
        texts = [(q.app.temporal_parser.residual(text), de) for text, de in texts]
    return texts


def question_hits(q: QueryRun, ids: list[str]) -> list[WordHits]:
    """The word hits of each of ``question_texts`` in ``ids``: looked up once per query (the
    rescore asks for the head), then answered from that for blocks among them (the thresholds
    ask for the first three)."""
    if q.word_hits and all(set(ids) <= h.found_in.keys() for h in q.word_hits):
        return [h.only(ids) for h in q.word_hits]
    texts = question_texts(q)
    q.word_hits = q.read(
        lambda conn: [word_hits(conn, text, de, q.scopes, ids) for text, de in texts]
    )
    return q.word_hits


def coverage_of(q: QueryRun, ids: list[str]) -> dict[str, float]:
    """Per block of ``ids``: the rarity-weighted share of the question's words it contains
    (the better of the query and its translation)."""
    out: dict[str, float] = {}
    for hits in question_hits(q, ids):
        for block_id, share in hits.per_block().items():
            out[block_id] = max(out.get(block_id, 0.0), share)
    return out


def _policy(q: QueryRun, head: list[Candidate]) -> dict[str, float]:
    """Per block the factor fusion multiplied its score by (mass factor and type factor): the
    strength keeps it, so a damped type is not put first by the re-ordering."""
    rows = q.read(
        lambda conn: conn.execute(
            "SELECT b.id::text AS id, b.time_mass * t.factor AS factor FROM context_blocks b "
            "JOIN context_type_reach t ON t.name = b.block_type WHERE b.id = ANY(%s::uuid[])",
            ([c.block_id for c in head],),
        ).fetchall()
    )
    return {r["id"]: float(r["factor"]) for r in rows}


def rescore_weights(q: QueryRun) -> dict[str, float]:
    """Per channel the weight of its normalised score: the query's language gets the full-text
    weight, the other language the smaller one (a channel the query switched off counts 0)."""
    s = q.app.settings
    german = q.language.get("language") == "de"
    fts, other = float(s["query.rescore_weight_fts"]), float(s["query.rescore_weight_fts_other"])
    dense = s["query.rescore_weight_dense_de"] if german else s["query.rescore_weight_dense"]
    weights = {
        "dense": float(dense),
        "fts_en": other if german else fts,
        "fts_de": fts if german else other,
        "coverage": float(s["query.rescore_weight_coverage"]),
    }
    if q.temporal.matched:
        weights["dates"] = float(s["query.rescore_weight_dates"])
    return {
        name: w if name == "coverage" or q.weights.get(name, 0.0) > 0 else 0.0
        for name, w in weights.items()
    }


TEXT_CHANNELS = ("fts_en", "fts_de")


def _gate_text(
    norms: dict[str, dict[str, float]], support: dict[str, float] | None, share: float
) -> None:
    """Scale each block's full-text scores by its ``support`` (0..1): ``(1 - share) + share x
    support``, so a text match the support does not back pulls less; nothing without support."""
    if share <= 0 or support is None:
        return
    for name in TEXT_CHANNELS:
        if name in norms:
            norms[name] = {
                b: v * ((1.0 - share) + share * support.get(b, 0.0)) for b, v in norms[name].items()
            }


def rescore(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """Re-order the first ``query.rescore_depth`` candidates by their weighted, normalised
    channel scores (0: fusion order)."""
    depth = int(q.app.settings["query.rescore_depth"])
    if depth < 2 or len(candidates) < 2:
        return candidates
    weights = rescore_weights(q)
    head, tail = candidates[:depth], candidates[depth:]
    norms = {
        name: _normalised(head, name) for name, w in weights.items() if w > 0 and name != "coverage"
    }
    s = q.app.settings
    by_words = float(s["query.rescore_text_coverage"])
    covered = (
        coverage_of(q, [c.block_id for c in head])
        if weights["coverage"] > 0 or by_words > 0
        else {}
    )
    if weights["coverage"] > 0:
        norms["coverage"] = _min_max(covered)
    _gate_text(norms, covered, by_words)
    if not norms:
        return candidates
    policy = _policy(q, head)
    strength = {
        c.block_id: policy.get(c.block_id, 1.0)
        * sum(weights[name] * n.get(c.block_id, 0.0) for name, n in norms.items())
        for c in head
    }
    scores = sorted((c.score for c in head), reverse=True)
    # Stable: equal strength keeps the fusion order.
    reordered = sorted(head, key=lambda c: -strength[c.block_id])
    moved = 0
    for c, score in zip(reordered, scores, strict=True):
        if score != c.score:
            moved += 1
            c.factors["rescore"] = round(score / c.score, 6) if c.score else 1.0
            c.score = score
    q.note(depth=len(head), moved=moved)
    return reordered + tail
