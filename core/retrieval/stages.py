"""The built-in stages of the query path, in order:

scopes → language → temporal → embed → candidates → neighbours → rescore → gravity →
thresholds → trim → sources

``embed`` calls a model and is fail-open: when the embedder fails, the text channels still answer
and the response carries a warning. The model stages (``translate``, ``rerank``, ``synthesis``)
live in their own modules and are placed by name; graph expansion and the supersedes filter will
be too.
"""

from __future__ import annotations

import logging
import math

from ctx.core.embed import active_generation, embed_pending, waiting_for_scopes
from ctx.core.errors import error_text
from ctx.core.retrieval.candidates import Candidate, by_score, explain_candidate
from ctx.core.retrieval.confidence import (
    COVERAGE_HITS,
    LOW_CONFIDENCE,
    LOW_CONFIDENCE_SOURCES,
    NOTHING_FOUND,
    Bands,
    Evidence,
    classify,
    classify_evidence,
    similarity_bands,
    threshold_scale,
)
from ctx.core.retrieval.fusion import SCORE_LABELS, fuse
from ctx.core.retrieval.language import detect_german
from ctx.core.retrieval.named_time import (
    Place,
    names_days,
    nearest_first,
    places,
    topic_over_date,
)
from ctx.core.retrieval.neighbours import neighbours
from ctx.core.retrieval.pipeline import QueryRun, QueryStage
from ctx.core.retrieval.rescore import question_hits, rescore
from ctx.core.retrieval.sources import fetch_sources
from ctx.core.retrieval.support import text_support
from ctx.core.retrieval.temporal_llm import apply_fallback
from ctx.core.temporal import date_query, extract_pending, gravity_factors

log = logging.getLogger("ctx.retrieval")


