"""One Dream cycle: a block finds the blocks a person would never have linked by hand.

0. Skip when no backend serves the ``dream`` role (nothing is claimed).
1. Claim the next due block (``dream_state``).
2. Keywords: up to five search phrases from the model, stored and reused while the content is
   unchanged.
3. Candidates: a fusion search per keyword inside the block's scope (links never cross a scope),
   blocks of linkable types not yet linked with this one.
4. Evaluation: the model types each candidate's relation with a confidence (``dream_eval``).
5. Recurrent: blocks on the same weekday, day of the month or day of the year with similar titles,
   confirmed by a second call; recurrent wins over topical for the same pair.
6. Safety net, floors, the per-cycle cap; the links are written with the pipeline version.
7. Cooldown: ``dream.cooldown_active_days`` after links, ``dream.cooldown_inert_days`` without,
   ``dream.cooldown_transient_minutes`` after a failure (three in a row: the inert cooldown).

Every model call passes the trust gate: a backend is tried only when it may see the block itself,
and sees only the candidates it may see. Each call has ``dream.call_timeout_s``, the whole cycle
``dream.cycle_timeout_s``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ctx.core import llm
from ctx.core.embed import active_generation, vector_literal
from ctx.core.errors import CtxError, error_text
from ctx.core.graph.dream_eval import (
    MAX_KEYWORDS,
    Candidate,
    Net,
    Proposal,
    candidate_block,
    capped,
    parse_keywords,
    parse_links,
    parse_recurrent,
    safety_net,
    source_block,
    with_recurrent,
)
from ctx.core.graph.dream_state import (
    FAILURES_BEFORE_INERT,
    Claimed,
    claim_block,
    release,
    store_keywords,
)
from ctx.core.graph.links import known_pairs, write_link
from ctx.core.llm import Piece
from ctx.core.retrieval import channel_weights, fuse
from ctx.core.runtime import enqueue

if TYPE_CHECKING:
    from ctx.core.app import App

log = logging.getLogger("ctx.dream")
PIPELINE_VERSION = 1
ROLE = "dream"
DAY = 86_400.0
SAMPLER = {"temperature": 0.7, "top_p": 0.8, "max_tokens": 400}
RECURRENT_DIMENSIONS = ("weekday", "monthday", "seasonal")
RECURRENT_LIMIT = 5
OVERVIEW_KIND = "graph.overview"


class Unreadable(CtxError):
    """The model's answer is not the JSON asked for."""


class CycleTimeout(CtxError):
    """The cycle ran past dream.cycle_timeout_s."""


@dataclass
class CycleResult:
    block_id: str | None
    outcome: str  # linked | inert | failed | skipped
    links: list[dict[str, Any]] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    candidates: int = 0
    ignored: list[str] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "block_id": self.block_id,
            "outcome": self.outcome,
            "links": self.links,
            "keywords": self.keywords,
            "candidates": self.candidates,
            "ignored": self.ignored,
            "error": self.error,
            "seconds": round(self.seconds, 3),
        }


