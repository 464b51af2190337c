"""Confidence classes: from the evidence of the best hits (the default), or from the fused score
with the seed's thresholds carried across RRF constants."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg

    from ctx.core.retrieval.pipeline import QueryRun

SEED_K = 60  # the confidence thresholds are stated for RRF with k = 60
CONFIDENT = "confident"
LOW_CONFIDENCE = "low_confidence"
#: the sources an answer is written from when the class is low (all of them with the seed's
#: ``query.confidence_cut`` of ``cut``)
LOW_CONFIDENCE_SOURCES = 2
NOTHING_FOUND = "no_relevant_blocks_found"


def threshold_scale(k: int) -> float:
    """Factor that carries the thresholds to another k: the best possible score is Σw / (k + 1)."""
    return (SEED_K + 1) / (k + 1)


def classify(best: float, confident: float, floor: float) -> str:
    if best >= confident:
        return CONFIDENT
    if best >= floor:
        return LOW_CONFIDENCE
    return NOTHING_FOUND


# -- the evidence class ------------------------------------------------------------------------
#
# The fused score says how a block ranks against the others, not whether any of them is about the
# question: the best of a store that knows nothing about it still ranks first. The evidence class
# asks two things the rank cannot say. How close is the nearest block by meaning (the dense
# channel's similarity, read against the bands the embedder was calibrated with)? And how much of
# the question's vocabulary do the first hits contain, weighted by how rare each word is in the
# scopes searched (a name nobody in the store mentions weighs most)?

COVERAGE_HITS = 3  # the first hits whose words count


@dataclass(frozen=True)
class Evidence:
    similarity: float | None  # best dense similarity; None: no dense channel
    #: IDF-weighted share of the query's words (its time words left out) in the first hits;
    #: None: no such word ("what happened yesterday?")
    coverage: float | None
    #: the query names a time: whether a first hit lies in it (None: it names none)
    time_hit: bool | None = None

    def as_dict(self) -> dict[str, float | bool | None]:
        out: dict[str, float | bool | None] = {
            "similarity": None if self.similarity is None else round(self.similarity, 4),
            "coverage": None if self.coverage is None else round(self.coverage, 3),
        }
        if self.time_hit is not None:
            out["time_hit"] = self.time_hit
        return out


@dataclass(frozen=True)
class Bands:
    related_similarity: float | None  # below: the nearest block is not about the question
    confident_similarity: float | None  # at or above: confident on similarity alone
    confident_coverage: float  # with a related similarity: confident
    unrelated_coverage: float  # below, with an unrelated similarity: nothing relevant found
    words_confident: float  # no calibrated similarity: coverage for confident
    words_floor: float  # no calibrated similarity: below, nothing relevant found
    sure_coverage: float = 0.8  # at or above: confident whatever the similarity


def classify_evidence(ev: Evidence, bands: Bands) -> str:
    cov = ev.coverage or 0.0
    if ev.time_hit:
        # The first hits lie in the time the question names: that part is answered. Nothing
        # else asked ("what happened yesterday?"): confident; else the rest must be covered.
        if ev.coverage is None:
            return CONFIDENT
        close = (
            ev.similarity is not None
            and bands.confident_similarity is not None
            and ev.similarity >= bands.confident_similarity
        )
        return CONFIDENT if close or cov >= bands.confident_coverage else LOW_CONFIDENCE
    if (
        ev.similarity is not None
        and bands.related_similarity is not None
        and bands.confident_similarity is not None
    ):
        if ev.similarity >= bands.confident_similarity or cov >= bands.sure_coverage:
            return CONFIDENT
        related = ev.similarity >= bands.related_similarity
        if related and cov >= bands.confident_coverage:
            return CONFIDENT
        if not related and cov < bands.unrelated_coverage:
            return NOTHING_FOUND
        return LOW_CONFIDENCE
    # No calibrated similarity: the words alone.
    if cov >= bands.words_confident:
        return CONFIDENT
    return LOW_CONFIDENCE if cov >= bands.words_floor else NOTHING_FOUND


_WORD_HITS_SQL = """
WITH q AS (
    SELECT DISTINCT unnest(tsvector_to_array(to_tsvector(%(config)s::regconfig, %(query)s))) AS lex
), total AS (
    SELECT coalesce(sum(blocks), 0)::float8 AS n FROM context_scope_stats
     WHERE scope = ANY(%(scopes)s)
), weighted AS (
    SELECT q.lex,
           ln((total.n + 1) / (coalesce((SELECT sum(t.blocks) FROM context_scope_terms t
                                         WHERE t.config = %(config)s::text AND t.lexeme = q.lex
                                           AND t.scope = ANY(%(scopes)s)), 0) + 0.5)) AS idf
      FROM q, total
)
SELECT w.lex, w.idf, b.id::text AS block_id,
       CASE WHEN %(config)s::text = 'german' THEN b.ts_de ELSE b.ts_en END
           @@ quote_literal(w.lex)::tsquery AS hit
  FROM weighted w
  LEFT JOIN context_blocks b ON b.id = ANY(%(ids)s::uuid[])
"""


@dataclass(frozen=True)
class WordHits:
    """The query's words (stemmed, stopwords out) with their rarity weights, and which of the
    given blocks contain each."""

    weights: dict[str, float]
    found_in: dict[str, set[str]]  # block id -> the query words it contains

    def share(self, words: set[str]) -> float | None:
        total = sum(self.weights.values())
        return sum(self.weights[w] for w in words) / total if total else None

    def coverage(self) -> float | None:
        """The share found in any of the blocks."""
        return self.share(set().union(*self.found_in.values()) if self.found_in else set())

    def only(self, ids: list[str]) -> WordHits:
        """The same words, for ``ids`` only (each must be among the blocks asked for)."""
        return WordHits(self.weights, {b: self.found_in[b] for b in ids})

    def per_block(self) -> dict[str, float]:
        return {b: self.share(words) or 0.0 for b, words in self.found_in.items()}


def word_hits(
    conn: psycopg.Connection[Any], query: str, german: bool, scopes: list[str], ids: list[str]
) -> WordHits:
    """Weights are ``ln((N + 1) / (df + 0.5))`` over the scopes searched (``context_scope_terms``;
    a word rarer than the counts keep weighs as if no block had it), at least 0.05."""
    rows = conn.execute(
        _WORD_HITS_SQL,
        {"config": "german" if german else "english", "query": query, "scopes": scopes, "ids": ids},
    ).fetchall()
    weights: dict[str, float] = {}
    found: dict[str, set[str]] = {block_id: set() for block_id in ids}
    for r in rows:
        weights[r["lex"]] = max(float(r["idf"]), 0.05)
        if r["block_id"] is not None and r["hit"]:
            found[r["block_id"]].add(r["lex"])
    return WordHits(weights, found)


def similarity_bands(q: QueryRun) -> tuple[float, float] | None:
    """(related, confident) dense similarities: the settings' ``query.related_similarity`` and
    ``query.confident_similarity``, a setting left at 0 taking the value of the embedder that
    made the query vector; None when there is no usable calibration."""
    s = q.app.settings
    related, confident = (
        float(s["query.related_similarity"]),
        float(s["query.confident_similarity"]),
    )
    if (not related or not confident) and q.generation is not None and q.embedding is not None:
        calibrated = getattr(q.app.embedders.for_generation(q.generation), "similarity_bands", None)
        if calibrated:  # a setting left at 0 takes the embedder's value
            related, confident = related or calibrated[0], confident or calibrated[1]
    if not (related and confident) or related > confident:
        return None
    return related, confident