def scopes(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """The scopes this query reads: those asked for (each must be readable) or all readable."""
    q.scopes = q.who.scopes_for(q.request.scopes)
    q.note(scopes=q.scopes)
    return candidates


def language(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """Guess whether the query is German (informational: both full-text channels always run)."""
    q.language = detect_german(q.request.query).as_dict()
    return candidates


def temporal(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """Resolve the time the query names (rules, then the model when they find none); extract the
    caller's pending blocks first if it does."""
    q.temporal = q.app.temporal_parser.parse(q.request.query, now=q.request.now)
    q.temporal = apply_fallback(q, q.temporal)  # the translate chain, when the rules found none
    if q.temporal.matched and q.inline:
        q.note(matcher=q.temporal.matcher, extracted_inline=extract_pending(q.app, q.scopes))
    return candidates


def embed(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """Embed some of the caller's pending blocks (within ``query.inline_embed_ms``) and the query
    with the active generation's model; a query that arrives while ctxd warms up waits for it."""
    waited = q.app.warmup.wait(int(q.app.settings["query.warmup_wait_ms"]) / 1000)
    if waited is not None:
        q.note(waited_for_warmup_ms=round(waited, 1))
    q.generation = q.read(active_generation)
    if q.generation is None:
        q.warn("no embedding generation: dense channel skipped")
        return candidates
    if q.weights["dense"] <= 0:
        return candidates
    if q.inline:
        _embed_inline(q)
    try:
        q.embedding = q.query_vector(_dense_query(q))
    except Exception as exc:
        log.warning("query embedding failed: %s", error_text(exc, str))
        q.warn(f"query embedding failed ({error_text(exc, str)}); dense channel skipped")
    return candidates


def _embed_inline(q: QueryRun) -> None:
    """Embed what the time allows of the caller's waiting blocks when they are a few fresh ones
    (at most ``query.inline_embed_max_waiting``); a larger backlog is the worker's, and a query
    that nibbled at it would pay the model's time on every call without finishing it. Say how
    many still wait (the text and date channels find those)."""
    waiting = waiting_for_scopes(q.app, q.scopes)
    if waiting and waiting <= int(q.app.settings["query.inline_embed_max_waiting"]):
        try:
            done = embed_pending(q.app, q.scopes)
        except Exception as exc:
            done = 0
            q.warn(f"embedding pending blocks failed ({error_text(exc, str)}); found by text")
        q.note(embedded_inline=done)
        if done:
            waiting = waiting_for_scopes(q.app, q.scopes)
    elif waiting:
        q.note(backlog_left_to_worker=True)
    q.note(not_yet_embedded=waiting)
    if waiting:
        what = (
            "1 block of these scopes is"
            if waiting == 1
            else f"{waiting} blocks of these scopes are"
        )
        q.warn(f"{what} not embedded yet: found by text only")


def _text_query(q: QueryRun) -> str:
    """The text channels search the query and, when it was translated, the translation too:
    German blocks keep matching the German words, English blocks match the translation. When the
    query names a time (and ``query.topic_text`` is on), its time words are left out: the date
    channel and gravity answer them, and in the text channels "May 2023" would match every block
    that mentions the month."""
    text = q.request.query
    if q.search_text and q.search_text != q.request.query:
        text = f"{q.request.query} {q.search_text}"
    if q.temporal.matched and q.app.settings["query.topic_text"]:
        topic = q.app.temporal_parser.residual(text)
        if topic.strip():
            q.note(topic_text=topic)
            return topic
    return text


def _dense_query(q: QueryRun) -> str:
    """What the dense channel embeds: the query (or its translation), without its time words
    when it names a time and asks something besides (``query.topic_text``): "last Tuesday" says
    nothing about a block's meaning, and it draws the question away from the blocks of its topic
    (and the similarity the confidence class reads with it). The function words stay: the model
    reads a question."""
    text = q.search_text or q.request.query
    if q.temporal.matched and q.app.settings["query.topic_text"]:
        parser = q.app.temporal_parser
        if parser.residual(text).strip() and (topic := parser.without_time(text)).strip():
            q.note(topic_embedded=topic)
            return topic
    return text


def candidates(q: QueryRun, _: list[Candidate]) -> list[Candidate]:
    """Weighted RRF over every channel in one SQL call (``ctx_rrf``), the full-text part
    weighed by how much of the question each block holds (``query.text_support``)."""
    req = q.request
    fused = fuse(
        q.app,
        query=_text_query(q),
        scopes=q.scopes,
        weights=q.weights,
        embedding=q.embedding,
        generation=q.generation,
        category=req.category,
        tags=req.tags,
        exclude_ids=req.exclude_ids,
        exclude_types=req.exclude_types,
        date_query=date_query(q.temporal),
        private_category=req.private_category,
        # blocks granted to the caller's tenant, unless the query names its scopes
        tenant=q.who.tenant_id if req.scopes is None else None,
        reads=q.reads,
    )
    return text_support(q, fused)


def gravity_boost(q: QueryRun) -> float:
    """``query.gravity_boost``, divided by log2 of the days the query names when
    ``query.gravity_narrow`` is on: a named day pulls hardest, a month or a year much less (every
    block in it would be pulled alike)."""
    boost = float(q.app.settings["query.gravity_boost"])
    if not q.app.settings["query.gravity_narrow"]:
        return boost
    days = len(q.temporal.days(limit=3660)) or 1
    return boost / max(1.0, math.log2(days))


def gravity(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """Pull blocks dated near the time the query names forward (linear and cyclic gravity); a
    block whose only match is its date stays below the topic's block of that period."""
    if not candidates or not q.temporal.matched or not q.app.settings["query.temporal_gravity"]:
        return candidates
    boost = gravity_boost(q)
    factors = gravity_factors(
        q.app, [c.block_id for c in candidates], q.temporal, boost_cap=boost, reads=q.reads
    )
    for c in candidates:
        c.rescore("gravity", factors[c.block_id])
    q.note(pulled=sum(1 for f in factors.values() if f > 1.0))
    return topic_over_date(q, by_score(candidates)) if names_days(q) else by_score(candidates)


def _bands(q: QueryRun) -> Bands:
    """The similarity bands of the settings, else of the embedder that made the query vector
    (None: no calibration, the words decide), and the coverage thresholds."""
    s = q.app.settings
    related, confident = similarity_bands(q) or (0.0, 0.0)  # none: the words decide
    return Bands(
        related or None,
        confident or None,
        float(s["query.confident_coverage"]),
        float(s["query.unrelated_coverage"]),
        float(s["query.words_confident_coverage"]),
        float(s["query.words_floor_coverage"]),
        float(s["query.sure_coverage"]),
    )


def evidence(q: QueryRun, candidates: list[Candidate], placed: dict[str, Place]) -> Evidence:
    """The best dense similarity among the candidates, the first hits' coverage of the question's
    words (its time words left out; the better of the query and its translation) and, when it
    names a time, whether a first hit lies in it."""
    sims = [v for c in candidates if (v := c.channel_scores.get("dense")) is not None]
    first = candidates[:COVERAGE_HITS]  # in the order handed on (rerank may have re-ordered)
    time_hit = None
    if q.temporal.matched:
        # "Lies in it": one of its days is among the named ones (not merely in their month, as
        # the date channel's month tokens find). Gravity alone is no proof: it pulls anything
        # near the time a little. A purely cyclic time names no days: nothing lies in it.
        time_hit = any(placed[c.block_id].distance == 0 for c in first if c.block_id in placed)
    shares = [h.coverage() for h in question_hits(q, [c.block_id for c in first])]
    known = [s for s in shares if s is not None]
    cov = max(known) if known else None
    return Evidence(max(sims) if sims else None, cov, time_hit)


def thresholds(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """The confidence class (from the evidence of the best hits, or from the best score with
    ``query.confidence score``); drop what falls under the score floor."""
    s = q.app.settings
    q.considered = len(candidates)
    best = max((c.score for c in candidates), default=0.0)  # rerank may reorder
    scale = threshold_scale(int(s["query.rrf_k"]))
    floor = float(s["query.score_threshold"]) * scale
    if not candidates:
        q.confidence = NOTHING_FOUND
    placed = places(q, candidates) if candidates and names_days(q) else {}
    if not candidates:
        q.confidence = NOTHING_FOUND
    elif s["query.confidence"] == "score":
        q.confidence = classify(best, float(s["query.confident_threshold"]) * scale, floor)
    else:
        ev = evidence(q, candidates, placed)
        q.confidence = classify_evidence(ev, _bands(q))
        q.note(**ev.as_dict())
    q.note(best=round(best, 6), floor=round(floor, 6))
    kept = [c for c in candidates if c.score >= floor]
    empty_time = bool(placed) and all(p.distance != 0 for p in placed.values())
    if s["query.confidence_cut"] == "cut":  # the seed's: the class removes sources
        if q.confidence == NOTHING_FOUND:
            return []
        if q.confidence == LOW_CONFIDENCE:
            kept = kept[:LOW_CONFIDENCE_SOURCES]
    elif q.confidence == NOTHING_FOUND and not kept:
        return []
    elif q.confidence == NOTHING_FOUND:
        q.warn("nothing clearly answers this; the sources are the nearest blocks")
    if empty_time and q.confidence != NOTHING_FOUND:
        # Nothing lies in the named time, but the topic's blocks exist: they answer (as many as
        # their evidence keeps), nearest to the time first, and the time they miss lowers the
        # class.
        q.confidence = LOW_CONFIDENCE
        head, note = nearest_first(q, kept[: _limit(q)], placed)
        q.warn(note)
        kept = head + kept[len(head) :]
    return kept


def trim(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """At most ``limit`` candidates (default ``query.default_limit``)."""
    return candidates[: _limit(q)]


def _limit(q: QueryRun) -> int:
    return q.request.limit or int(q.app.settings["query.default_limit"])


def sources(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """The blocks behind the candidates, with snippets; per channel ranks with ``explain``."""
    past = {block_id: v["content"] for block_id, v in q.versions.items()}
    q.sources = fetch_sources(q.app, candidates, q.request.query, past, reads=q.reads)
    for source in q.sources:
        source.update(q.source_fields.get(source["id"], {}))
    if q.request.explain:
        by_id = {c.block_id: c for c in candidates}
        for source in q.sources:
            source["channels"] = explain_candidate(by_id[source["id"]], SCORE_LABELS)
    return candidates


BUILTIN_STAGES: tuple[QueryStage, ...] = (
    QueryStage("scopes", scopes, description=scopes.__doc__ or ""),
    QueryStage("language", language, description=language.__doc__ or ""),
    QueryStage("temporal", temporal, description=temporal.__doc__ or ""),
    QueryStage("embed", embed, fail_open=True, description=embed.__doc__ or ""),
    QueryStage("candidates", candidates, description=candidates.__doc__ or ""),
    QueryStage("neighbours", neighbours, description=neighbours.__doc__ or ""),
    QueryStage("rescore", rescore, description=rescore.__doc__ or ""),
    QueryStage("gravity", gravity, description=gravity.__doc__ or ""),
    QueryStage("thresholds", thresholds, description=thresholds.__doc__ or ""),
    QueryStage("trim", trim, description=trim.__doc__ or ""),
    QueryStage("sources", sources, description=sources.__doc__ or ""),
)