class _Cycle:
    def __init__(self, app: App, block: Claimed, pause: Callable[[], None]) -> None:
        self.app = app
        self.block = block
        self.pause = pause
        s = app.settings
        self.deadline = time.monotonic() + float(s["dream.cycle_timeout_s"])
        self.version = str(s["dream.prompt_version"])
        self.piece = Piece(block.sensitivity, block.id)
        self.result = CycleResult(block.id, "inert")
        self.known: set[str] = {block.id}  # blocks already linked with this one (candidates)

    # -- model calls ---------------------------------------------------------------------------

    def _ask(
        self,
        prompt: str,
        values: Callable[[list[Piece]], dict[str, Any]],
        pieces: list[Piece],
        user: Callable[[list[Piece]], str],
        need: int = 1,
    ) -> llm.Reply:
        """One model call; ``values`` and ``user`` see only the pieces the backend may see."""
        left = self.deadline - time.monotonic()
        if left <= 1.0:
            raise CycleTimeout("the Dream cycle ran out of time (dream.cycle_timeout_s)")
        timeout = min(float(self.app.settings["dream.call_timeout_s"]), left)
        reply = llm.chat(
            self.app,
            ROLE,
            lambda admitted: [
                {
                    "role": "system",
                    "content": llm.render_prompt(prompt, self.version, **values(admitted)),
                },
                {"role": "user", "content": user(admitted)},
            ],
            pieces=pieces,
            need=need,
            required=[self.piece],
            params={**SAMPLER, llm.TIMEOUT_PARAM: timeout},
        )
        if self.app.settings["dream.throttle"] == "throttled":
            self.pause()
        return reply

    @staticmethod
    def _seen(cands: dict[str, Candidate], admitted: list[Piece]) -> dict[str, Candidate]:
        """The candidates the backend was shown (the trust gate withheld the others)."""
        ids = {str(p.value) for p in admitted}
        return {label: c for label, c in cands.items() if c.id in ids}

    def _source_text(self) -> str:
        chars = int(self.app.settings["dream.source_chars"])
        return source_block("source", self.block.title, self.block.content, chars)

    # -- steps ---------------------------------------------------------------------------------

    def keywords(self) -> list[str]:
        b = self.block
        if b.keywords and b.keywords_hash == b.content_hash:
            return list(b.keywords)
        chars = int(self.app.settings["dream.source_chars"])
        reply = self._ask(
            "dream-keywords",
            lambda _: {"max_keywords": MAX_KEYWORDS},
            [self.piece],
            lambda _: source_block("note", b.title, b.content, chars),
        )
        words = parse_keywords(reply.text)
        if words is None:
            raise Unreadable("the model's keywords were not a JSON array")
        with self.app.connection() as conn:
            store_keywords(conn, b.id, words, b.content_hash)
        return words

    def candidates(self, keywords: list[str]) -> dict[str, Candidate]:
        app, b = self.app, self.block
        per = int(app.settings["dream.candidates_per_keyword"])
        with app.connection() as conn:
            gen = active_generation(conn)
            skip = self.known = known_pairs(conn, b.id) | {b.id}
        embedder = app.embedders.for_generation(gen) if gen else None
        best: dict[str, tuple[int, int]] = {}  # id -> (best rank, -hits)
        for word in keywords or [b.title]:
            lit = None
            if embedder is not None:
                try:
                    lit = vector_literal(embedder.embed_query(word))
                except Exception as exc:  # the text channels still search
                    log.warning("dream: embedding %r failed: %s", word, error_text(exc))
            found = fuse(app, query=word, scopes=[b.scope], weights=channel_weights(app),
                         embedding=lit, generation=gen if lit else None,
                         exclude_ids=[b.id], result_limit=per * 3)  # fmt: skip
            rank = 0
            for c in found:
                if c.block_id in skip:
                    continue
                rank += 1
                if rank > per:
                    break
                old = best.get(c.block_id, (rank, 0))
                best[c.block_id] = (min(old[0], rank), old[1] - 1)
        order = sorted(best, key=lambda i: (*best[i], i))[
            : int(app.settings["dream.max_candidates"])
        ]
        return self._labelled(order, "C")

    def _labelled(self, ids: list[str], prefix: str) -> dict[str, Candidate]:
        if not ids:
            return {}
        with self.app.connection() as conn:
            rows = conn.execute(
                "SELECT b.id::text AS id, b.category, b.title, b.content, b.sensitivity, "
                "b.created_at, similarity(b.title, %s) AS sim FROM context_blocks b "
                "JOIN context_block_types t ON t.name = b.block_type AND t.dream_linkable "
                "WHERE b.id = ANY(%s::uuid[]) AND NOT b.is_archived AND b.scope = %s",
                (self.block.title, ids, self.block.scope),
            ).fetchall()
        by_id = {r["id"]: r for r in rows}
        out: dict[str, Candidate] = {}
        for i in ids:
            if (r := by_id.get(i)) is not None:
                label = f"{prefix}{len(out) + 1}"
                out[label] = Candidate(label, i, r["category"], r["title"], r["content"],
                                       r["sensitivity"], r["created_at"], float(r["sim"]))  # fmt: skip
        return out

    def _shown(self, cands: dict[str, Candidate], admitted: list[Piece]) -> str:
        seen = {str(p.value) for p in admitted}
        chars = int(self.app.settings["dream.candidate_chars"])
        parts = [self._source_text()]
        parts += [candidate_block(c, chars) for c in cands.values() if c.id in seen]
        return "\n\n".join(parts)

    def evaluate(self, cands: dict[str, Candidate]) -> list[Proposal]:
        if not cands:
            return []
        pieces = [self.piece, *(Piece(c.sensitivity, c.id) for c in cands.values())]
        most = int(self.app.settings["dream.max_links_per_cycle"])
        try:
            reply = self._ask(
                "dream-evaluate",
                lambda admitted: {"count": len(self._seen(cands, admitted)), "max_links": most},
                pieces,
                lambda admitted: self._shown(cands, admitted),
                need=2,  # the block and at least one candidate
            )
        except llm.NoBackend as exc:  # the block is visible (keywords came), its candidates not
            self.result.ignored.append(f"no backend may see a candidate: {exc.message}")
            return []
        parsed = parse_links(reply.text, self.block.id, self._seen(cands, reply.admitted))
        if parsed is None:
            raise Unreadable("the model's evaluation was not a JSON array")
        links, ignored = parsed
        if ignored:
            log.info("dream %s: ignored %s", self.block.id, "; ".join(ignored))
        self.result.ignored += ignored
        return links

    def recurrent(self, skip: set[str]) -> tuple[dict[str, float], dict[str, Candidate]]:
        s = self.app.settings
        with self.app.connection() as conn:
            rows = conn.execute(
                """
                SELECT DISTINCT o.id::text AS id, similarity(o.title, %(title)s) AS sim
                  FROM context_temporal mine
                  JOIN context_temporal theirs ON theirs.dimension = mine.dimension
                       AND theirs.value = mine.value AND theirs.block_id <> mine.block_id
                  JOIN context_blocks o ON o.id = theirs.block_id
                  JOIN context_block_types t ON t.name = o.block_type AND t.dream_linkable
                 WHERE mine.block_id = %(id)s AND mine.dimension = ANY(%(dims)s)
                   AND o.scope = %(scope)s AND NOT o.is_archived
                   AND similarity(o.title, %(title)s) > %(min)s
                 ORDER BY sim DESC, id LIMIT %(limit)s
                """,
                {
                    "title": self.block.title,
                    "id": self.block.id,
                    "dims": list(RECURRENT_DIMENSIONS),
                    "scope": self.block.scope,
                    "min": float(s["dream.recurrent_title_similarity"]),
                    "limit": RECURRENT_LIMIT * 2,
                },
            ).fetchall()
        ids = [r["id"] for r in rows if r["id"] not in skip][:RECURRENT_LIMIT]
        cands = self._labelled(ids, "R")
        if not cands:
            return {}, {}
        pieces = [self.piece, *(Piece(c.sensitivity, c.id) for c in cands.values())]
        try:
            reply = self._ask(
                "dream-recurrent",
                lambda admitted: {"count": len(self._seen(cands, admitted))},
                pieces,
                lambda admitted: self._shown(cands, admitted),
                need=2,
            )
        except llm.NoBackend as exc:
            self.result.ignored.append(f"no backend may see a recurrent candidate: {exc.message}")
            return {}, {}
        confirmed = parse_recurrent(reply.text, self._seen(cands, reply.admitted))
        if confirmed is None:
            raise Unreadable("the model's recurrent confirmation was not a JSON array")
        return confirmed, cands

    def write(self, proposals: list[Proposal]) -> None:
        written = []
        with self.app.connection() as conn:
            for p in proposals:
                # Two Dream threads may each propose a pair from its own end (the known pairs
                # were read before the model ran): the pair is locked, then checked again.
                pair = sorted((p.source_id, p.target_id))
                conn.execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", ("|".join(pair),)
                )
                if pair[1] in known_pairs(conn, pair[0]):
                    continue
                link_id = write_link(conn, p.source_id, p.target_id, p.type, p.confidence,
                                     pipeline_version=PIPELINE_VERSION, note=p.note)  # fmt: skip
                if link_id is not None:
                    written.append({"id": link_id, "source_id": p.source_id,
                                    "target_id": p.target_id, "type": p.type,
                                    "confidence": p.confidence, "note": p.note})  # fmt: skip
            if written:
                enqueue(conn, OVERVIEW_KIND, {}, dedupe_key="overview")
        self.result.links = written

    def run(self) -> CycleResult:
        s = self.app.settings
        words = self.keywords()
        self.result.keywords = words
        cands = self.candidates(words)
        self.result.candidates = len(cands)
        proposals = self.evaluate(cands)
        confirmed, rec_cands = self.recurrent(self.known)
        everyone = {**cands, **{f"x{k}": v for k, v in rec_cands.items()}}
        source = Candidate("source", self.block.id, self.block.category, self.block.title,
                           self.block.content, self.block.sensitivity, self.block.created_at,
                           1.0)  # fmt: skip
        net = Net(float(s["dream.min_confidence"]), float(s["dream.min_confidence_recurrent"]),
                  float(s["dream.supersedes_title_similarity"]),
                  int(s["dream.max_links_per_cycle"]))  # fmt: skip
        kept = safety_net(
            with_recurrent(proposals, self.block.id, confirmed), source, everyone, net
        )
        self.write(capped(kept, net.max_links))
        self.result.outcome = "linked" if self.result.links else "inert"
        return self.result


def _cooldown(app: App, outcome: str, errors: int) -> float:
    s = app.settings
    if outcome == "linked":
        return float(s["dream.cooldown_active_days"]) * DAY
    if outcome == "failed" and errors + 1 < FAILURES_BEFORE_INERT:
        return float(s["dream.cooldown_transient_minutes"]) * 60.0
    return float(s["dream.cooldown_inert_days"]) * DAY


def run_cycle(
    app: App,
    *,
    block_id: str | None = None,
    pause: Callable[[], None] = lambda: None,
    owner: int | None = None,
    scopes: list[str] | None = None,
) -> CycleResult | None:
    """Run one cycle (on a block of ``scopes`` when given); None when no block is due. A cycle that fails is reported in the result
    (outcome ``failed``) and its block cools down briefly; it never raises for a model's fault."""
    started = time.monotonic()
    why = llm.available(app, ROLE)
    if why is not None:
        return CycleResult(None, "skipped", error=why)
    lease = owner if owner is not None else app.lease.id()
    with app.connection() as conn:
        block = claim_block(conn, lease, block_id, scopes)
    if block is None:
        return None
    cycle = _Cycle(app, block, pause)
    result = cycle.result
    try:
        result = cycle.run()
    except (llm.ModelError, llm.NoBackend, Unreadable, CycleTimeout) as exc:
        result.outcome, result.error = "failed", error_text(exc)
        log.warning("dream cycle of %s failed: %s", block.id, result.error)
    except Exception as exc:
        result.outcome, result.error = "failed", error_text(exc)
        log.exception("dream cycle of %s crashed", block.id)
    finally:
        result.seconds = time.monotonic() - started
        with app.connection() as conn:
            release(conn, block.id, lease, outcome=result.outcome, links=len(result.links),
                    cooldown_s=_cooldown(app, result.outcome, block.errors),
                    error=result.error, content_hash=block.content_hash)  # fmt: skip
    return result
